// ebpi casting, `ray-query` backend (VK_KHR_ray_query in compute). Reads: rays, the TLAS (one
// instance per object, custom index = object, over one BLAS per mesh of non-opaque triangles),
// object table, indices, vertices. Writes: the same hits, counts and truncation as the compute
// backend (shared/ebpi_trace.h).
// Every candidate is recorded and none is committed, so the query visits all of them. The
// hardware's own test is only a filter: at a shared edge it may report a triangle twice, both
// triangles or neither. De-duplication rule: each candidate is re-tested with the compute
// backend's watertight test (ebpiTraceTriangle, same vertices, same rounding) and kept only if
// that accepts it; a repeated candidate (not expected: the geometry asks for no duplicates) is
// dropped by the sort pass. Hence both backends give identical hits whenever the acceleration
// structure reports a superset of the exact hits, which its watertight hardware test does
// except for rays within float rounding of an edge whose exact test falls on the other side.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_ray_query : require

#include "ebpi_trace_common.glsl"

layout(local_size_x = kEbpiTraceGroupSize) in;

layout(set = 0, binding = kEbpiTraceBindingTlas) uniform accelerationStructureEXT tlas;

void traceRay(uint rayIndex) {
    EbpiRayGpu ray = rays[rayIndex];
    // The interval is widened a little so that the hardware's rounding of t never loses a hit
    // the exact test keeps; the exact test applies the ray's own interval.
    float slack = 1.0e-5 * (abs(ray.origin.w) + abs(ray.direction.w)) + 1.0e-30;
    float tMin = max(0.0, ray.origin.w - slack);
    float tMax = ray.direction.w + slack;
    rayQueryEXT query;
    rayQueryInitializeEXT(query, tlas, gl_RayFlagsNoOpaqueEXT, 0xFFu, ray.origin.xyz, tMin, ray.direction.xyz, tMax);
    while (rayQueryProceedEXT(query)) {
        if (rayQueryGetIntersectionTypeEXT(query, false) != gl_RayQueryCandidateIntersectionTriangleEXT) continue;
        uint object = uint(rayQueryGetIntersectionInstanceCustomIndexEXT(query, false));
        if (object != ray.objectA && object != ray.objectB) continue;
        ebpiTraceRecord(rayIndex, ray, object, uint(rayQueryGetIntersectionPrimitiveIndexEXT(query, false)));
    }
}

// Grid stride: the dispatch is capped at the device's group-count limit.
void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint rayIndex = gl_GlobalInvocationID.x; rayIndex < push.rayCount; rayIndex += stride)
        traceRay(rayIndex);
}
