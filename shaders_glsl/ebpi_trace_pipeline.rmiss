// ebpi casting, `ray-tracing-pipeline` backend: the miss shader. A ray's hits were recorded by the
// intersection shader on the way; there is nothing to do when it leaves the scene.
#version 460
#extension GL_EXT_ray_tracing : require

void main() {}
