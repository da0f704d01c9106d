// Method `stencil` (paper 1, CInDeR): layouts, bindings and limits shared by shaders_glsl/stencil_*
// and passes/stencil_*.cpp, collision/stencil_detector*.cpp.
#ifndef VKC_SHARED_STENCIL_H
#define VKC_SHARED_STENCIL_H

#include "vertex_fetch.h"  // ObjectGpu, VertexSourceGpu, the vertex-buffer array

VKC_NAMESPACE_BEGIN

// The stencil is cleared to 128 and read as "128 + signed count": the paper's signed stencil
// (> 0 interference, < 0 open mesh) then becomes an unsigned compare against one reference
// (stencil > 128, stencil < 128), which a single VkStencilOpState can express.
VKC_CONSTANT(uint, kStencilBias, 128u)
// One thread per vertex for the normals; 64 is a whole subgroup or two on every device.
VKC_CONSTANT(uint, kStencilNormalsGroupSize, 64u)
// 8x8 pixel tiles for the id-image scan: square tiles keep neighbouring rows in one group.
VKC_CONSTANT(uint, kStencilScanGroupSize, 8u)
// One thread per potentially colliding pair in the compaction.
VKC_CONSTANT(uint, kStencilCompactGroupSize, 64u)

// Draw set (graphics): objects, per-vertex normals, the frame's views (ImageFrameGpu, set up on
// the GPU: shared/image_frame.h) and the vertex buffers (kBindingVertexBuffers).
VKC_CONSTANT(uint, kStencilBindingObjects, 0u)
VKC_CONSTANT(uint, kStencilBindingNormals, 1u)
VKC_CONSTANT(uint, kStencilBindingFrame, 6u)
// Normals set (compute): topology (triangle indices + vertex->triangle adjacency), normals, vertices.
VKC_CONSTANT(uint, kStencilBindingTopology, 3u)
// Scan set (compute): the two id images, the candidates' flags, the point list (and the frame, and
// the candidates with their hash slots, candidate_flags.glsl).
VKC_CONSTANT(uint, kStencilBindingPenetratingImage, 0u)
VKC_CONSTANT(uint, kStencilBindingPenetratedImage, 1u)
VKC_CONSTANT(uint, kStencilBindingPairFlags, 2u)
VKC_CONSTANT(uint, kStencilBindingPoints, 3u)
VKC_CONSTANT(uint, kStencilBindingObjectFlags, 8u)  // uint per scene object: kStencilObject* bits
// Compact set (compute, also candidate_index.comp's): the potentially colliding pairs, their flags
// and hash slots, the unique pair list, the candidates no view found (unfound).
VKC_CONSTANT(uint, kStencilBindingCandidates, 4u)
VKC_CONSTANT(uint, kStencilBindingCandidateSlots, 9u)
VKC_CONSTANT(uint, kStencilBindingPairs, 5u)
VKC_CONSTANT(uint, kStencilBindingUnfound, 7u)

// One scene object as the stencil shaders see it (std430, 96 bytes). objectToLocal is rigid +
// uniform scale, so normals transform by its 3x3 part.
struct StencilObjectGpu {
    ObjectGpu object;
    uint normalBase;      // first vertex of this object's mesh in the normals buffer
    uint pad0;
    uint pad1;
    uint pad2;
};

// What the id-image scan saw of an object in some view (StencilFrameDetails): its id in image A
// (an edge of it passed the stencil test, 5.1) or in image B (an edge point inside it, 5.2).
VKC_CONSTANT(uint, kStencilObjectPenetrating, 1u)
VKC_CONSTANT(uint, kStencilObjectPenetrated, 2u)

// Push constants of every draw (vertex and fragment stages, 16 bytes). The object is the draw's
// instance (the frame setup's firstInstance), which the vertex shader hands to the id passes.
struct StencilDrawPush {
    uint view;               // index into the frame's views
    float edgeOffsetPixels;  // edges move this many of the frame's pixels along vertex normals (paper 6.3)
    uint pad0;
    uint pad1;
};

struct StencilNormalsPush {
    VertexSourceGpu vertices;  // the mesh's
    uint triangleBase;    // topology index of the mesh's first triangle index
    uint adjacencyBase;   // topology index of the mesh's vertexCount + 1 CSR offsets
    uint listBase;        // topology index of the mesh's CSR triangle list
    uint normalBase;      // first normal (vec3) of the mesh in the normals buffer
};

struct StencilScanPush {
    uint view;            // its clipToWorld unprojects id-image pixels (paper 6.2)
    uint width;
    uint height;
    uint candidateSlotMask;  // the candidates' hash slots, a power of two, minus one
    uint pointCapacity;
};

struct StencilCompactPush {
    uint candidateCapacity;  // entries the candidate list stores at most (its header counts them)
    uint candidateSlotMask;  // the candidates' hash slots, a power of two, minus one
    uint pairCapacity;
    uint unfoundCapacity;    // candidates without a flag kept at most (count exact past it)
};

// Header of the point and pair lists; count is exact even past capacity.
struct StencilListHeader {
    uint count;
    uint capacity;
    uint pad0;
    uint pad1;
};

// A colliding pair, a < b. flags bit 0: an edge of a lies inside b; bit 1: an edge of b inside a.
struct StencilPairGpu {
    uint a;
    uint b;
    uint flags;
    uint pad;
};

// An interfering edge point in world space; objects = penetrating << 16 | penetrated.
struct StencilPointGpu {
    float x;
    float y;
    float z;
    uint objects;
};

VKC_NAMESPACE_END

#endif
