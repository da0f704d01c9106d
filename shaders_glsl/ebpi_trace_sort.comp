// ebpi casting, after any backend: orders each ray's kept hits by (t, object, triangle) so that
// backends and runs compare hit for hit, and drops a repeated (object, triangle) (a hardware
// backend may report a candidate twice; both copies carry the same exact-test values, so they
// are adjacent), lowering the count. Reads/writes: hits and counts (shared/ebpi_trace.h).
// Insertion sort per ray: lists are short (a ray crosses few surfaces); one thread per ray.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/ebpi_trace.h"

layout(local_size_x = kEbpiTraceGroupSize) in;

layout(set = 0, binding = kEbpiTraceBindingRayHits, std430) buffer RayHits { EbpiRayHitsGpu rayHits[]; };
layout(set = 0, binding = kEbpiTraceBindingHits, std430) buffer Hits { EbpiHitGpu hits[]; };
layout(set = 0, binding = kEbpiTraceBindingRayCount, std430) readonly buffer RayCount { uint rayCountWords[]; };

layout(push_constant) uniform Push { EbpiTracePush push; };

void sortRay(uint rayIndex) {
    uint base = (rayIndex - push.firstRay) * push.hitCapacity;
    uint count = rayHits[rayIndex].count;
    uint kept = min(count, push.hitCapacity);
    for (uint i = 1u; i < kept; ++i) {
        EbpiHitGpu h = hits[base + i];
        uint j = i;
        while (j > 0u && ebpiHitBefore(h, hits[base + j - 1u])) {
            hits[base + j] = hits[base + j - 1u];
            --j;
        }
        hits[base + j] = h;
    }
    uint unique = kept == 0u ? 0u : 1u;
    for (uint i = 1u; i < kept; ++i) {
        EbpiHitGpu h = hits[base + i];
        EbpiHitGpu last = hits[base + unique - 1u];
        if (h.object == last.object && h.triangle == last.triangle) continue;
        hits[base + unique] = h;
        ++unique;
    }
    rayHits[rayIndex].count = count - (kept - unique);
}

// Grid stride: the dispatch is capped at the device's group-count limit.
void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint rayCount = push.countFromBuffer != 0u ? min(push.rayCount, rayCountWords[kEbpiRayCountWord]) : push.rayCount;
    if (rayCount <= push.firstRay) return;
    uint chunkEnd = ebpiChunkEnd(rayCount, push.firstRay, push.chunkRays);
    for (uint rayIndex = push.firstRay + gl_GlobalInvocationID.x; rayIndex < chunkEnd; rayIndex += stride)
        sortRay(rayIndex);
}
