// Layouts and limits of the EBPI built on the GPU (method `ebpi`, paper 5, Sec. 4.1-4.2), shared by
// ebpi_depth_extent.comp, ebpi_edge_terms.comp, ebpi_transient_terms.comp and
// passes/ebpi/ebpi_image_passes.cpp.
// All structs are std430 and made of 4-byte scalars and 8-byte doubles in an order that needs no
// padding, so the C++ mirror has the same offsets (static_assert'ed below). The CPU reference of
// every number here is collision/ebpi/ (ebpi_edge_terms.h, ebpi_fixed_point.h).
#ifndef VKC_SHARED_EBPI_IMAGE_H
#define VKC_SHARED_EBPI_IMAGE_H

#include "glsl_cpp.h"
#include "vertex_fetch.h"  // ObjectGpu, the vertex-buffer array

VKC_NAMESPACE_BEGIN

// Threads per workgroup of the three passes (one thread per edge; the extent pass: per vertex).
VKC_CONSTANT(uint, kEbpiImageGroupSize, 64u)
// Workgroups in x every device supports; more edges are covered by a grid-stride loop, more jobs
// by one dispatch per kEbpiImageMaxGroups jobs (push constant firstJob).
VKC_CONSTANT(uint, kEbpiImageMaxGroups, 65535u)
// Fixed-point channels per pixel: touching (w2h, wh2, h3, w3, wh), alongX, alongY (ebpi_fixed_point.h).
VKC_CONSTANT(uint, kEbpiPixelChannels, 15u)

// Descriptor bindings (set 0); each pass uses a subset.
VKC_CONSTANT(uint, kEbpiImageBindingObjects, 0u)   // ObjectGpu[], read
VKC_CONSTANT(uint, kEbpiImageBindingViews, 1u)     // EbpiViewGpu[], read
VKC_CONSTANT(uint, kEbpiImageBindingJobs, 2u)      // EbpiImageJobGpu[], read
VKC_CONSTANT(uint, kEbpiImageBindingEdges, 3u)     // EbpiMeshEdgeGpu[], read
VKC_CONSTANT(uint, kEbpiImageBindingExtents, 4u)   // EbpiDepthExtentGpu[] per job, written then read
VKC_CONSTANT(uint, kEbpiImageBindingPixels, 5u)    // EbpiPixelGpu[], atomics
VKC_CONSTANT(uint, kEbpiImageBindingStatus, 6u)    // uint[] per view: overflow flag
// Transient edges (ebpi_transient_terms.comp): the frame's candidate triangle pairs from its
// aabb-tree traversal (shared/aabb_tree.h), their count, the scene's indices and each pair's entry.
VKC_CONSTANT(uint, kEbpiImageBindingIndices, 7u)        // uint[] triangle indices of every mesh, read
VKC_CONSTANT(uint, kEbpiImageBindingTrianglePairs, 8u)  // AabbTrianglePairGpu[], read
VKC_CONSTANT(uint, kEbpiImageBindingTraversal, 9u)      // AabbTraversalStateGpu, read
VKC_CONSTANT(uint, kEbpiImageBindingCrossingPairs, 10u) // EbpiCrossingPairGpu[] per tested pair, read

// One view: the rotation taking its ray direction to +z and its EBPI window (EbpiWindow).
struct EbpiViewGpu {
    double rotation[9];       // rows u, v, d (EbpiRotation), row-major
    double originX;           // ray-frame x, y of pixel (0, 0)'s lower corner
    double originY;
    double pixelX;            // pixel size, > 0
    double pixelY;
    double scales[15];        // quanta per unit of each channel (ebpiFixedPointScales), powers of two
    uint width;               // pixels
    uint height;
    uint firstPixel;          // of this view's row-major image in the pixel buffer
    uint unused;
    double regionLo[3];       // EbpiEdgeRegion's box, before the rotation: edges that miss it add
    double regionHi[3];       // no term unless beside a steep face (infinite: every edge)
};

// One object's edges in one view: edges firstEdge.. of the edge buffer.
struct EbpiImageJobGpu {
    uint view;
    uint object;              // index into the object table (ObjectGpu)
    uint firstEdge;
    uint edgeCount;
};

// A mesh edge (ebpiMeshEdges): its vertices a < b and its two triangles' vertices in index order
// (the order the depth gradient's cross product uses).
struct EbpiMeshEdgeGpu {
    uint a;
    uint b;
    uint triangleI[3];
    uint triangleJ[3];
};

// [min z, max z] of a job's object in its view's ray frame: every steep wall's depth range lies
// inside it (ebpi_edge_terms.h, EbpiSteepWallDepth::MeshDepthExtent).
struct EbpiDepthExtentGpu {
    double minZ;
    double maxZ;
};

// An edge's projected segment and bound polynomial (EbpiEdgeTerm), as the shaders hand it to the
// rasterization (ebpi_term_raster.glsl); all-zero bound: no term.
struct EbpiEdgeTermGpu {
    double ax;
    double ay;
    double bx;
    double by;
    double bound[5];          // w2h, wh2, h3, w3, wh
};

// One EBPI pixel: 15 unsigned 64-bit fixed-point channels as (low, high) word pairs, summed with
// 32-bit atomics and a carry (ebpi_term_raster.glsl), then the count of touching edges.
struct EbpiPixelGpu {
    uint words[30];
    uint edges;
    uint unused;
};

// A tested pair as ebpi_transient_terms.comp sees it (the traversal's pair index is the frame's
// pair index): its overlap box relative to the pair's origin, its objects, where their meshes'
// indices start, its three views (firstView, +1, +2).
struct EbpiCrossingPairGpu {
    double regionLo[3];
    double regionHi[3];
    uint objectA;
    uint objectB;
    uint firstIndexA;
    uint firstIndexB;
    uint firstView;
    uint unused0;
    uint unused1;
    uint unused2;
};

struct EbpiImagePush {
    uint firstJob;            // jobs of this dispatch: firstJob + gl_WorkGroupID.y
    uint jobCount;            // all jobs
    uint trianglePairCapacity;  // ebpi_transient_terms.comp: entries of the triangle pair list
    uint unused1;
};

VKC_NAMESPACE_END

#ifdef __cplusplus
#include <cstddef>
static_assert(sizeof(vkc::gpu::EbpiViewGpu) == 288 && offsetof(vkc::gpu::EbpiViewGpu, scales) == 104 &&
              offsetof(vkc::gpu::EbpiViewGpu, width) == 224 && offsetof(vkc::gpu::EbpiViewGpu, regionLo) == 240);
static_assert(sizeof(vkc::gpu::EbpiImageJobGpu) == 16);
static_assert(sizeof(vkc::gpu::EbpiMeshEdgeGpu) == 32 && offsetof(vkc::gpu::EbpiMeshEdgeGpu, triangleJ) == 20);
static_assert(sizeof(vkc::gpu::EbpiDepthExtentGpu) == 16);
static_assert(sizeof(vkc::gpu::EbpiEdgeTermGpu) == 72 && offsetof(vkc::gpu::EbpiEdgeTermGpu, bound) == 32);
static_assert(sizeof(vkc::gpu::EbpiPixelGpu) == 128 && offsetof(vkc::gpu::EbpiPixelGpu, edges) == 120);
static_assert(sizeof(vkc::gpu::EbpiImagePush) == 16);
static_assert(sizeof(vkc::gpu::EbpiCrossingPairGpu) == 80 && offsetof(vkc::gpu::EbpiCrossingPairGpu, objectA) == 48);
#endif

#endif
