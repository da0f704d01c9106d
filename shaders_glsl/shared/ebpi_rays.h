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
// Allocation (a modern replacement of Eq. 10's uniform per-pixel tolerance). Every emitted tile
// (one ray, or a pixel split into sub-tiles) has a bound; the emitted tiles partition each view's
// window, so the sum of their bounds bounds the view's error, and a pair's bound is the mean of its
// three views'. Eq. 10 gives every pixel the same share of the tolerance, so flat pixels that need
// one ray waste theirs while silhouette pixels split 64 x 64 to meet theirs. Here the pair's views
// share one budget, spent where rays buy the most: for a price lambda, every tile picks what
// minimises rays + lambda x bound (a pixel among its splits, a coarser tile between one ray and its
// children's best, bottom-up: Sec. 4.3's pyramid), and lambda is the smallest of a fixed grid
// whose total bound fits the budget (bisection). Any lambda gives a valid plan; the search only
// makes it cheap. On the shared meshes it needs 5-40 times fewer rays than equal shares at 1%.
//
// Quanta. Bounds are counted in quanta of q = tolerance x 2^-36, each tile's rounded up with one
// quantum to spare (ebpiBoundQuanta), and summed as integer-valued doubles (exact below 2^53,
// saturating at 2^52). A view's budget is (1 - 2^-12) x 2^36 quanta less what the caller reserves
// for the rounding of the casting and sums (EbpiRayViewGpu::reserved); a pair whose summed
// quanta fit its views' budgets has a mean bound + reserve below the tolerance. A pair that does
// not fit even at the largest lambda (every pixel at its smallest bound) is flagged.
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
#define VKC_OUT_ARRAY(type, name, size) type (&name)[size]
#else
#define VKC_EBPI_CEIL ceil
#define VKC_OUT_ARRAY(type, name, size) out type name[size]
#endif

VKC_NAMESPACE_BEGIN
#ifdef __cplusplus
using std::floor;
using std::ldexp;
#endif

// Threads per workgroup of the pyramid, options and generate passes (one thread per tile), and of
// the allocation (one workgroup per pair) and the scan (one workgroup in all).
VKC_CONSTANT(uint, kEbpiRayGroupSize, 64u)
VKC_CONSTANT(uint, kEbpiRayScanGroupSize, 256u)
VKC_CONSTANT(uint, kEbpiRayMaxGroups, 65535u)
// Largest split of one pixel per axis, and tiles of one view (see above).
VKC_CONSTANT(uint, kEbpiRayMaxSplitLimit, 64u)
VKC_CONSTANT(uint, kEbpiRayMaxTilesPerView, 4194304u)  // 2^22
// A pixel's candidate splits per axis: the ladder 1, 2, 3, 4, 6, 8, 12, ... 64 below maxSplit, then
// maxSplit (nx x ny over these: at most 144). Its options are the smallest bound within each ray
// budget of the same ladder continued to 4096 (24 budgets): the candidates' lower frontier, which
// is all the allocation needs; the full 64 x 64 search would save about 2% of the rays.
VKC_CONSTANT(uint, kEbpiRaySplitCandidates, 12u)
VKC_CONSTANT(uint, kEbpiRayOptionCount, 24u)
// Lambda, the price of a quantum in rays: kEbpiRayLambdaSteps steps of 2^(1/16) from 2^-46 (a
// tolerance's worth of quanta costs 2^-10 rays: hardly a split) to 2^-6.
VKC_CONSTANT(uint, kEbpiRayLambdaSteps, 640u)
VKC_CONSTANT(int, kEbpiRayLambdaFirstExponent, -46)
// A view's budget, quanta (see above), and the bound rounding (decoding a 64-bit count to double and
// evaluating a polynomial of positive terms round by far less than 2^-40 of the result).
VKC_CONSTANT(double, kEbpiRayBudgetQuanta, 68702699520.0)  // 2^36 - 2^24
VKC_CONSTANT(double, kEbpiRayQuantumFraction, 1.4551915228366852e-11)  // 2^-36
// Written as a double sum of float-exact literals: GLSL reads an unsuffixed literal as float.
VKC_CONSTANT(double, kEbpiRayBoundRoundUp, double(1.0) + double(9.094947017729282e-13))  // 1 + 2^-40
// A tile's bound of this many quanta or more (256 x the tolerance) counts as infinite.
VKC_CONSTANT(double, kEbpiRayQuantaLimit, 17592186044416.0)  // 2^44
VKC_CONSTANT(double, kEbpiRayQuantaSaturated, 4503599627370496.0)  // 2^52: running sums at or above are infinite

// EbpiRayViewResultGpu::firstRay of a view whose pair's rays were not cast.
VKC_CONSTANT(uint, kEbpiRayNotCast, 4294967295u)

// Per-view flags (EbpiRayViewResultGpu::flags).
VKC_CONSTANT(uint, kEbpiRayFlagBoundNotMet, 1u)   // the pair's smallest bound (maxSplit splits) misses its budget
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
VKC_CONSTANT(uint, kEbpiRayBindingOptions, 12u)   // EbpiRayOptionsGpu[] per pixel
VKC_CONSTANT(uint, kEbpiRayBindingCosts, 13u)     // EbpiRayCostGpu[] per tile: the allocation's work space

// One view's plan input (56 bytes). Its EBPI is the view of the same index (EbpiViewGpu). A pair's
// views are consecutive and share `tolerance`.
struct EbpiRayViewGpu {
    double tolerance;     // absolute volume error allowed over the view's window, > 0
    double reserved;      // of it, left to the rounding of the casting and sums (>= 0)
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

// A pixel's options (192 bytes): per ray budget (kEbpiRayOptionCount) its smallest bound, as a
// word pair (ebpiPackOptionLow / High): quanta, and the split code of ebpiPixelOptions.
struct EbpiRayOptionsGpu {
    uint words[48];
};

// The allocation's state of one tile at the price it last tried (32 bytes).
struct EbpiRayCostGpu {
    double cost;          // rays + lambda x quanta of its best plan
    double quanta;        // that plan's bound, quanta (saturating)
    double oneRayQuanta;  // one ray at its centre (levels > 0; pixels have it among their options)
    uint rays;            // that plan's rays (saturating)
    uint choice;          // pixels: the option taken; coarser tiles: 1 when one ray beats its children
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

// The rays' depth span in a view: the length inside both solids along any ray lies in [0, it].
VKC_INLINE double ebpiViewDepth(EbpiRayViewGpu plan) {
    VKC_PRECISE double depth = plan.zMax - plan.zMin;
    return depth;
}

// The cap of every bound of a tile of w x h: the volume over it and its rays' estimate both lie in
// [0, w x h x depth], so its midpoint error does too, whatever its edges' terms add up to (faces a
// rounding error off parallel to the rays, whose crease terms have no limit of their own).
VKC_INLINE double ebpiTileCap(double w, double h, double depth) {
    VKC_PRECISE double cap = (w * h) * depth;
    return cap;
}

// The cap of a pixel split into nx x ny sub-tiles that `edges` terms touch: each sub-tile's error
// lies within its own ebpiTileCap, and only a sub-tile whose interior a term's segment meets has
// any (elsewhere the depth span is affine over it). A segment inside the pixel (extents at most the
// pixel's) meets at most nx + ny + 4 sub-tiles' interiors (collision/ebpi/ebpi_subdivision.h), so
// at most edges x (nx + ny + 4) of the nx x ny carry error: a face a rounding error off parallel to
// the rays, whose crease terms exceed any cap, then still gains from finer splits where the whole
// pixel's cap alone (`pixelCap`) would stop it.
VKC_INLINE double ebpiSplitCap(double pixelCap, uint edges, uint nx, uint ny) {
    if (edges == 0u) return 0.0;  // affine over the whole pixel: no error at all
    VKC_PRECISE double touched = double(edges) * double(nx + ny + 4u);
    if (touched >= double(nx * ny)) return pixelCap;
    VKC_PRECISE double cap = pixelCap * (touched / double(nx * ny));
    return cap;
}

// ebpiSubdividedPixelBound at sub-tiles of w x h, capped at `cap` (ebpiSplitCap), rounded up.
VKC_INLINE double ebpiSplitBound(EbpiRayPolynomial touching, EbpiRayPolynomial alongX, EbpiRayPolynomial alongY,
                                 double w, double h, double cap) {
    VKC_PRECISE double b = 4.0 * ebpiEvaluate(touching, w, h) +
                           (ebpiEvaluate(alongX, w, h) / w + ebpiEvaluate(alongY, w, h) / h);
    VKC_PRECISE double up = min(b, cap) * kEbpiRayBoundRoundUp;
    return up;
}

// A tile of w x h sampled by one ray: its summed "touching" polynomial at its size, capped at
// ebpiTileCap, rounded up.
VKC_INLINE double ebpiOneRayBound(EbpiRayPolynomial touching, double w, double h, double depth) {
    VKC_PRECISE double up = min(ebpiEvaluate(touching, w, h), ebpiTileCap(w, h, depth)) * kEbpiRayBoundRoundUp;
    return up;
}

// A tile's bound in quanta of q = tolerance x 2^-36, rounded up with one quantum to spare for the
// division; kEbpiRayQuantaSaturated (infinite) from kEbpiRayQuantaLimit up.
VKC_INLINE double ebpiBoundQuanta(double bound, double tolerance) {
    VKC_PRECISE double quanta = bound / (tolerance * kEbpiRayQuantumFraction);
    if (!(quanta < kEbpiRayQuantaLimit)) return kEbpiRayQuantaSaturated;
    return VKC_EBPI_CEIL(quanta) + 1.0;
}

// A view's budget in quanta: kEbpiRayBudgetQuanta less its reserve (rounded up), at least 0.
VKC_INLINE double ebpiViewBudgetQuanta(EbpiRayViewGpu plan) {
    if (!(plan.reserved > 0.0)) return kEbpiRayBudgetQuanta;
    VKC_PRECISE double left = kEbpiRayBudgetQuanta - ebpiBoundQuanta(plan.reserved, plan.tolerance);
    return max(left, 0.0);
}

// Entry i of the ladder 1, 2, 3, 4, 6, 8, 12, 16, 24, ... (two steps an octave): split
// candidates (i < kEbpiRaySplitCandidates) and ray budgets (i < kEbpiRayOptionCount).
VKC_INLINE uint ebpiRayLadder(uint i) {
    if (i < 4u) return i + 1u;
    return (i % 2u == 0u ? 6u : 8u) << ((i - 4u) / 2u);
}

// Split candidate i for `maxSplit`: the ladder while below maxSplit, then maxSplit; 0 past it.
VKC_INLINE uint ebpiSplitCandidate(uint i, uint maxSplit) {
    for (uint k = 0u; k < i; ++k)
        if (ebpiRayLadder(k) >= maxSplit) return 0u;
    return min(ebpiRayLadder(i), maxSplit);
}

// Lambda of step j (kEbpiRayLambdaSteps): 2^(first + j / 16), a power of two times one of the
// sixteenth roots of 2, each the nearest double as its 53-bit integer mantissa (exact everywhere).
VKC_INLINE double ebpiRayLambda(uint j) {
    uint r = j % 16u;
    double mantissa = 4503599627370496.0;  // 2^52: the root 1
    if (r == 1u) mantissa = ebpiCountToDouble(1828292879u, 1095000u);
    if (r == 2u) mantissa = ebpiCountToDouble(1014845819u, 1143480u);
    if (r == 3u) mantissa = ebpiCountToDouble(1853186616u, 1194106u);
    if (r == 4u) mantissa = ebpiCountToDouble(171030293u, 1246974u);
    if (r == 5u) mantissa = ebpiCountToDouble(1276261410u, 1302182u);
    if (r == 6u) mantissa = ebpiCountToDouble(3577096743u, 1359834u);
    if (r == 7u) mantissa = ebpiCountToDouble(3712504873u, 1420039u);
    if (r == 8u) mantissa = ebpiCountToDouble(1719614413u, 1482910u);
    if (r == 9u) mantissa = ebpiCountToDouble(1944781191u, 1548564u);
    if (r == 10u) mantissa = ebpiCountToDouble(1110089947u, 1617125u);
    if (r == 11u) mantissa = ebpiCountToDouble(2191782032u, 1688721u);
    if (r == 12u) mantissa = ebpiCountToDouble(2572866477u, 1763487u);
    if (r == 13u) mantissa = ebpiCountToDouble(3716502172u, 1841563u);
    if (r == 14u) mantissa = ebpiCountToDouble(3707479175u, 1923096u);
    if (r == 15u) mantissa = ebpiCountToDouble(2728693978u, 2008239u);
    return ldexp(mantissa, kEbpiRayLambdaFirstExponent - 52 + int(j / 16u));
}

// An option as its word pair: quanta (an integer <= 2^52) in bits 0..52, the split code
// (ebpiPixelOptions) in bits 53..60.
VKC_INLINE uint ebpiPackOptionLow(double quanta) {
    VKC_PRECISE double low = quanta - floor(quanta / 4294967296.0) * 4294967296.0;
    return uint(low);
}
VKC_INLINE uint ebpiPackOptionHigh(double quanta, uint splitCode) {
    VKC_PRECISE double high = floor(quanta / 4294967296.0);
    return uint(high) | (splitCode << 21u);
}
VKC_INLINE double ebpiOptionQuanta(uint low, uint high) { return ebpiCountToDouble(low, high & 0x1FFFFFu); }
VKC_INLINE uint ebpiOptionSplit(uint high) { return high >> 21u; }

// A pixel's options: per ray budget (ebpiRayLadder(b) rays at most) the smallest bound in quanta
// over one ray at its centre (its one-ray bound, candidates 0, 0) and every split of candidates
// nx x ny (ebpiSplitBound); split = nx candidate | ny candidate << 4. Ties keep the earlier
// candidate (nx outer, ny inner). A larger budget that buys nothing repeats the option before it,
// so the distinct options come first (quanta falling) and the rest repeat the last: a reader stops
// at the first repeat.
VKC_INLINE void ebpiPixelOptions(EbpiRayPolynomial touching, EbpiRayPolynomial alongX, EbpiRayPolynomial alongY,
                                 uint edges, double pixelW, double pixelH, double depth, double tolerance, uint maxSplit,
                                 VKC_OUT_ARRAY(double, quanta, kEbpiRayOptionCount),
                                 VKC_OUT_ARRAY(uint, split, kEbpiRayOptionCount)) {
    double oneRay = ebpiBoundQuanta(ebpiOneRayBound(touching, pixelW, pixelH, depth), tolerance);
    double pixelCap = ebpiTileCap(pixelW, pixelH, depth);
    for (uint b = 0u; b < kEbpiRayOptionCount; ++b) {
        quanta[b] = oneRay;
        split[b] = 0u;
    }
    // No edge touches the pixel: every split's bound is 0, no better than one ray's.
    if (touching.w2h + touching.wh2 + touching.h3 + touching.w3 + touching.wh == 0.0) return;
    for (uint ix = 0u; ix < kEbpiRaySplitCandidates; ++ix) {
        uint nx = ebpiSplitCandidate(ix, maxSplit);
        if (nx == 0u) break;
        for (uint iy = 0u; iy < kEbpiRaySplitCandidates; ++iy) {
            uint ny = ebpiSplitCandidate(iy, maxSplit);
            if (ny == 0u) break;
            if (ix == 0u && iy == 0u) continue;  // one ray: the one-ray bound above is tighter
            double q = ebpiBoundQuanta(ebpiSplitBound(touching, alongX, alongY, pixelW / double(nx), pixelH / double(ny),
                                                      ebpiSplitCap(pixelCap, edges, nx, ny)),
                                       tolerance);
            for (uint b = 0u; b < kEbpiRayOptionCount; ++b)
                if (ebpiRayLadder(b) >= nx * ny && q < quanta[b]) {
                    quanta[b] = q;
                    split[b] = ix | (iy << 4u);
                }
        }
    }
    uint distinct = 1u;
    for (uint b = 1u; b < kEbpiRayOptionCount; ++b)
        if (quanta[b] < quanta[distinct - 1u]) {
            quanta[distinct] = quanta[b];
            split[distinct] = split[b];
            ++distinct;
        }
    for (uint b = distinct; b < kEbpiRayOptionCount; ++b) {
        quanta[b] = quanta[distinct - 1u];
        split[b] = split[distinct - 1u];
    }
}

// Rays of a pixel option's split code.
VKC_INLINE uint ebpiOptionRays(uint splitCode, uint maxSplit) {
    return ebpiSplitCandidate(splitCode & 15u, maxSplit) * ebpiSplitCandidate(splitCode >> 4u, maxSplit);
}

// a + b for quanta counts: exact below 2^53, saturating at kEbpiRayQuantaSaturated.
VKC_INLINE double ebpiAddQuanta(double a, double b) {
    VKC_PRECISE double sum = a + b;
    return min(sum, kEbpiRayQuantaSaturated);
}

// The quantity the allocation minimises: rays + lambda x quanta.
VKC_INLINE double ebpiRayCost(uint rays, double quanta, double lambda) {
    VKC_PRECISE double cost = double(rays) + lambda * quanta;
    return cost;
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
static_assert(sizeof(vkc::gpu::EbpiRayViewGpu) == 56 && offsetof(vkc::gpu::EbpiRayViewGpu, firstTile) == 32);
static_assert(sizeof(vkc::gpu::EbpiRayOptionsGpu) == 8 * vkc::gpu::kEbpiRayOptionCount);
static_assert(sizeof(vkc::gpu::EbpiRayCostGpu) == 32);
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
