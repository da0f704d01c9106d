// GLSL only, shared by the ebpi trace backends (ebpi_trace_compute.comp, ebpi_trace_query.comp,
// ebpi_trace_pipeline.*): the buffers of shared/ebpi_trace.h and the one function that tests a
// triangle of an object against a ray and appends the hit to the ray's slots.
#ifndef VKC_EBPI_TRACE_COMMON_GLSL
#define VKC_EBPI_TRACE_COMMON_GLSL

#include "shared/ebpi_trace.h"
#include "shared/aabb_tree.h"  // aabbTransformPoint: the fixed-order transform the CPU tests repeat
#include "vertex_fetch.glsl"

layout(set = 0, binding = kEbpiTraceBindingObjects, std430) readonly buffer Objects { EbpiTraceObjectGpu objects[]; };
layout(set = 0, binding = kEbpiTraceBindingIndices, std430) readonly buffer Indices { uint indices[]; };
layout(set = 0, binding = kEbpiTraceBindingRays, std430) readonly buffer Rays { EbpiRayGpu rays[]; };
layout(set = 0, binding = kEbpiTraceBindingRayHits, std430) buffer RayHits { EbpiRayHitsGpu rayHits[]; };
layout(set = 0, binding = kEbpiTraceBindingHits, std430) writeonly buffer Hits { EbpiHitGpu hits[]; };
layout(set = 0, binding = kEbpiTraceBindingRayCount, std430) readonly buffer RayCount { uint rayCountWords[]; };

layout(push_constant) uniform Push { EbpiTracePush push; };

// The rays to trace: the push constant's, or as many as the same frame's ray generator wrote.
uint ebpiTraceRayCount() {
    return push.countFromBuffer != 0u ? min(push.rayCount, rayCountWords[kEbpiRayCountWord]) : push.rayCount;
}

// The end of this dispatch's chunk of rays (shared/ebpi_trace.h); it starts at push.firstRay.
uint ebpiTraceChunkEnd() {
    uint rayCount = ebpiTraceRayCount();
    return rayCount <= push.firstRay ? push.firstRay : ebpiChunkEnd(rayCount, push.firstRay, push.chunkRays);
}

// The interval handed to the hardware backends: a little wider than the ray's own, so that the
// hardware's rounding of t never loses a hit the exact test keeps (which applies the ray's own).
vec2 ebpiTraceCandidateInterval(EbpiRayGpu ray) {
    float slack = 1.0e-5 * (abs(ray.origin.w) + abs(ray.direction.w)) + 1.0e-30;
    return vec2(max(0.0, ray.origin.w - slack), ray.direction.w + slack);
}

// The object's coordinate scale a box's margin is a fraction of (kEbpiTraceBoxMargin): the box's
// magnitude and extent in object space and the placement's translation over its smallest scale.
float ebpiTraceCoordinateScale(EbpiTraceObjectGpu o, vec3 lo, vec3 hi) {
    mat4 m = o.object.objectToLocal;
    float smallestScale = max(min(length(m[0].xyz), min(length(m[1].xyz), length(m[2].xyz))), 1.0e-30);
    vec3 magnitude = max(abs(lo), abs(hi));
    return max(magnitude.x, max(magnitude.y, magnitude.z)) + length(hi - lo) + length(m[3].xyz) / smallestScale;
}

// Vertex `corner` of `triangle` of `object`, in the frame's local space.
vec3 ebpiTraceVertex(EbpiTraceObjectGpu object, uint triangle, uint corner) {
    uint vertex = indices[object.firstIndex + 3u * triangle + corner];
    return aabbTransformPoint(object.object.objectToLocal, fetchVertex(object.object.vertices, vertex));
}

// Tests `triangle` of `object` against ray `rayIndex` and appends a hit. The count is an atomic
// so it stays exact past the capacity whatever invocation appends (any-hit shaders included).
void ebpiTraceRecord(uint rayIndex, EbpiRayGpu ray, uint object, uint triangle) {
    EbpiTraceObjectGpu o = objects[object];
    if (triangle >= o.triangleCount) return;  // a slot's padding box (ebpi_trace_boxes.comp)
    EbpiTriangleHit h = ebpiTraceTriangle(ray.origin.xyz, ray.direction.xyz, ray.origin.w, ray.direction.w,
                                          ebpiTraceVertex(o, triangle, 0u), ebpiTraceVertex(o, triangle, 1u),
                                          ebpiTraceVertex(o, triangle, 2u));
    if (!h.hit) return;
    uint slot = atomicAdd(rayHits[rayIndex].count, 1u);
    if (slot >= push.hitCapacity) {
        rayHits[rayIndex].truncated = 1u;
        return;
    }
    EbpiHitGpu hit;
    hit.t = h.t;
    hit.object = object;
    hit.triangle = triangle;
    hit.entering = h.entering ? 1u : 0u;
    hit.b1 = h.b1;
    hit.b2 = h.b2;
    hit.pad0 = 0u;
    hit.pad1 = 0u;
    hits[(rayIndex - push.firstRay) * push.hitCapacity + slot] = hit;
}

#endif
