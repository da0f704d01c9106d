// Method `ebpi` (paper 5, Sec. 4.3): each tile's decision, top-down coarsening without a top-down
// walk: a tile gets one ray when its bound fits its share (ebpi_rays.h) and no coarser tile
// containing it does; a pixel that neither it nor a coarser tile covers is split into the fewest
// nx x ny sub-tiles meeting its share (ebpiFewestRays), or maxSplit x maxSplit with the view
// flagged. Each thread checks its own tile's ancestors, so the pass is one dispatch and its
// decisions are those of the CPU reference planEbpiRays (collision/ebpi/ebpi_ray_plan.cpp).
// Grid: y = view, x = tile of the view (grid-stride).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "ebpi_ray_tiles.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint kGroupSize = kEbpiRayGroupSize;

layout(set = 0, binding = kEbpiRayBindingViews, std430) readonly buffer Views { EbpiViewGpu views[]; };
layout(set = 0, binding = kEbpiRayBindingRayViews, std430) readonly buffer RayViews { EbpiRayViewGpu rayViews[]; };
layout(set = 0, binding = kEbpiRayBindingPixels, std430) readonly buffer Pixels { EbpiPixelGpu pixels[]; };
layout(set = 0, binding = kEbpiRayBindingPyramid, std430) readonly buffer Pyramid { EbpiPyramidTexelGpu pyramid[]; };
layout(set = 0, binding = kEbpiRayBindingTiles, std430) writeonly buffer Tiles { EbpiRayTileGpu tiles[]; };
layout(set = 0, binding = kEbpiRayBindingFlags, std430) buffer Flags { uint flags[]; };

layout(push_constant) uniform Push { EbpiRayPush push; };

EbpiRayPolynomial decode(uint words[10], EbpiViewGpu view, uint firstChannel) {
    double c[5];
    for (uint k = 0u; k < 5u; ++k)
        c[k] = ebpiCountToDouble(words[2u * k], words[2u * k + 1u]) / view.scales[firstChannel + k];
    return EbpiRayPolynomial(c[0], c[1], c[2], c[3], c[4]);
}

// Channels first.. first + 4 of a pixel, as a texel's words.
EbpiRayPolynomial pixelPolynomial(uint pixel, EbpiViewGpu view, uint firstChannel) {
    uint words[10];
    for (uint w = 0u; w < 10u; ++w) words[w] = pixels[pixel].words[2u * firstChannel + w];
    return decode(words, view, firstChannel);
}

// One ray's bound of tile (k, x, y), and whether it fits its share.
bool fits(EbpiViewGpu view, EbpiRayViewGpu plan, uint k, uint x, uint y, out double bound) {
    uint cols = min(1u << k, view.width - (x << k));
    uint rows = min(1u << k, view.height - (y << k));
    uint t = plan.firstTile + ebpiLevelFirst(view.width, view.height, k) + y * ebpiLevelSize(view.width, k) + x;
    bound = ebpiOneRayBound(decode(pyramid[t].words, view, 0u), double(cols) * view.pixelX,
                            double(rows) * view.pixelY);
    return bound <= ebpiTileShare(plan.tolerance, cols, rows, view.width, view.height);
}

void main() {
    uint v = gl_WorkGroupID.y;
    if (v >= push.viewCount) return;
    EbpiViewGpu view = views[v];
    EbpiRayViewGpu plan = rayViews[v];
    uint tileCount = ebpiTileCount(view.width, view.height, plan.levels);
    uint stride = gl_NumWorkGroups.x * kGroupSize;
    for (uint t = gl_GlobalInvocationID.x; t < tileCount; t += stride) {
        EbpiTileAt at = ebpiTileAt(view.width, view.height, plan.levels, t);
        EbpiRayTileGpu decision = EbpiRayTileGpu(0.0LF, 0u, 1u, 1u, 0u);
        double bound;
        bool own = fits(view, plan, at.level, at.x, at.y, bound);
        bool covered = false;
        for (uint j = at.level + 1u; j < plan.levels && !covered; ++j) {
            double ignored;
            covered = fits(view, plan, j, at.x >> (j - at.level), at.y >> (j - at.level), ignored);
        }
        if (!covered && own) {
            decision.bound = bound;
            decision.rays = 1u;
        } else if (!covered && at.level == 0u) {
            uint pixel = view.firstPixel + at.y * view.width + at.x;
            EbpiRaySplit split = ebpiFewestRays(pixelPolynomial(pixel, view, 0u), pixelPolynomial(pixel, view, 5u),
                                                pixelPolynomial(pixel, view, 10u), view.pixelX, view.pixelY,
                                                ebpiTileShare(plan.tolerance, 1u, 1u, view.width, view.height),
                                                push.maxSplit);
            decision = EbpiRayTileGpu(split.bound, split.nx * split.ny, split.nx, split.ny, 0u);
            if (!split.within) atomicOr(flags[v], kEbpiRayFlagBoundNotMet);
        }
        tiles[plan.firstTile + t] = decision;
    }
}
