// ebpi casting, `compute` backend (any Vulkan 1.2 device, no acceleration structures: the path
// RenderDoc captures and the reference of the others). Reads: rays, object table, indices,
// vertices. Writes: every hit of each ray into its slots, counts, truncation (shared/ebpi_trace.h).
// Traversal: brute force, one thread per ray over every triangle of the ray's (at most two)
// objects; a BVH (collision/aabb_tree's trees) is the next step. Hits in append order: the sort
// pass (ebpi_trace_sort.comp) orders them.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "ebpi_trace_common.glsl"

layout(local_size_x = kEbpiTraceGroupSize) in;

void traceRay(uint rayIndex) {
    EbpiRayGpu ray = rays[rayIndex];
    for (uint k = 0u; k < 2u; ++k) {
        uint object = k == 0u ? ray.objectA : ray.objectB;
        if (object == kEbpiNoObject || (k == 1u && object == ray.objectA)) continue;
        uint triangles = objects[object].triangleCount;
        for (uint triangle = 0u; triangle < triangles; ++triangle) ebpiTraceRecord(rayIndex, ray, object, triangle);
    }
}

// Grid stride: the dispatch is capped at the device's group-count limit.
void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint rayCount = ebpiTraceRayCount();
    for (uint rayIndex = gl_GlobalInvocationID.x; rayIndex < rayCount; rayIndex += stride)
        traceRay(rayIndex);
}
