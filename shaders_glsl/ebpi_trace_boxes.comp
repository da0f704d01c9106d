// ebpi casting, `ray-query` backend: every object's triangles as grown object-space boxes, the
// BLAS input (one BLAS per object). Reads: object table, indices, vertices (in place, this frame's
// positions). Writes: EbpiTriangleBoxGpu per triangle (shared/ebpi_trace.h). Grid: y = object,
// x = its triangles (grid-stride).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "ebpi_trace_common.glsl"

layout(local_size_x = kEbpiTraceGroupSize) in;

layout(set = 0, binding = kEbpiTraceBindingBoxes, std430) writeonly buffer Boxes { EbpiTriangleBoxGpu boxes[]; };

void main() {
    uint objectIndex = gl_WorkGroupID.y;
    EbpiTraceObjectGpu o = objects[objectIndex];
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint t = gl_GlobalInvocationID.x; t < o.triangleCount; t += stride) {
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
