// Method `ebpi` (paper 5, Sec. 4.3): each pair's rays allocated to its views' tiles (shared/
// ebpi_rays.h, "Allocation"). For a price lambda, bottom-up over each view's pyramid: a pixel takes
// its option of least rays + lambda x quanta, a coarser tile one ray at its centre when that costs
// no more than its children's best (the paper's coarsening); the pair takes the smallest lambda step
// whose views' total quanta fit their budgets (bisection over the steps), else the largest step and
// the flag. Then every tile's decision: rays when no coarser tile containing it took one ray.
// One workgroup per pair (the first view of each run of EbpiRayViewGpu::pair); the tiles' costs live
// in a coherent buffer, the levels ordered by barriers. The CPU reference is planEbpiPairRays
// (collision/ebpi/ebpi_ray_plan.cpp): the same operations in the same order.
// Grid: x = view (workgroups of views that do not start a pair return at once).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "ebpi_ray_tiles.glsl"

layout(local_size_x = kEbpiRayScanGroupSize) in;

layout(set = 0, binding = kEbpiRayBindingViews, std430) readonly buffer Views { EbpiViewGpu views[]; };
layout(set = 0, binding = kEbpiRayBindingRayViews, std430) readonly buffer RayViews { EbpiRayViewGpu rayViews[]; };
layout(set = 0, binding = kEbpiRayBindingPixels, std430) readonly buffer Pixels { EbpiPixelGpu pixels[]; };
layout(set = 0, binding = kEbpiRayBindingPyramid, std430) readonly buffer Pyramid { EbpiPyramidTexelGpu pyramid[]; };
layout(set = 0, binding = kEbpiRayBindingOptions, std430) readonly buffer Options { EbpiRayOptionsGpu options[]; };
layout(set = 0, binding = kEbpiRayBindingCosts, std430) coherent buffer Costs { EbpiRayCostGpu costs[]; };
layout(set = 0, binding = kEbpiRayBindingTiles, std430) writeonly buffer Tiles { EbpiRayTileGpu tiles[]; };
layout(set = 0, binding = kEbpiRayBindingFlags, std430) writeonly buffer Flags { uint flags[]; };

layout(push_constant) uniform Push { EbpiRayPush push; };

void levelDone() {
    memoryBarrierBuffer();
    barrier();
}

// One ray at the centre of tile (level k, x, y) of view v: its bound.
double oneRayBound(EbpiViewGpu view, EbpiRayViewGpu plan, EbpiTileAt at) {
    uint t = plan.firstTile + ebpiLevelFirst(view.width, view.height, at.level) + at.y * at.levelWidth + at.x;
    return ebpiOneRayBound(ebpiDecodeChannels(pyramid[t].words, view, 0u), double(at.cols) * view.pixelX,
                           double(at.rows) * view.pixelY, ebpiViewDepth(plan));
}

// The view's best plan at `lambda`, bottom-up; returns its quanta (the top tile's).
double allocateView(uint v, double lambda) {
    EbpiViewGpu view = views[v];
    EbpiRayViewGpu plan = rayViews[v];
    uint lid = gl_LocalInvocationID.x;
    for (uint p = lid; p < view.width * view.height; p += kEbpiRayScanGroupSize) {
        uint pixel = view.firstPixel + p;
        EbpiRayCostGpu best = EbpiRayCostGpu(0.0LF, 0.0LF, 0.0LF, 0u, 0u);
        double previous = -1.0LF;
        for (uint b = 0u; b < kEbpiRayOptionCount; ++b) {
            uint high = options[pixel].words[2u * b + 1u];
            double quanta = ebpiOptionQuanta(options[pixel].words[2u * b], high);
            if (quanta == previous) break;  // the distinct options are over (ebpiPixelOptions)
            previous = quanta;
            uint rays = ebpiOptionRays(ebpiOptionSplit(high), push.maxSplit);
            double cost = ebpiRayCost(rays, quanta, lambda);
            if (b == 0u || cost < best.cost) best = EbpiRayCostGpu(cost, quanta, 0.0LF, rays, b);
        }
        costs[plan.firstTile + p] = best;
    }
    levelDone();
    for (uint k = 1u; k < plan.levels; ++k) {
        uint levelWidth = ebpiLevelSize(view.width, k);
        uint texels = levelWidth * ebpiLevelSize(view.height, k);
        uint first = plan.firstTile + ebpiLevelFirst(view.width, view.height, k);
        uint below = plan.firstTile + ebpiLevelFirst(view.width, view.height, k - 1u);
        uint belowWidth = ebpiLevelSize(view.width, k - 1u);
        uint belowHeight = ebpiLevelSize(view.height, k - 1u);
        for (uint t = lid; t < texels; t += kEbpiRayScanGroupSize) {
            uint x = t % levelWidth, y = t / levelWidth;
            precise double cost = 0.0LF;
            double quanta = 0.0LF;
            uint rays = 0u;
            for (uint cy = 2u * y; cy < min(2u * y + 2u, belowHeight); ++cy)
                for (uint cx = 2u * x; cx < min(2u * x + 2u, belowWidth); ++cx) {
                    EbpiRayCostGpu child = costs[below + cy * belowWidth + cx];
                    cost += child.cost;
                    quanta = ebpiAddQuanta(quanta, child.quanta);
                    rays = ebpiSaturatingAdd(rays, child.rays);
                }
            double oneRayQuanta = costs[first + t].oneRayQuanta;
            double oneRay = ebpiRayCost(1u, oneRayQuanta, lambda);
            if (oneRay <= cost)
                costs[first + t] = EbpiRayCostGpu(oneRay, oneRayQuanta, oneRayQuanta, 1u, 1u);
            else
                costs[first + t] = EbpiRayCostGpu(cost, quanta, oneRayQuanta, rays, 0u);
        }
        levelDone();
    }
    return costs[plan.firstTile + ebpiTileCount(view.width, view.height, plan.levels) - 1u].quanta;
}

double allocatePair(uint firstView, uint endView, uint step) {
    double total = 0.0LF;
    for (uint v = firstView; v < endView; ++v) total = ebpiAddQuanta(total, allocateView(v, ebpiRayLambda(step)));
    return total;
}

void main() {
    uint firstView = gl_WorkGroupID.x;
    if (firstView >= push.viewCount) return;
    if (firstView > 0u && rayViews[firstView - 1u].pair == rayViews[firstView].pair) return;
    uint endView = firstView + 1u;
    while (endView < push.viewCount && rayViews[endView].pair == rayViews[firstView].pair) ++endView;
    uint lid = gl_LocalInvocationID.x;
    // An empty slot (ebpi_pair_setup.comp: no pyramid levels) has no tiles, and nothing to meet.
    if (rayViews[firstView].levels == 0u) {
        for (uint v = firstView + lid; v < endView; v += kEbpiRayScanGroupSize) flags[v] = 0u;
        return;
    }

    // Every coarser tile's one-ray bound, once: it does not depend on lambda.
    double budget = 0.0LF;
    for (uint v = firstView; v < endView; ++v) {
        EbpiViewGpu view = views[v];
        EbpiRayViewGpu plan = rayViews[v];
        budget += ebpiViewBudgetQuanta(plan);
        uint pixelCount = view.width * view.height;
        uint tileCount = ebpiTileCount(view.width, view.height, plan.levels);
        for (uint t = pixelCount + lid; t < tileCount; t += kEbpiRayScanGroupSize)
            costs[plan.firstTile + t].oneRayQuanta =
                ebpiBoundQuanta(oneRayBound(view, plan, ebpiTileAt(view.width, view.height, plan.levels, t)), plan.tolerance);
    }
    levelDone();

    uint high = kEbpiRayLambdaSteps - 1u;
    bool met = allocatePair(firstView, endView, high) <= budget;
    if (met) {
        int low = -1;
        while (int(high) - low > 1) {
            int middle = (low + int(high)) / 2;
            if (allocatePair(firstView, endView, uint(middle)) <= budget)
                high = uint(middle);
            else
                low = middle;
        }
    }
    allocatePair(firstView, endView, high);

    for (uint v = firstView; v < endView; ++v) {
        EbpiViewGpu view = views[v];
        EbpiRayViewGpu plan = rayViews[v];
        uint tileCount = ebpiTileCount(view.width, view.height, plan.levels);
        for (uint t = lid; t < tileCount; t += kEbpiRayScanGroupSize) {
            EbpiTileAt at = ebpiTileAt(view.width, view.height, plan.levels, t);
            bool covered = false;
            for (uint j = at.level + 1u; j < plan.levels && !covered; ++j) {
                uint ancestor = plan.firstTile + ebpiLevelFirst(view.width, view.height, j) +
                                (at.y >> (j - at.level)) * ebpiLevelSize(view.width, j) + (at.x >> (j - at.level));
                covered = costs[ancestor].choice == 1u;
            }
            EbpiRayTileGpu decision = EbpiRayTileGpu(0.0LF, 0u, 1u, 1u, 0u);
            uint choice = costs[plan.firstTile + t].choice;
            if (!covered && at.level > 0u && choice == 1u) {
                decision = EbpiRayTileGpu(oneRayBound(view, plan, at), 1u, 1u, 1u, 0u);
            } else if (!covered && at.level == 0u) {
                uint pixel = view.firstPixel + t;
                uint code = ebpiOptionSplit(options[pixel].words[2u * choice + 1u]);
                uint nx = ebpiSplitCandidate(code & 15u, push.maxSplit);
                uint ny = ebpiSplitCandidate(code >> 4u, push.maxSplit);
                double bound = oneRayBound(view, plan, at);
                if (code != 0u)
                    bound = ebpiSplitBound(ebpiPixelChannels(pixels[pixel], view, 0u), ebpiPixelChannels(pixels[pixel], view, 5u),
                                           ebpiPixelChannels(pixels[pixel], view, 10u), view.pixelX / double(nx),
                                           view.pixelY / double(ny),
                                           ebpiSplitCap(ebpiTileCap(view.pixelX, view.pixelY, ebpiViewDepth(plan)),
                                                        pixels[pixel].edges, nx, ny));
                decision = EbpiRayTileGpu(bound, nx * ny, nx, ny, 0u);
            }
            tiles[plan.firstTile + t] = decision;
        }
        if (lid == 0u) flags[v] = met ? 0u : kEbpiRayFlagBoundNotMet;
    }
}
