// ebpi casting, `ray-query` backend: every object's triangles as grown object-space boxes, the
// BLAS input (one BLAS per object). Reads: object table, indices, vertices (in place, this frame's
// positions). Writes: EbpiTriangleBoxGpu per triangle (shared/ebpi_trace.h) and each object's TLAS
// instance transform. Grid: y = object,
// x = its triangles (grid-stride).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "ebpi_trace_common.glsl"

layout(local_size_x = kEbpiTraceGroupSize) in;

layout(set = 0, binding = kEbpiTraceBindingBoxes, std430) writeonly buffer Boxes { EbpiTriangleBoxGpu boxes[]; };
layout(set = 0, binding = kEbpiTraceBindingInstances, std430) buffer Instances { EbpiAccelInstanceGpu instances[]; };

void main() {
    uint objectIndex = gl_WorkGroupID.y;
    EbpiTraceObjectGpu o = objects[objectIndex];
    // The instance of object i places BLAS i (passes/ebpi/ebpi_trace_accel.h) with its transform.
    if (gl_GlobalInvocationID.x == 0u)
        for (uint k = 0u; k < 12u; ++k) instances[objectIndex].transform[k] = o.object.objectToLocal[k % 4u][k / 4u];
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint boxCount = max(o.triangleCount, push.boxesPerObject);
    for (uint t = gl_GlobalInvocationID.x; t < boxCount; t += stride) {
        // Past the object's triangles: a point box far beyond any ray (a slot's BLAS holds a fixed
        // number of boxes). Not Vulkan's inactive primitive (a NaN minimum x): with those, lavapipe
        // 25's BLAS lost every hit. ebpiTraceRecord ignores a proposal past the triangles anyway.
        if (t >= o.triangleCount) {
            boxes[o.firstBox + t] = EbpiTriangleBoxGpu(1e30, 1e30, 1e30, 1e30, 1e30, 1e30);
            continue;
        }
        vec3 a = fetchVertex(o.object.vertices, indices[o.firstIndex + 3u * t]);
        vec3 b = fetchVertex(o.object.vertices, indices[o.firstIndex + 3u * t + 1u]);
        vec3 c = fetchVertex(o.object.vertices, indices[o.firstIndex + 3u * t + 2u]);
        vec3 lo = min(a, min(b, c)), hi = max(a, max(b, c));
        float grow = kEbpiTraceBoxMargin * ebpiTraceCoordinateScale(o, lo, hi);
        lo -= vec3(grow);
        hi += vec3(grow);
        boxes[o.firstBox + t] = EbpiTriangleBoxGpu(lo.x, lo.y, lo.z, hi.x, hi.y, hi.z);
    }
}
