// Method `ebpi`: a frame's tested pairs set up on the GPU from its candidates (the same frame's
// broadphase pairs and boxes, or a host's in the same layout: collision/frames/gpu_candidates.h),
// so that no box, pair or count comes from the CPU inside a frame (ebpi_pair_setup.comp). The
// frame's tables have one slot per pair it can test (EbpiSettings::maxPairs): slot p owns objects
// 2p and 2p + 1, views and ray views 3p .. 3p + 2, image jobs 6p .. 6p + 5, its pixels and tiles,
// and pair entries p; a slot past the frame's pairs is written empty (no triangles, edges, pixels
// or tiles), so every later pass does nothing for it.
// The box arithmetic is written once here for GLSL and C++ (the CPU reference of the views,
// collision/ebpi/ebpi_pair_views.cpp, calls it), in a fixed order (VKC_PRECISE), so both round alike.
#ifndef VKC_SHARED_EBPI_PAIR_SETUP_H
#define VKC_SHARED_EBPI_PAIR_SETUP_H

#include "ebpi_view_fit.h"
#include "vertex_fetch.h"

VKC_NAMESPACE_BEGIN
#ifdef __cplusplus
VKC_INLINE double ebpiFrexp(double x, VKC_INOUT(int) exponent) { return std::frexp(x, &exponent); }
VKC_INLINE double ebpiLdexp(double x, int exponent) { return std::ldexp(x, exponent); }
#else
double ebpiFrexp(double x, inout int exponent) { return frexp(x, exponent); }
double ebpiLdexp(double x, int exponent) { return ldexp(x, exponent); }
#endif

VKC_CONSTANT(uint, kEbpiSetupGroupSize, 64u)

// Descriptor bindings (set 0) of ebpi_pair_verdicts.comp and ebpi_pair_setup.comp.
VKC_CONSTANT(uint, kEbpiSetupBindingBounds, 0u)        // the candidates' boxes (broadphase.h), read
VKC_CONSTANT(uint, kEbpiSetupBindingCandidates, 1u)    // their pair list (PairListHeader, uvec2), read
VKC_CONSTANT(uint, kEbpiSetupBindingSceneObjects, 2u)  // EbpiSceneObjectGpu per scene object, read
VKC_CONSTANT(uint, kEbpiSetupBindingStartAxes, 3u)     // EbpiStartAxesGpu[], sorted by (a, b), read
VKC_CONSTANT(uint, kEbpiSetupBindingParams, 4u)        // EbpiSetupParamsGpu, read
VKC_CONSTANT(uint, kEbpiSetupBindingObjects, 5u)       // ObjectGpu, 2 per slot
VKC_CONSTANT(uint, kEbpiSetupBindingTraceObjects, 6u)  // EbpiTraceObjectGpu, 2 per slot
VKC_CONSTANT(uint, kEbpiSetupBindingViews, 7u)         // EbpiViewGpu, 3 per slot
VKC_CONSTANT(uint, kEbpiSetupBindingRayViews, 8u)      // EbpiRayViewGpu, 3 per slot
VKC_CONSTANT(uint, kEbpiSetupBindingJobs, 9u)          // EbpiImageJobGpu, 6 per slot
VKC_CONSTANT(uint, kEbpiSetupBindingVolumePairs, 10u)  // EbpiVolumePairGpu per slot
VKC_CONSTANT(uint, kEbpiSetupBindingCrossingPairs, 11u)   // EbpiCrossingPairGpu per slot
VKC_CONSTANT(uint, kEbpiSetupBindingDirectionPairs, 12u)  // EbpiDirectionPairGpu per slot
VKC_CONSTANT(uint, kEbpiSetupBindingTraversalPairs, 13u)  // the transient edges' pair list (broadphase.h)
VKC_CONSTANT(uint, kEbpiSetupBindingSlots, 14u)           // EbpiSetupStateGpu, then EbpiSlotGpu per slot
VKC_CONSTANT(uint, kEbpiSetupBindingVerdicts, 15u)        // uint per stored candidate (pair_selection.h)
VKC_CONSTANT(uint, kEbpiSetupBindingSelection, 16u)       // PairSelectionStateGpu, read
VKC_CONSTANT(uint, kEbpiSetupBindingSelectedPairs, 17u)   // uvec2[2 * slotCount], the sorted half read

// One scene object as the setup reads it (std430, 192 bytes).
struct EbpiSceneObjectGpu {
    dvec4 row0;            // objectToWorld's rows: the linear part, then the translation (w)
    dvec4 row1;
    dvec4 row2;
    double localLo[3];     // its mesh's object-space box, where hasLocalBox
    double localHi[3];
    VertexSourceGpu vertices;
    uint hasLocalBox;      // 1: the mesh's CPU positions are current, so its placed box tightens the candidate box
    uint closed;           // 1: a closed, oriented solid; a pair with any other object is not tested
    uint firstIndex;       // of its mesh's triangles in the index buffer
    uint triangleCount;
    uint firstEdge;        // of its mesh's edges (EbpiMeshEdgeGpu) in the edge buffer
    uint edgeCount;
    uint tree;             // its mesh's AABB tree (the compute backend's)
    uint unused;
};

// A pair's last axes (columns), for the warm start of Sec. 4.4.
struct EbpiStartAxesGpu {
    uint a;
    uint b;
    uint unused0;
    uint unused1;
    double axes[9];
};

struct EbpiSetupParamsGpu {
    double candidateOrigin[3];  // the candidate boxes are world minus this
    double tolerance;
    double maxRays;             // the fixed-point sums' reserve: half a quantum per ray
    uint slotCount;             // slots the frame's tables hold
    uint resolution;
    uint hitCapacity;
    uint optimize;              // 0: the world axes (EbpiDirectionChoice::WorldAxes)
    uint maxGradientVertices;
    uint pixelsPerView;
    uint tilesPerView;
    uint startAxesCount;
    uint objectCount;           // of the scene, which the candidate boxes cover
    uint boxesPerObject;        // hardware ray backends: triangle boxes per slot object
    uint unused0;
    uint unused1;
};

// What the setup found, read back with the results.
struct EbpiSetupStateGpu {
    uint activePairs;          // slots 0 .. activePairs - 1 hold pairs, sorted by (a, b)
    uint overlappingPairs;     // candidates whose boxes overlap with a volume (exact, past slotCount)
    uint gradientDropped;      // of those that had a slot, dropped for maxGradientVertices (the last ones)
    uint openPairs;            // candidates with an object that is not a closed solid: not tested
    uint firstOpenA;           // one of them
    uint firstOpenB;
    uint listedPairs;          // the candidate list's count (exact past its capacity)
    uint listCapacity;
};

struct EbpiSlotGpu {
    uint a;
    uint b;
    uint verticesA;
    uint verticesB;
};

// A world box in double.
struct EbpiBoxGpu {
    dvec3 lo;
    dvec3 hi;
};

// Row `row` of an affine map applied to p, in a fixed order.
VKC_INLINE double ebpiAffineRow(dvec4 row, dvec3 p) {
    VKC_PRECISE double x = ((row.x * p.x + row.y * p.y) + row.z * p.z) + row.w;
    return x;
}

// `candidate`, tightened by the object-space box lo..hi placed by the rows (every corner in double).
VKC_INLINE EbpiBoxGpu ebpiTightenedBox(EbpiBoxGpu candidate, dvec4 row0, dvec4 row1, dvec4 row2, dvec3 lo, dvec3 hi) {
    dvec3 placedLo = dvec3(0.0), placedHi = dvec3(0.0);
    for (uint k = 0u; k < 8u; ++k) {
        dvec3 c = dvec3((k & 1u) != 0u ? hi.x : lo.x, (k & 2u) != 0u ? hi.y : lo.y, (k & 4u) != 0u ? hi.z : lo.z);
        dvec3 p = dvec3(ebpiAffineRow(row0, c), ebpiAffineRow(row1, c), ebpiAffineRow(row2, c));
        placedLo = k == 0u ? p : dvec3(min(placedLo.x, p.x), min(placedLo.y, p.y), min(placedLo.z, p.z));
        placedHi = k == 0u ? p : dvec3(max(placedHi.x, p.x), max(placedHi.y, p.y), max(placedHi.z, p.z));
    }
    EbpiBoxGpu box;
    box.lo = dvec3(max(candidate.lo.x, placedLo.x), max(candidate.lo.y, placedLo.y), max(candidate.lo.z, placedLo.z));
    box.hi = dvec3(min(candidate.hi.x, placedHi.x), min(candidate.hi.y, placedHi.y), min(candidate.hi.z, placedHi.z));
    return box;
}

// A pair's boxes in its own coordinates (ebpi_pair_views.h): the origin at the centre of the
// overlap, the overlap and the union relative to it, and the extent that sizes its fixed-point scales.
struct EbpiPairBoxesGpu {
    dvec3 origin;
    dvec3 overlapLo;
    dvec3 overlapHi;
    dvec3 bothLo;
    dvec3 bothHi;
    double extent;    // bounds any view's window diagonal and rays' length
    bool overlaps;    // the boxes overlap with a volume (else there is no intersection volume to measure)
};

VKC_INLINE EbpiPairBoxesGpu ebpiPairBoxes(EbpiBoxGpu a, EbpiBoxGpu b) {
    EbpiPairBoxesGpu result;
    dvec3 lo = dvec3(max(a.lo.x, b.lo.x), max(a.lo.y, b.lo.y), max(a.lo.z, b.lo.z));
    dvec3 hi = dvec3(min(a.hi.x, b.hi.x), min(a.hi.y, b.hi.y), min(a.hi.z, b.hi.z));
    result.overlaps = lo.x < hi.x && lo.y < hi.y && lo.z < hi.z;
    VKC_PRECISE dvec3 origin = dvec3(0.5 * (lo.x + hi.x), 0.5 * (lo.y + hi.y), 0.5 * (lo.z + hi.z));
    result.origin = origin;
    VKC_PRECISE dvec3 overlapLo = dvec3(lo.x - origin.x, lo.y - origin.y, lo.z - origin.z);
    VKC_PRECISE dvec3 overlapHi = dvec3(hi.x - origin.x, hi.y - origin.y, hi.z - origin.z);
    VKC_PRECISE dvec3 bothLo = dvec3(min(a.lo.x, b.lo.x) - origin.x, min(a.lo.y, b.lo.y) - origin.y,
                                     min(a.lo.z, b.lo.z) - origin.z);
    VKC_PRECISE dvec3 bothHi = dvec3(max(a.hi.x, b.hi.x) - origin.x, max(a.hi.y, b.hi.y) - origin.y,
                                     max(a.hi.z, b.hi.z) - origin.z);
    result.overlapLo = overlapLo;
    result.overlapHi = overlapHi;
    result.bothLo = bothLo;
    result.bothHi = bothHi;
    // Whatever the direction, a window's diagonal is within sqrt 2 of the overlap's and its depth
    // range within the union's, both grown by their small margins.
    VKC_PRECISE dvec3 size = dvec3(bothHi.x - bothLo.x, bothHi.y - bothLo.y, bothHi.z - bothLo.z);
    VKC_PRECISE double extent = 1.5 * sqrt(ebpiDot(size, size));
    result.extent = extent;
    return result;
}

// The largest power of two s with s x unit <= 2^limit (unit > 0): exact, from unit's exponent.
VKC_INLINE double ebpiScaleBelow(double unit, int limit) {
    int exponent = 0;
    double mantissa = ebpiFrexp(unit, exponent);  // unit = mantissa 2^exponent, mantissa in [0.5, 1)
    return ebpiLdexp(1.0, limit - exponent + (mantissa == 0.5 ? 1 : 0));
}

// The volume sums' quanta per unit volume and the gradient's per unit area (ebpi_volume.h).
VKC_INLINE double ebpiVolumeScaleOf(double extent) {
    VKC_PRECISE double unit = (extent * extent) * extent;
    return ebpiScaleBelow(unit, 50);
}
VKC_INLINE double ebpiGradientScaleOf(double extent) {
    VKC_PRECISE double unit = extent * extent;
    return ebpiScaleBelow(unit, 35);
}

// The normal histogram's quanta per unit area (ebpi_directions.h) for a pair of size `size`.
VKC_INLINE double ebpiHistogramScaleOf(double size) {
    int exponent = 0;
    ebpiFrexp(max(size, ebpiLdexp(1.0, -996)), exponent);  // a zero size as 2^-996
    return ebpiLdexp(1.0, 40 - 2 * exponent);
}

// The float matrix of an object placed relative to `origin` (collision/scene/object_transform.h's
// objectToLocal): the translation rebased in double, then every entry rounded once.
VKC_INLINE mat4 ebpiObjectToLocal(dvec4 row0, dvec4 row1, dvec4 row2, dvec3 origin) {
    VKC_PRECISE double tx = row0.w - origin.x;
    VKC_PRECISE double ty = row1.w - origin.y;
    VKC_PRECISE double tz = row2.w - origin.z;
    return mat4(vec4(float(row0.x), float(row1.x), float(row2.x), 0.0f),
                vec4(float(row0.y), float(row1.y), float(row2.y), 0.0f),
                vec4(float(row0.z), float(row1.z), float(row2.z), 0.0f), vec4(float(tx), float(ty), float(tz), 1.0f));
}

VKC_NAMESPACE_END

#ifdef __cplusplus
#include <cstddef>
static_assert(sizeof(vkc::gpu::EbpiSceneObjectGpu) == 192 && offsetof(vkc::gpu::EbpiSceneObjectGpu, vertices) == 144);
static_assert(sizeof(vkc::gpu::EbpiStartAxesGpu) == 88);
static_assert(sizeof(vkc::gpu::EbpiSetupParamsGpu) == 88);
static_assert(sizeof(vkc::gpu::EbpiSetupStateGpu) == 32 && sizeof(vkc::gpu::EbpiSlotGpu) == 16);
#endif

#endif
