// ebpi casting, `ray-query` backend (VK_KHR_ray_query in compute). Reads: rays, the TLAS (one
// instance per object, custom index = object, over one BLAS per object of its triangles' grown
// boxes, ebpi_trace_boxes.comp), object table, indices, vertices. Writes: the same hits, counts
// and truncation as the compute backend (shared/ebpi_trace.h).
// Every candidate box is taken and none is committed, so the query visits all of them. The
// hardware only proposes: each candidate triangle is tested with the compute backend's watertight
// test (ebpiTraceTriangle, same vertices, same rounding) and kept only if that accepts it; a
// repeated candidate (not expected: the geometry asks for no duplicates) is dropped by the sort
// pass. The boxes contain every point the exact test accepts with a margin far above the
// hardware's rounding, so the candidates are a superset of the exact hits and both backends give
// identical hits. (A triangle BLAS does not: its float test misses, on lavapipe, a few rays in
// 10^5 that pass within rounding of an edge the exact test puts on the other side.)
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_ray_query : require

#include "ebpi_trace_common.glsl"

layout(local_size_x = kEbpiTraceGroupSize) in;

layout(set = 0, binding = kEbpiTraceBindingTlas) uniform accelerationStructureEXT tlas;

void traceRay(uint rayIndex) {
    EbpiRayGpu ray = rays[rayIndex];
    vec2 interval = ebpiTraceCandidateInterval(ray);
    rayQueryEXT query;
    rayQueryInitializeEXT(query, tlas, gl_RayFlagsNoOpaqueEXT, 0xFFu, ray.origin.xyz, interval.x, ray.direction.xyz,
                          interval.y);
    while (rayQueryProceedEXT(query)) {
        if (rayQueryGetIntersectionTypeEXT(query, false) != gl_RayQueryCandidateIntersectionAABBEXT) continue;
        uint object = uint(rayQueryGetIntersectionInstanceCustomIndexEXT(query, false));
        if (object != ray.objectA && object != ray.objectB) continue;
        ebpiTraceRecord(rayIndex, ray, object, uint(rayQueryGetIntersectionPrimitiveIndexEXT(query, false)));
    }
}

// Grid stride: the dispatch is capped at the device's group-count limit.
void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint chunkEnd = ebpiTraceChunkEnd();
    for (uint rayIndex = push.firstRay + gl_GlobalInvocationID.x; rayIndex < chunkEnd; rayIndex += stride)
        traceRay(rayIndex);
}
