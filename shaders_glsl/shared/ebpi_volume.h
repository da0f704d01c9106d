// Intersection volume (paper 5, Eq. 1) and its gradient (Eq. 2) of method `ebpi` (pipeline stage
// 7): layouts and limits shared by ebpi_volume.comp and the CPU reference
// (collision/ebpi/ebpi_volume_cpu.h). Sizes are static_assert'ed in passes/ebpi/ebpi_volume_passes.cpp.
//
// Fixed point: every contribution (a ray's tile area x its length inside both solids; a boundary
// hit's tile area x barycentric) is multiplied by its pair's scale (a power of two) and rounded to
// the NEAREST integer, then added as a signed 64-bit integer built from two 32-bit atomic adds
// with a carry (as ebpi_rasterize.comp does). Integer sums do not depend on the order, so results
// are bit-identical between runs and to the CPU reference. Each rounding is at most half a quantum,
// so a sum of n contributions is within n / (2 scale) of the real one (reported as the bound).
// A contribution past its limit (or not a number) is dropped and raises the (pair, axis) overflow
// flag. Volume: a view's rays partition its window and each inside length is within the rays' span,
// so its contributions sum to at most scale x window area x depth range, which the scale keeps
// below 2^50 (ebpiVolumeScales): no volume sum can wrap, and the rounding of a whole frame's rays
// is negligible. Gradient: each contribution stays below kEbpiVolumeContributionLimit and at most
// kEbpiVolumeMaxContributions per dispatch keep every sum below 2^62 in magnitude.
#ifndef VKC_SHARED_EBPI_VOLUME_H
#define VKC_SHARED_EBPI_VOLUME_H

#include "glsl_cpp.h"

VKC_NAMESPACE_BEGIN

VKC_CONSTANT(uint, kEbpiVolumeGroupSize, 64u)
VKC_CONSTANT(uint, kEbpiVolumeAxes, 3u)  // three orthogonal ray directions per pair

// Descriptor bindings (set 0) of ebpi_volume.comp. Objects, indices, ray hits and hits are the
// casting stage's buffers (shared/ebpi_trace.h), read as they are.
VKC_CONSTANT(uint, kEbpiVolumeBindingObjects, 0u)    // EbpiTraceObjectGpu[], read (firstIndex)
VKC_CONSTANT(uint, kEbpiVolumeBindingIndices, 1u)    // uint[] triangle vertex indices, read
VKC_CONSTANT(uint, kEbpiVolumeBindingRayInfos, 2u)    // EbpiVolumeRayGpu[rayCount], read
VKC_CONSTANT(uint, kEbpiVolumeBindingRayHits, 3u)    // EbpiRayHitsGpu[rayCount], read
VKC_CONSTANT(uint, kEbpiVolumeBindingHits, 4u)       // EbpiHitGpu[rayCount * hitCapacity], sorted, read
VKC_CONSTANT(uint, kEbpiVolumeBindingPairs, 5u)      // EbpiVolumePairGpu[], read
VKC_CONSTANT(uint, kEbpiVolumeBindingSums, 6u)       // EbpiPairVolumeGpu[pair * 3 + axis], atomics
VKC_CONSTANT(uint, kEbpiVolumeBindingGradients, 7u)  // uint[(slot * 3 + axis) * 2 + word], atomics
VKC_CONSTANT(uint, kEbpiVolumeBindingRayCount, 8u)   // uint[]: the ray count when EbpiVolumePush::countFromBuffer

// Quanta of one contribution at or above which it is dropped (overflow): a volume contribution
// (exact integers in double), and a gradient one with the contributions per dispatch (rays x hit
// capacity) up to which no gradient sum can reach 2^62 quanta: 2^36 x 2^26 = 2^62.
VKC_CONSTANT(double, kEbpiVolumeRayLimit, 2251799813685248.0)      // 2^51
VKC_CONSTANT(double, kEbpiVolumeContributionLimit, 68719476736.0)  // 2^36
VKC_CONSTANT(uint, kEbpiVolumeMaxContributions, 67108864u)         // 2^26

// What the volume needs of a ray beyond the casting's EbpiRayGpu (same index). The ray's direction
// must have unit length: hit t values are then lengths.
struct EbpiVolumeRayGpu {
    double area;  // the ray's tile area, > 0 (double: a float area would round each ray's weight unbounded)
    uint pair;    // index into the pair table
    uint axis;    // 0..2: which of the pair's directions the ray runs along
};

// One pair (32 bytes). Gradient slots: vertex v of object A is slot firstSlotA + v, likewise B.
struct EbpiVolumePairGpu {
    uint objectA;  // object-table indices, as in the hits
    uint objectB;
    uint firstSlotA;
    uint firstSlotB;
    double volumeScale;    // quanta per unit volume, a power of two
    double gradientScale;  // quanta per unit area (dV/dp has units of area), a power of two
};

// Per pair and axis (32 bytes): the volume sum (a 64-bit two's-complement integer as low, high
// words) and the stats that make it trustworthy.
struct EbpiPairVolumeGpu {
    uint volumeLow;
    uint volumeHigh;
    uint rays;           // rays that added a volume contribution (one rounding each)
    uint oddRays;        // rays whose hits of one object do not enter/leave in turn: contributed nothing
    uint truncatedRays;  // rays whose hit list overflowed its capacity: contributed nothing
    uint boundaryHits;   // hits that bound an interval inside both (gradient contributions, 3 roundings each)
    uint overflow;       // 1: a contribution was dropped; the sums must not be used
    uint pad0;
};

struct EbpiVolumePush {
    uint rayCount;         // the rays; with countFromBuffer, the capacity of the ray buffers
    uint hitCapacity;
    uint countFromBuffer;  // 1: min(rayCount, the count buffer's kEbpiRayCountWord (shared/ebpi_trace.h))
    uint firstRay;         // the chunk of rays summed (ebpiChunkEnd, shared/ebpi_trace.h)
    uint chunkRays;
    uint pad0;
};

VKC_NAMESPACE_END

#endif
