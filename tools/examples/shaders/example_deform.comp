#version 450
// The host's own deformation pass: one mesh's positions in the interleaved vertex buffer become
// its rest positions times a scale (normals are unchanged by a uniform scale).
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer Rest { float rest[]; };       // xyz, tightly packed
layout(std430, set = 0, binding = 1) writeonly buffer Vertices { float vertices[]; };  // position, normal

layout(push_constant) uniform Deform {
    uint firstVertex;
    uint vertexCount;
    float scale;
} deform;

void main() {
    const uint i = gl_GlobalInvocationID.x;
    if (i >= deform.vertexCount) return;
    const uint v = (deform.firstVertex + i) * 6u;
    for (uint k = 0u; k < 3u; ++k) vertices[v + k] = rest[3u * i + k] * deform.scale;
}
