// Method `ebpi`, stage 7: per ray, its sorted hits walked once to check each object's entry/exit
// parity and once more to add, in fixed point (shared/ebpi_volume.h), the tile area x the length
// inside both solids to its pair's volume (Eq. 1) and, at the hits that bound an interval inside
// both, tile area x barycentric to the gradient of the hit triangle's three vertices (Eq. 2).
// collision/ebpi/ebpi_volume_cpu.cpp is the CPU reference, in the same double operations.
// One thread per ray, grid stride.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/ebpi_trace.h"
#include "shared/ebpi_volume.h"
#include "signed_words.glsl"

layout(local_size_x = kEbpiVolumeGroupSize) in;

layout(set = 0, binding = kEbpiVolumeBindingObjects, std430) readonly buffer Objects { EbpiTraceObjectGpu objects[]; };
layout(set = 0, binding = kEbpiVolumeBindingIndices, std430) readonly buffer Indices { uint indices[]; };
layout(set = 0, binding = kEbpiVolumeBindingRayInfos, std430) readonly buffer RayInfos { EbpiVolumeRayGpu rayInfos[]; };
layout(set = 0, binding = kEbpiVolumeBindingRayHits, std430) readonly buffer RayHits { EbpiRayHitsGpu rayHits[]; };
layout(set = 0, binding = kEbpiVolumeBindingHits, std430) readonly buffer Hits { EbpiHitGpu hits[]; };
layout(set = 0, binding = kEbpiVolumeBindingPairs, std430) readonly buffer Pairs { EbpiVolumePairGpu pairs[]; };
layout(set = 0, binding = kEbpiVolumeBindingSums, std430) buffer Sums { EbpiPairVolumeGpu sums[]; };
layout(set = 0, binding = kEbpiVolumeBindingGradients, std430) buffer Gradients { uint gradientWords[]; };
layout(set = 0, binding = kEbpiVolumeBindingRayCount, std430) readonly buffer RayCount { uint rayCountWords[]; };

layout(push_constant) uniform Push { EbpiVolumePush push; };

// `value` rounded to the nearest whole quantum (halves away from zero); false: dropped (overflow).
bool quantize(double value, double limit, out double q) {
    precise double rounded = floor(abs(value) + 0.5LF);
    q = value < 0.0LF ? -rounded : rounded;
    return rounded < limit;  // false for NaN too
}

// The low word's add that wraps carries one into the high word: the 64-bit sum is exact mod 2^64.
void addToVolume(uint sum, double q) {
    uvec2 w = signedWords(q);
    if (w.x != 0u) {
        uint before = atomicAdd(sums[sum].volumeLow, w.x);
        if (before + w.x < before) w.y += 1u;
    }
    if (w.y != 0u) atomicAdd(sums[sum].volumeHigh, w.y);
}

void addToGradient(uint word, double q) {
    uvec2 w = signedWords(q);
    if (w.x != 0u) {
        uint before = atomicAdd(gradientWords[word], w.x);
        if (before + w.x < before) w.y += 1u;
    }
    if (w.y != 0u) atomicAdd(gradientWords[word + 1u], w.y);
}

// Walk state: each object's depth (entries minus exits so far) and the open interval inside both.
struct Walk {
    int depthA;
    int depthB;
    bool balanced;   // no depth went negative, no hit of a third object
    double entry;    // t where "inside both" began
    double inside;   // sum of the closed intervals' lengths
    uint boundaries; // hits that opened or closed an interval inside both
};

// Eq. 2 at one boundary hit: moving vertex k of the hit triangle by eps along the ray's unit
// direction moves the hit by eps x b_k along the ray, so it changes the length inside both by
// +eps b_k at an exit and -eps b_k at an entry; times the tile area. (Where this agrees with and
// differs from the paper's Eq. 2: collision/ebpi/ebpi_volume_cpu.h.)
void addBoundaryGradient(EbpiHitGpu hit, uint slotBase, uint axis, double sign, double area, double scale,
                         inout bool overflowed) {
    EbpiTraceObjectGpu o = objects[hit.object];
    precise double b0 = (1.0LF - double(hit.b1)) - double(hit.b2);
    double weights[3] = double[3](b0, double(hit.b1), double(hit.b2));
    for (uint k = 0u; k < 3u; ++k) {
        uint vertex = indices[o.firstIndex + 3u * hit.triangle + k];
        precise double value = ((sign * area) * weights[k]) * scale;
        double q;
        if (!quantize(value, kEbpiVolumeContributionLimit, q)) {
            overflowed = true;
            continue;
        }
        if (q != 0.0LF) addToGradient(((slotBase + vertex) * kEbpiVolumeAxes + axis) * 2u, q);
    }
}

void step(inout Walk walk, EbpiHitGpu hit, EbpiVolumePairGpu pair, EbpiVolumeRayGpu rayInfo, bool accumulate,
          inout bool overflowed) {
    bool before = walk.depthA > 0 && walk.depthB > 0;
    int change = hit.entering != 0u ? 1 : -1;
    if (hit.object == pair.objectA)
        walk.depthA += change;
    else if (hit.object == pair.objectB)
        walk.depthB += change;
    else
        walk.balanced = false;
    if (walk.depthA < 0 || walk.depthB < 0) walk.balanced = false;
    bool after = walk.depthA > 0 && walk.depthB > 0;
    if (before == after) return;
    ++walk.boundaries;
    if (after) {
        walk.entry = double(hit.t);
    } else {
        precise double added = double(hit.t) - walk.entry;
        walk.inside += added;
    }
    if (accumulate) {
        uint slotBase = hit.object == pair.objectA ? pair.firstSlotA : pair.firstSlotB;
        addBoundaryGradient(hit, slotBase, rayInfo.axis, after ? -1.0LF : 1.0LF, rayInfo.area, pair.gradientScale,
                            overflowed);
    }
}

// The ray's hits in order; among hits at one t, entries before exits (a ray that touches a solid
// at one point enters and leaves there, whatever the triangles' order).
Walk walkRay(uint base, uint count, EbpiVolumePairGpu pair, EbpiVolumeRayGpu rayInfo, bool accumulate,
             inout bool overflowed) {
    Walk walk = Walk(0, 0, true, 0.0LF, 0.0LF, 0u);
    uint i = 0u;
    while (i < count) {
        uint end = i + 1u;
        while (end < count && hits[base + end].t == hits[base + i].t) ++end;
        for (uint pass = 0u; pass < 2u; ++pass) {
            uint entering = pass == 0u ? 1u : 0u;
            for (uint k = i; k < end; ++k) {
                EbpiHitGpu hit = hits[base + k];
                if (hit.entering == entering) step(walk, hit, pair, rayInfo, accumulate, overflowed);
            }
        }
        i = end;
    }
    if (walk.depthA != 0 || walk.depthB != 0) walk.balanced = false;
    return walk;
}

void volumeOfRay(uint rayIndex) {
    EbpiVolumeRayGpu rayInfo = rayInfos[rayIndex];
    EbpiVolumePairGpu pair = pairs[rayInfo.pair];
    uint sum = rayInfo.pair * kEbpiVolumeAxes + rayInfo.axis;
    if (rayHits[rayIndex].truncated != 0u) {
        atomicAdd(sums[sum].truncatedRays, 1u);
        return;
    }
    uint base = (rayIndex - push.firstRay) * push.hitCapacity;
    uint count = rayHits[rayIndex].count;
    bool overflowed = false;
    // First walk: parity only, so that an odd ray adds nothing at all.
    if (!walkRay(base, count, pair, rayInfo, false, overflowed).balanced) {
        atomicAdd(sums[sum].oddRays, 1u);
        return;
    }
    Walk walk = walkRay(base, count, pair, rayInfo, true, overflowed);
    if (walk.boundaries != 0u) atomicAdd(sums[sum].boundaryHits, walk.boundaries);
    if (walk.inside != 0.0LF) {
        precise double value = (rayInfo.area * walk.inside) * pair.volumeScale;
        double q;
        if (quantize(value, kEbpiVolumeRayLimit, q)) {
            atomicAdd(sums[sum].rays, 1u);
            if (q != 0.0LF) addToVolume(sum, q);
        } else {
            overflowed = true;
        }
    }
    if (overflowed) atomicOr(sums[sum].overflow, 1u);
}

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint rayCount = push.countFromBuffer != 0u ? min(push.rayCount, rayCountWords[kEbpiRayCountWord]) : push.rayCount;
    if (rayCount <= push.firstRay) return;
    uint chunkEnd = ebpiChunkEnd(rayCount, push.firstRay, push.chunkRays);
    for (uint rayIndex = push.firstRay + gl_GlobalInvocationID.x; rayIndex < chunkEnd; rayIndex += stride)
        volumeOfRay(rayIndex);
}
