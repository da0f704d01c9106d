// Vertices of one object's edges (LINE_LIST, spec constant kOffsetEdges = true) or triangles
// (TRIANGLE_LIST, false), read from the mesh's vertex buffer in place through the index buffer
// (gl_VertexIndex is the mesh-local vertex), transformed by the object and projected by the view.
// Edges move outward along the GPU-computed vertex normals (paper 1, section 6.3) so that a
// rasterized edge never lies inside its own polyhedron. `invariant` because the penetrating pass
// redraws the same edges with depth test LESS_OR_EQUAL against the depth the edge pass wrote.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/stencil.h"

layout(constant_id = 0) const bool kOffsetEdges = false;

layout(set = 0, binding = kStencilBindingObjects, std430) readonly buffer Objects { StencilObjectGpu objects[]; };
layout(set = 0, binding = kStencilBindingNormals, std430) readonly buffer Normals { float normals[]; };
layout(set = 0, binding = kStencilBindingMeshVertices, std430) readonly buffer MeshVertices {
    float data[];
} meshVertices[kStencilMaxMeshSlots];

layout(push_constant) uniform Push { StencilDrawPush push; };

invariant gl_Position;

void main() {
    StencilObjectGpu object = objects[push.object];
    uint vertex = uint(gl_VertexIndex);
    uint base = object.vertexOffset + vertex * object.vertexStride;
    vec3 local = vec3(meshVertices[object.meshSlot].data[base], meshVertices[object.meshSlot].data[base + 1],
                      meshVertices[object.meshSlot].data[base + 2]);
    vec3 world = (object.objectToWorld * vec4(local, 1.0)).xyz;
    if (kOffsetEdges) {
        uint n0 = (object.normalBase + vertex) * 3u;
        vec3 normal = mat3(object.objectToWorld) * vec3(normals[n0], normals[n0 + 1u], normals[n0 + 2u]);
        if (dot(normal, normal) > 0.0) world += normalize(normal) * push.edgeOffset;
    }
    gl_Position = push.worldToClip * vec4(world, 1.0);
}
