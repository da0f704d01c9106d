// Per-vertex normals of one mesh, recomputed every frame from the vertices the GPU reads (so
// deforming meshes work): the area-weighted sum of the adjacent triangles' normals, through a
// vertex -> triangle adjacency (CSR) built once per mesh on the CPU. No atomics: one thread owns
// one vertex. The edge pass offsets edges along these (paper 1, section 6.3).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/stencil.h"
#include "vertex_fetch.glsl"

layout(local_size_x = kStencilNormalsGroupSize) in;

layout(set = 0, binding = kStencilBindingTopology, std430) readonly buffer Topology { uint topology[]; };
layout(set = 0, binding = kStencilBindingNormals, std430) writeonly buffer Normals { float normals[]; };

layout(push_constant) uniform Push { StencilNormalsPush push; };

vec3 position(uint vertex) { return fetchVertex(push.vertices, vertex); }

void main() {
    uint vertex = gl_GlobalInvocationID.x;
    if (vertex >= push.vertices.count) return;
    uint begin = topology[push.adjacencyBase + vertex];
    uint end = topology[push.adjacencyBase + vertex + 1u];
    vec3 sum = vec3(0.0);
    for (uint k = begin; k < end; ++k) {
        uint triangle = topology[push.listBase + k];
        uint i = push.triangleBase + triangle * 3u;
        vec3 p0 = position(topology[i]);
        vec3 p1 = position(topology[i + 1u]);
        vec3 p2 = position(topology[i + 2u]);
        sum += cross(p1 - p0, p2 - p0);
    }
    // An unreferenced vertex or a fan of zero-area triangles gets no offset rather than a NaN.
    vec3 n = dot(sum, sum) > 0.0 ? normalize(sum) : vec3(0.0);
    uint out0 = (push.normalBase + vertex) * 3u;
    normals[out0] = n.x;
    normals[out0 + 1u] = n.y;
    normals[out0 + 2u] = n.z;
}
