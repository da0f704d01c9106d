// GLSL only, for the shaders that read vertices: the vertex-buffer array (shared/vertex_fetch.h)
// and the one function that reads a position from it.
#ifndef VKC_VERTEX_FETCH_GLSL
#define VKC_VERTEX_FETCH_GLSL

#include "shared/vertex_fetch.h"

// Lanes of one subgroup may read different buffers (the AABB traversal mixes pairs of different meshes).
#extension GL_EXT_nonuniform_qualifier : require

layout(set = 0, binding = kBindingVertexBuffers, std430) readonly buffer VertexBuffers {
    float data[];
} vertexBuffers[];

// Position of vertex `vertex` of `source`, in the space its buffer stores (object space).
vec3 fetchVertex(VertexSourceGpu source, uint vertex) {
    uint slot = source.slot;
    uint base = source.offset + vertex * source.stride;
    return vec3(vertexBuffers[nonuniformEXT(slot)].data[base], vertexBuffers[nonuniformEXT(slot)].data[base + 1u],
                vertexBuffers[nonuniformEXT(slot)].data[base + 2u]);
}
#endif
