// Adaptivity of method `ebpi` (paper 5, Sec. 4.3, pipeline stage 4 of issue 12): from a view's
// fixed-point EBPI and its volume tolerance, the list of rays that meets the tolerance. Layouts,
// limits and the bound arithmetic, written once in the common subset of GLSL and C++ (the shaders
// ebpi_pyramid.comp, ebpi_ray_density.comp, ebpi_ray_scan.comp, ebpi_ray_generate.comp and the CPU
// reference collision/ebpi/ebpi_ray_plan.cpp compile this same text, so both round alike).
//
// Tiles. A view of W x H pixels has a pyramid of `levels` levels; a texel (tile) of level k covers
// the block of 2^k x 2^k pixels at (x 2^k, y 2^k), cut at the window's edge; the top level is one
// tile. Tiles are numbered per view level by level from the pixels up, row-major in each level.
//
// Tolerance share. A tile of c x r pixels gets share = budget x (c r) / (W H), with budget =
// tolerance x (1 - 2^-12). The emitted tiles (each one ray, or a pixel split into sub-tiles)
// partition the window, so the sum of their shares is the budget (each share's three roundings put
// it within 2^-50 of its exact value). The achieved bound sums every emitted tile's bound rounded up to quanta of
// q = tolerance x 2^-36, at most 2 quanta above it per tile; with at most 2^22 tiles per view that
// adds at most 2^23 q = tolerance x 2^-13. So a view whose tiles all meet their shares reports an
// achieved bound <= tolerance (1 - 2^-12 + 2^-13 + 2^-50) < tolerance, and the midpoint estimate
// over the window is within the achieved bound of the exact volume (ebpi_ray_plan.h).
#ifndef VKC_SHARED_EBPI_RAYS_H
#define VKC_SHARED_EBPI_RAYS_H

#include "glsl_cpp.h"
#include "ebpi_image.h"  // EbpiViewGpu
#include "ebpi_trace.h"  // EbpiRayGpu, kEbpiNoObject
#include "ebpi_volume.h" // EbpiVolumeRayGpu
#include "tri_tri.h"     // VKC_PRECISE / VKC_INLINE

#ifdef __cplusplus
#include <cmath>
#define VKC_EBPI_CEIL std::ceil
#else
#define VKC_EBPI_CEIL ceil
#endif

VKC_NAMESPACE_BEGIN

// Threads per workgroup of the pyramid, density and generate passes (one thread per tile), and of
// the scan (one workgroup in all).
VKC_CONSTANT(uint, kEbpiRayGroupSize, 64u)
VKC_CONSTANT(uint, kEbpiRayScanGroupSize, 256u)
VKC_CONSTANT(uint, kEbpiRayMaxGroups, 65535u)
// Largest split of one pixel per axis the search may try, and tiles of one view (see above).
VKC_CONSTANT(uint, kEbpiRayMaxSplitLimit, 64u)
VKC_CONSTANT(uint, kEbpiRayMaxTilesPerView, 4194304u)  // 2^22
// Share margin, quantum and bound rounding (see above; the bound: decoding a 64-bit count to double
// and evaluating a polynomial of positive terms round by far less than 2^-40 of the result).
VKC_CONSTANT(double, kEbpiRayBudgetFraction, 0.999755859375)  // 1 - 2^-12
VKC_CONSTANT(double, kEbpiRayQuantumFraction, 1.4551915228366852e-11)  // 2^-36
// Written as a double sum of float-exact literals: GLSL reads an unsuffixed literal as float.
VKC_CONSTANT(double, kEbpiRayBoundRoundUp, double(1.0) + double(9.094947017729282e-13))  // 1 + 2^-40
// A tile's bound of this many quanta or more (256 x the tolerance) makes the achieved bound
// infinite: below it, per-chunk sums of 256 tiles stay exact integers in double (< 2^52).
VKC_CONSTANT(double, kEbpiRayQuantaLimit, 17592186044416.0)  // 2^44
VKC_CONSTANT(double, kEbpiRayQuantaSaturated, 4503599627370496.0)  // 2^52: running sums at or above are infinite

// EbpiRayViewResultGpu::firstRay of a view whose pair's rays were not cast.
VKC_CONSTANT(uint, kEbpiRayNotCast, 4294967295u)

// Per-view flags (EbpiRayViewResultGpu::flags).
VKC_CONSTANT(uint, kEbpiRayFlagBoundNotMet, 1u)   // a pixel's maxSplit x maxSplit split misses its share
VKC_CONSTANT(uint, kEbpiRayFlagImageOverflow, 2u) // the EBPI overflowed (ebpi_image.h): no bound holds

// Descriptor bindings (set 0); each pass uses a subset.
VKC_CONSTANT(uint, kEbpiRayBindingViews, 0u)      // EbpiViewGpu[], read (ebpi_image.h)
VKC_CONSTANT(uint, kEbpiRayBindingRayViews, 1u)   // EbpiRayViewGpu[], read
VKC_CONSTANT(uint, kEbpiRayBindingPixels, 2u)     // EbpiPixelGpu[], read
VKC_CONSTANT(uint, kEbpiRayBindingImageStatus, 3u) // uint[] per view: the image's overflow flag, read
VKC_CONSTANT(uint, kEbpiRayBindingPyramid, 4u)    // EbpiPyramidTexelGpu[] per tile
VKC_CONSTANT(uint, kEbpiRayBindingTiles, 5u)      // EbpiRayTileGpu[] per tile
VKC_CONSTANT(uint, kEbpiRayBindingFlags, 6u)      // uint[] per view, or-ed
VKC_CONSTANT(uint, kEbpiRayBindingResults, 7u)    // EbpiRayViewResultGpu[] per view
VKC_CONSTANT(uint, kEbpiRayBindingCounters, 8u)   // EbpiRayCountersGpu
VKC_CONSTANT(uint, kEbpiRayBindingRays, 9u)       // EbpiRayGpu[maxRays] (ebpi_trace.h)
VKC_CONSTANT(uint, kEbpiRayBindingRayTiles, 10u)  // EbpiRaySampleGpu[maxRays], parallel to the rays
VKC_CONSTANT(uint, kEbpiRayBindingVolumeRays, 11u) // EbpiVolumeRayGpu[maxRays] (ebpi_volume.h), parallel to the rays

// One view's plan input (48 bytes). Its EBPI is the view of the same index (EbpiViewGpu).
struct EbpiRayViewGpu {
    double tolerance;     // absolute volume error allowed over the view's window, > 0
    double zMin;          // ray-frame depth range the rays span: origins on the plane z = zMin
    double zMax;
    uint firstTile;       // of the view's tiles in the pyramid and tile buffers
    uint levels;          // pyramid levels, the pixels included (ebpiPyramidLevels)
    uint objectA;         // the rays' objects (EbpiRayGpu), or kEbpiNoObject
    uint objectB;
    uint pair;            // what the volume stage adds the view's rays to (EbpiVolumeRayGpu)
    uint axis;
};

// A tile's five "touching" channels (w2h, wh2, h3, w3, wh) as 64-bit (low, high) word pairs: the
// sum of its pixels' (exact in integers; a sum past 2^64 saturates to all ones, still an upper bound).
struct EbpiPyramidTexelGpu {
    uint words[10];
};

// A tile's decision (24 bytes): `rays` 0 (covered by a coarser tile, or below a finer level's
// decision), 1 (one ray at its centre) or nx x ny (a pixel split); its bound when it has rays.
struct EbpiRayTileGpu {
    double bound;         // rounded up; 0 when rays == 0
    uint rays;
    uint nx;
    uint ny;
    uint firstRay;        // exclusive scan of `rays` over the view's tiles (ebpi-ray-scan)
};

// Per ray, parallel to EbpiRayGpu (32 bytes): the sub-tile it samples, in its view's ray frame.
struct EbpiRaySampleGpu {
    double x;             // sub-tile centre
    double y;
    double area;          // sub-tile area: the ray's weight in the midpoint rule
    uint view;
    uint tile;            // of the view (EbpiRayTileGpu index minus firstTile)
};

// Per view (24 bytes).
struct EbpiRayViewResultGpu {
    double boundQuanta;   // achieved bound in quanta of tolerance x 2^-36; +inf when too large to count
    uint firstRay;        // in the ray list; kEbpiRayNotCast when its pair's rays did not fit maxRays
    uint rays;            // exact (saturating at 2^32 - 1), cast or not
    uint flags;           // kEbpiRayFlag*
    uint unused;
};

// Totals (32 bytes); the first three words are a VkDispatchIndirectCommand of one kEbpiRayGroupSize
// thread per written ray (at most kEbpiRayMaxGroups groups: consumers loop with a grid stride), for
// the passes that consume the rays (casting, volume), which read writtenRays as their count.
struct EbpiRayCountersGpu {
    uint groupsX;
    uint groupsY;
    uint groupsZ;
    uint totalRays;       // exact (saturating at 2^32 - 1)
    uint writtenRays;     // the admitted pairs' rays, <= maxRays
    uint truncated;       // 1: some pair's rays were not cast (they did not fit maxRays)
    uint unused0;
    uint unused1;
};

struct EbpiRayPush {
    uint level;           // ebpi-pyramid: the level it builds
    uint viewCount;
    uint maxSplit;        // <= kEbpiRayMaxSplitLimit
    uint maxRays;
};

// a + b, or 2^32 - 1 when that does not fit.
VKC_INLINE uint ebpiSaturatingAdd(uint a, uint b) {
    return b > 4294967295u - a ? 4294967295u : a + b;
}

// ---- Tile geometry and bounds, shared by the shaders and the CPU reference.

// Texels of level k along an axis of `pixels` pixels.
VKC_INLINE uint ebpiLevelSize(uint pixels, uint level) {
    return (pixels + (1u << level) - 1u) >> level;
}

// A 64-bit fixed-point count as double (nearest; kEbpiRayBoundRoundUp covers the rounding).
VKC_INLINE double ebpiCountToDouble(uint low, uint high) {
    VKC_PRECISE double d = double(high) * 4294967296.0 + double(low);
    return d;
}

// Five coefficients decoded (w2h, wh2, h3, w3, wh), in volume units per monomial.
struct EbpiRayPolynomial {
    double w2h;
    double wh2;
    double h3;
    double w3;
    double wh;
};

// EbpiBoundPolynomial::evaluate, the same operations in the same order.
VKC_INLINE double ebpiEvaluate(EbpiRayPolynomial p, double w, double h) {
    VKC_PRECISE double v = w * w * h * p.w2h + w * h * h * p.wh2 + h * h * h * p.h3 + w * w * w * p.w3 + w * h * p.wh;
    return v;
}

// ebpiSubdividedPixelBound at sub-tiles of w x h, rounded up.
VKC_INLINE double ebpiSplitBound(EbpiRayPolynomial touching, EbpiRayPolynomial alongX, EbpiRayPolynomial alongY,
                                 double w, double h) {
    VKC_PRECISE double b = 4.0 * ebpiEvaluate(touching, w, h) +
                           2.0 * (ebpiEvaluate(alongX, w, h) / w + ebpiEvaluate(alongY, w, h) / h);
    VKC_PRECISE double up = b * kEbpiRayBoundRoundUp;
    return up;
}

// A tile of w x h sampled by one ray: its summed "touching" polynomial at its size, rounded up.
VKC_INLINE double ebpiOneRayBound(EbpiRayPolynomial touching, double w, double h) {
    VKC_PRECISE double up = ebpiEvaluate(touching, w, h) * kEbpiRayBoundRoundUp;
    return up;
}

// A tile's share of its view's tolerance (see the top of this file).
VKC_INLINE double ebpiTileShare(double tolerance, uint cols, uint rows, uint width, uint height) {
    VKC_PRECISE double share = tolerance * kEbpiRayBudgetFraction * (double(cols) * double(rows)) /
                               (double(width) * double(height));
    return share;
}

struct EbpiRaySplit {
    uint nx;
    uint ny;
    double bound;
    bool within;
};

// ebpiChooseSubdivision with this file's rounding: the fewest nx x ny (each <= maxSplit) whose
// bound meets `share`, ties to the smaller bound, in the same search order; none: maxSplit x maxSplit.
VKC_INLINE EbpiRaySplit ebpiFewestRays(EbpiRayPolynomial touching, EbpiRayPolynomial alongX,
                                       EbpiRayPolynomial alongY, double pixelW, double pixelH, double share,
                                       uint maxSplit) {
    EbpiRaySplit best;
    best.nx = maxSplit;
    best.ny = maxSplit;
    best.bound = ebpiSplitBound(touching, alongX, alongY, pixelW / double(maxSplit), pixelH / double(maxSplit));
    best.within = false;
    for (uint nx = 1u; nx <= maxSplit; ++nx)
        for (uint ny = 1u; ny <= maxSplit; ++ny) {
            double bound = ebpiSplitBound(touching, alongX, alongY, pixelW / double(nx), pixelH / double(ny));
            if (bound > share) continue;
            uint rays = nx * ny;
            uint bestRays = best.nx * best.ny;
            if (!best.within || rays < bestRays || (rays == bestRays && bound < best.bound)) {
                best.nx = nx;
                best.ny = ny;
                best.bound = bound;
                best.within = true;
            }
        }
    return best;
}

// A tile's bound in quanta of q = tolerance x 2^-36, rounded up with one quantum to spare for the
// division; kEbpiRayQuantaSaturated (infinite) from kEbpiRayQuantaLimit up.
VKC_INLINE double ebpiBoundQuanta(double bound, double tolerance) {
    VKC_PRECISE double quanta = bound / (tolerance * kEbpiRayQuantumFraction);
    if (!(quanta < kEbpiRayQuantaLimit)) return kEbpiRayQuantaSaturated;
    return VKC_EBPI_CEIL(quanta) + 1.0;
}

// Centre of sub-tile i (of n) of a run of `count` pixels from pixel `first`, along one axis.
VKC_INLINE double ebpiSubTileCentre(double origin, double pixel, uint first, uint count, uint i, uint n) {
    VKC_PRECISE double c = origin + pixel * (double(first) + (double(i) + 0.5) * double(count) / double(n));
    return c;
}

// The ray through ray-frame point (x, y) of `view`, in the frame's local space: origin on the plane
// z = zMin, direction the view's (unit), t over [0, zMax - zMin] (the caller's depth range should
// have a margin: the float conversions round to nearest).
VKC_INLINE EbpiRayGpu ebpiPlacedRay(EbpiViewGpu view, EbpiRayViewGpu plan, double x, double y) {
    VKC_PRECISE double ox = (view.rotation[0] * x + view.rotation[3] * y) + view.rotation[6] * plan.zMin;
    VKC_PRECISE double oy = (view.rotation[1] * x + view.rotation[4] * y) + view.rotation[7] * plan.zMin;
    VKC_PRECISE double oz = (view.rotation[2] * x + view.rotation[5] * y) + view.rotation[8] * plan.zMin;
    VKC_PRECISE double length = plan.zMax - plan.zMin;
    EbpiRayGpu ray;
    ray.origin = vec4(float(ox), float(oy), float(oz), 0.0f);
    ray.direction = vec4(float(view.rotation[6]), float(view.rotation[7]), float(view.rotation[8]), float(length));
    ray.objectA = plan.objectA;
    ray.objectB = plan.objectB;
    ray.pad0 = 0u;
    ray.pad1 = 0u;
    return ray;
}

// Area of a sub-tile: cols x rows pixels split nx x ny.
VKC_INLINE double ebpiSubTileArea(double pixelX, double pixelY, uint cols, uint rows, uint nx, uint ny) {
    VKC_PRECISE double area = (double(cols) * pixelX / double(nx)) * (double(rows) * pixelY / double(ny));
    return area;
}

VKC_NAMESPACE_END

#ifdef __cplusplus
#include <cstddef>
static_assert(sizeof(vkc::gpu::EbpiRayViewGpu) == 48 && offsetof(vkc::gpu::EbpiRayViewGpu, firstTile) == 24);
static_assert(sizeof(vkc::gpu::EbpiPyramidTexelGpu) == 40);
static_assert(sizeof(vkc::gpu::EbpiRayTileGpu) == 24 && offsetof(vkc::gpu::EbpiRayTileGpu, firstRay) == 20);
static_assert(sizeof(vkc::gpu::EbpiRaySampleGpu) == 32 && offsetof(vkc::gpu::EbpiRaySampleGpu, view) == 24);
static_assert(sizeof(vkc::gpu::EbpiRayViewResultGpu) == 24 && offsetof(vkc::gpu::EbpiRayViewResultGpu, flags) == 16);
static_assert(sizeof(vkc::gpu::EbpiRayCountersGpu) == 32 && offsetof(vkc::gpu::EbpiRayCountersGpu, totalRays) == 12);
static_assert(offsetof(vkc::gpu::EbpiRayCountersGpu, writtenRays) == 4 * vkc::gpu::kEbpiRayCountWord);
static_assert(vkc::gpu::kEbpiRayGroupSize == vkc::gpu::kEbpiTraceGroupSize &&
              vkc::gpu::kEbpiRayGroupSize == vkc::gpu::kEbpiVolumeGroupSize,
              "the scan's dispatch arguments serve the casting and volume passes");
static_assert(sizeof(vkc::gpu::EbpiVolumeRayGpu) == 16);
static_assert(sizeof(vkc::gpu::EbpiRayPush) == 16);
#endif

#endif
