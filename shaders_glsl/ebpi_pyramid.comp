// Method `ebpi` (paper 5, Sec. 4.3): one level of the EBPI pyramid. Level 0 copies each pixel's
// five "touching" channels; level k > 0 sums the 2 x 2 texels below (fewer at the window's edge)
// as 64-bit integers from word pairs with carries, exact, saturating to all ones past 2^64 (still
// an upper bound). Same as the CPU reference planEbpiRays (collision/ebpi/ebpi_ray_plan.cpp).
// Grid: y = view, x = texel of the level (grid-stride).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "ebpi_ray_tiles.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint kGroupSize = kEbpiRayGroupSize;

layout(set = 0, binding = kEbpiRayBindingViews, std430) readonly buffer Views { EbpiViewGpu views[]; };
layout(set = 0, binding = kEbpiRayBindingRayViews, std430) readonly buffer RayViews { EbpiRayViewGpu rayViews[]; };
layout(set = 0, binding = kEbpiRayBindingPixels, std430) readonly buffer Pixels { EbpiPixelGpu pixels[]; };
layout(set = 0, binding = kEbpiRayBindingPyramid, std430) buffer Pyramid { EbpiPyramidTexelGpu pyramid[]; };

layout(push_constant) uniform Push { EbpiRayPush push; };

void main() {
    uint v = gl_WorkGroupID.y;
    if (v >= push.viewCount) return;
    EbpiViewGpu view = views[v];
    EbpiRayViewGpu plan = rayViews[v];
    uint k = push.level;
    if (k >= plan.levels) return;
    uint levelWidth = ebpiLevelSize(view.width, k);
    uint texels = levelWidth * ebpiLevelSize(view.height, k);
    uint first = plan.firstTile + ebpiLevelFirst(view.width, view.height, k);
    uint stride = gl_NumWorkGroups.x * kGroupSize;
    for (uint t = gl_GlobalInvocationID.x; t < texels; t += stride) {
        EbpiPyramidTexelGpu sum;
        if (k == 0u) {
            for (uint w = 0u; w < 10u; ++w) sum.words[w] = pixels[view.firstPixel + t].words[w];
            pyramid[first + t] = sum;
            continue;
        }
        for (uint w = 0u; w < 10u; ++w) sum.words[w] = 0u;
        uint below = plan.firstTile + ebpiLevelFirst(view.width, view.height, k - 1u);
        uint belowWidth = ebpiLevelSize(view.width, k - 1u);
        uint belowHeight = ebpiLevelSize(view.height, k - 1u);
        uint x = t % levelWidth, y = t / levelWidth;
        for (uint cy = 2u * y; cy < min(2u * y + 2u, belowHeight); ++cy)
            for (uint cx = 2u * x; cx < min(2u * x + 2u, belowWidth); ++cx) {
                EbpiPyramidTexelGpu child = pyramid[below + cy * belowWidth + cx];
                for (uint c = 0u; c < 5u; ++c) {
                    uint carryLow, carryHigh, carryCarry;
                    uint low = uaddCarry(sum.words[2u * c], child.words[2u * c], carryLow);
                    uint high = uaddCarry(sum.words[2u * c + 1u], child.words[2u * c + 1u], carryHigh);
                    high = uaddCarry(high, carryLow, carryCarry);
                    bool saturated = carryHigh != 0u || carryCarry != 0u;
                    sum.words[2u * c] = saturated ? 0xFFFFFFFFu : low;
                    sum.words[2u * c + 1u] = saturated ? 0xFFFFFFFFu : high;
                }
            }
        pyramid[first + t] = sum;
    }
}
