// Vertices of one object's edges (LINE_LIST, spec constant kOffsetEdges = true) or triangles
// (TRIANGLE_LIST, false), read from the mesh's vertex buffer in place through the index buffer
// (gl_VertexIndex is the mesh-local vertex), transformed by the object and projected by the view
// the frame setup fitted on the GPU.
// Edges move outward along the GPU-computed vertex normals (paper 1, section 6.3) so that a
// rasterized edge never lies inside its own polyhedron. `invariant` because the penetrating pass
// redraws the same edges with depth test LESS_OR_EQUAL against the depth the edge pass wrote.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/image_frame.h"
#include "shared/stencil.h"
#include "vertex_fetch.glsl"

layout(constant_id = 0) const bool kOffsetEdges = false;

layout(set = 0, binding = kStencilBindingObjects, std430) readonly buffer Objects { StencilObjectGpu objects[]; };
layout(set = 0, binding = kStencilBindingNormals, std430) readonly buffer Normals { float normals[]; };
layout(set = 0, binding = kStencilBindingFrame, std430) readonly buffer Frame { ImageFrameGpu frame; };

layout(push_constant) uniform Push { StencilDrawPush push; };

invariant gl_Position;
layout(location = 0) flat out uint outObject;  // the id passes' object (id object + 1)

void main() {
    StencilObjectGpu stencilObject = objects[gl_InstanceIndex];  // the frame setup's firstInstance
    ObjectGpu object = stencilObject.object;
    uint vertex = uint(gl_VertexIndex);
    vec3 world = (object.objectToLocal * vec4(fetchVertex(object.vertices, vertex), 1.0)).xyz;
    if (kOffsetEdges) {
        uint n0 = (stencilObject.normalBase + vertex) * 3u;
        vec3 normal = mat3(object.objectToLocal) * vec3(normals[n0], normals[n0 + 1u], normals[n0 + 2u]);
        if (dot(normal, normal) > 0.0) world += normalize(normal) * (push.edgeOffsetPixels * frame.pixelSize);
    }
    gl_Position = frame.worldToClip[push.view] * vec4(world, 1.0);
    outObject = uint(gl_InstanceIndex);
}
