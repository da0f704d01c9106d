// Method `ebpi`: [min z, max z] of each job's object in its view's ray frame, over all its
// vertices. The edge terms give every steep wall this range: it contains the wall's own depth
// range, and the wall bound grows with it, so the bound stays sound (ebpi_edge_terms.h,
// EbpiSteepWallDepth::MeshDepthExtent) without the CPU's union-find over steep triangles.
// Grid: one workgroup per job (y); min and max are exact, so the result is bit-identical to the CPU's.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "ebpi_ray_frame.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint kGroupSize = kEbpiImageGroupSize;

layout(set = 0, binding = kEbpiImageBindingObjects, std430) readonly buffer Objects { ObjectGpu objects[]; };
layout(set = 0, binding = kEbpiImageBindingViews, std430) readonly buffer Views { EbpiViewGpu views[]; };
layout(set = 0, binding = kEbpiImageBindingJobs, std430) readonly buffer Jobs { EbpiImageJobGpu jobs[]; };
layout(set = 0, binding = kEbpiImageBindingExtents, std430) writeonly buffer Extents { EbpiDepthExtentGpu extents[]; };

layout(push_constant) uniform Push { EbpiImagePush push; };

shared double sharedMin[kGroupSize];
shared double sharedMax[kGroupSize];

void main() {
    uint jobIndex = push.firstJob + gl_WorkGroupID.y;
    if (jobIndex >= push.jobCount) return;  // uniform per workgroup
    EbpiImageJobGpu job = jobs[jobIndex];
    ObjectGpu object = objects[job.object];
    EbpiViewGpu view = views[job.view];
    double lo = 1.0LF / 0.0LF, hi = -1.0LF / 0.0LF;
    for (uint v = gl_LocalInvocationID.x; v < object.vertices.count; v += kGroupSize) {
        double z = ebpiFetchRayFrame(object, view, v).z;
        lo = min(lo, z);
        hi = max(hi, z);
    }
    sharedMin[gl_LocalInvocationID.x] = lo;
    sharedMax[gl_LocalInvocationID.x] = hi;
    barrier();
    // kGroupSize is a power of two.
    for (uint span = kGroupSize / 2u; span > 0u; span /= 2u) {
        uint i = gl_LocalInvocationID.x;
        if (i < span) {
            sharedMin[i] = min(sharedMin[i], sharedMin[i + span]);
            sharedMax[i] = max(sharedMax[i], sharedMax[i + span]);
        }
        barrier();
    }
    if (gl_LocalInvocationID.x == 0u) extents[jobIndex] = EbpiDepthExtentGpu(sharedMin[0], sharedMax[0]);
}
