// Method `ebpi` (paper 5, Sec. 4.2, Eq. 8-9 in conservative form): every edge term added into every
// pixel of its view that its closed projected segment touches (ebpi_term_raster.glsl: 64-bit fixed
// point, rounded up, order-free); an overflow raises the view's flag.
// Grid: y = job, x = edge term of the job (grid-stride); a thread walks its segment's rows.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "ebpi_term_raster.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint kGroupSize = kEbpiImageGroupSize;

layout(set = 0, binding = kEbpiImageBindingViews, std430) readonly buffer Views { EbpiViewGpu views[]; };
layout(set = 0, binding = kEbpiImageBindingJobs, std430) readonly buffer Jobs { EbpiImageJobGpu jobs[]; };
layout(set = 0, binding = kEbpiImageBindingTerms, std430) readonly buffer Terms { EbpiEdgeTermGpu terms[]; };

layout(push_constant) uniform Push { EbpiImagePush push; };

void main() {
    uint jobIndex = push.firstJob + gl_WorkGroupID.y;
    if (jobIndex >= push.jobCount) return;
    EbpiImageJobGpu job = jobs[jobIndex];
    EbpiViewGpu view = views[job.view];
    bool overflowed = false;
    uint stride = gl_NumWorkGroups.x * kGroupSize;
    for (uint e = gl_GlobalInvocationID.x; e < job.edgeCount; e += stride)
        ebpiRasterizeTerm(view, terms[job.firstTerm + e], overflowed);
    if (overflowed) atomicOr(overflow[job.view], 1u);
}
