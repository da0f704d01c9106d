// Vertices of one object's triangles for every consistent-pairs draw (paper 3), read from the mesh's
// vertex buffer in place through the index buffer (gl_VertexIndex is the mesh-local vertex),
// transformed by the object and projected by the frame's view. The world position goes to the
// fragment stages, whose derivatives give the normal of the triangle hit. `invariant` because the
// passes compare depths of the same triangle drawn by different pipelines for equality.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/consistent_pairs_sets.h"
#include "vertex_fetch.glsl"

layout(location = 0) out vec3 outWorld;
layout(location = 1) flat out uint outObject;

invariant gl_Position;

void main() {
    outObject = uint(gl_InstanceIndex);  // the frame setup's firstInstance: the object
    ObjectGpu object = objects[outObject];
    outWorld = (object.objectToLocal * vec4(fetchVertex(object.vertices, uint(gl_VertexIndex)), 1.0)).xyz;
    gl_Position = worldToClip() * vec4(outWorld, 1.0);
}
