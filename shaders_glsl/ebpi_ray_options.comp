// Method `ebpi` (paper 5, Sec. 4.3, Eq. 10): every pixel's options, the smallest bound of its
// candidate splits within each ray budget (ebpiPixelOptions, shared/ebpi_rays.h), for the
// allocation (ebpi_ray_allocate.comp). Each option is stored as its quanta and split code; the
// CPU reference is planEbpiPairRays (collision/ebpi/ebpi_ray_plan.cpp).
// Grid: y = view, x = pixel of the view (grid-stride).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "ebpi_ray_tiles.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint kGroupSize = kEbpiRayGroupSize;

layout(set = 0, binding = kEbpiRayBindingViews, std430) readonly buffer Views { EbpiViewGpu views[]; };
layout(set = 0, binding = kEbpiRayBindingRayViews, std430) readonly buffer RayViews { EbpiRayViewGpu rayViews[]; };
layout(set = 0, binding = kEbpiRayBindingPixels, std430) readonly buffer Pixels { EbpiPixelGpu pixels[]; };
layout(set = 0, binding = kEbpiRayBindingOptions, std430) writeonly buffer Options { EbpiRayOptionsGpu options[]; };

layout(push_constant) uniform Push { EbpiRayPush push; };

void main() {
    uint v = gl_WorkGroupID.y;
    if (v >= push.viewCount) return;
    EbpiViewGpu view = views[v];
    EbpiRayViewGpu plan = rayViews[v];
    uint pixelCount = view.width * view.height;
    uint stride = gl_NumWorkGroups.x * kGroupSize;
    for (uint p = gl_GlobalInvocationID.x; p < pixelCount; p += stride) {
        uint pixel = view.firstPixel + p;
        double quanta[kEbpiRayOptionCount];
        uint split[kEbpiRayOptionCount];
        ebpiPixelOptions(ebpiPixelChannels(pixels[pixel], view, 0u), ebpiPixelChannels(pixels[pixel], view, 5u),
                         ebpiPixelChannels(pixels[pixel], view, 10u), pixels[pixel].edges, view.pixelX, view.pixelY,
                         ebpiViewDepth(plan),
                         plan.tolerance,
                         push.maxSplit, quanta, split);
        EbpiRayOptionsGpu packed;
        for (uint b = 0u; b < kEbpiRayOptionCount; ++b) {
            packed.words[2u * b] = ebpiPackOptionLow(quanta[b]);
            packed.words[2u * b + 1u] = ebpiPackOptionHigh(quanta[b], split[b]);
        }
        options[pixel] = packed;
    }
}
