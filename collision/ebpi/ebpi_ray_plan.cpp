#include "collision/ebpi/ebpi_ray_plan.h"

#include "shaders_glsl/shared/ebpi_view_fit.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace vkc {
namespace {

using Channels = std::array<uint64_t, 5>;

// Saturating: a sum past 2^64 stays all ones (still an upper bound), as ebpi_pyramid.comp does.
uint64_t addSaturating(uint64_t a, uint64_t b) { return a + b < a ? ~uint64_t(0) : a + b; }

gpu::EbpiRayPolynomial decode(const uint64_t* channels, const double* scales) {
    double c[5];
    for (int k = 0; k < 5; ++k)
        c[k] = gpu::ebpiCountToDouble(uint32_t(channels[k]), uint32_t(channels[k] >> 32)) / scales[k];
    return {c[0], c[1], c[2], c[3], c[4]};
}

struct Level {
    uint32_t width, height, first;  // texels, first tile index
};

// One view as ebpi_ray_options.comp and ebpi_ray_allocate.comp see it.
struct ViewState {
    const EbpiFixedImage* image = nullptr;
    gpu::EbpiRayViewGpu plan{};  // tolerance, reserved, levels
    std::vector<Level> levels;
    std::vector<Channels> pyramid;
    std::vector<gpu::EbpiRayCostGpu> costs;  // per tile
    std::vector<std::array<double, gpu::kEbpiRayOptionCount>> optionQuanta;  // per pixel
    std::vector<std::array<uint32_t, gpu::kEbpiRayOptionCount>> optionSplits;

    uint32_t cols(uint32_t k, uint32_t x) const { return std::min(1u << k, image->window.width - (x << k)); }
    uint32_t rows(uint32_t k, uint32_t y) const { return std::min(1u << k, image->window.height - (y << k)); }
    gpu::EbpiRayPolynomial channels(const uint64_t* c, uint32_t first) const {
        return decode(c, image->scales.data() + first);
    }
    double oneRayBound(uint32_t k, uint32_t x, uint32_t y) const {
        const EbpiWindow& w = image->window;
        return gpu::ebpiOneRayBound(channels(pyramid[levels[k].first + y * levels[k].width + x].data(), 0),
                                    double(cols(k, x)) * w.pixelSize.x, double(rows(k, y)) * w.pixelSize.y, image->depth);
    }
};

ViewState prepareView(const EbpiFixedImage& image, double tolerance, const EbpiRayPlanSettings& settings) {
    ViewState v;
    v.image = &image;
    const uint32_t W = image.window.width, H = image.window.height;
    v.plan.tolerance = tolerance;
    v.plan.reserved = settings.reservedPerView;
    v.plan.levels = ebpiPyramidLevels(W, H);
    uint32_t tiles = 0;
    for (uint32_t k = 0; k < v.plan.levels; ++k) {
        v.levels.push_back({gpu::ebpiLevelSize(W, k), gpu::ebpiLevelSize(H, k), tiles});
        tiles += v.levels.back().width * v.levels.back().height;
    }
    // The pyramid: level 0 the pixels' touching channels, then sums of 2 x 2.
    v.pyramid.resize(tiles);
    for (uint32_t p = 0; p < W * H; ++p)
        std::copy(image.pixels[p].channels, image.pixels[p].channels + 5, v.pyramid[p].begin());
    for (uint32_t k = 1; k < v.levels.size(); ++k)
        for (uint32_t y = 0; y < v.levels[k].height; ++y)
            for (uint32_t x = 0; x < v.levels[k].width; ++x) {
                Channels& sum = v.pyramid[v.levels[k].first + y * v.levels[k].width + x];
                for (uint32_t cy = 2 * y; cy < std::min(2 * y + 2, v.levels[k - 1].height); ++cy)
                    for (uint32_t cx = 2 * x; cx < std::min(2 * x + 2, v.levels[k - 1].width); ++cx) {
                        const Channels& child = v.pyramid[v.levels[k - 1].first + cy * v.levels[k - 1].width + cx];
                        for (int c = 0; c < 5; ++c) sum[c] = addSaturating(sum[c], child[c]);
                    }
            }
    // ebpi-ray-options: every pixel's options; and every coarser tile's one-ray bound.
    v.optionQuanta.resize(W * H);
    v.optionSplits.resize(W * H);
    for (uint32_t p = 0; p < W * H; ++p) {
        const uint64_t* c = image.pixels[p].channels;
        double quanta[gpu::kEbpiRayOptionCount];
        uint32_t split[gpu::kEbpiRayOptionCount];
        gpu::ebpiPixelOptions(v.channels(c, 0), v.channels(c + 5, 5), v.channels(c + 10, 10), image.pixels[p].edges,
                              image.window.pixelSize.x,
                              image.window.pixelSize.y, image.depth, tolerance, settings.maxSplit, quanta, split);
        std::copy(quanta, quanta + gpu::kEbpiRayOptionCount, v.optionQuanta[p].begin());
        std::copy(split, split + gpu::kEbpiRayOptionCount, v.optionSplits[p].begin());
    }
    v.costs.resize(tiles);
    for (uint32_t k = 1; k < v.levels.size(); ++k)
        for (uint32_t y = 0; y < v.levels[k].height; ++y)
            for (uint32_t x = 0; x < v.levels[k].width; ++x)
                v.costs[v.levels[k].first + y * v.levels[k].width + x].oneRayQuanta =
                    gpu::ebpiBoundQuanta(v.oneRayBound(k, x, y), tolerance);
    return v;
}

// The view's best plan at `lambda`, bottom-up (ebpi_ray_allocate.comp's order); its quanta.
double allocateView(ViewState& v, double lambda, const EbpiRayPlanSettings& settings) {
    for (uint32_t p = 0; p < v.optionQuanta.size(); ++p) {
        gpu::EbpiRayCostGpu& c = v.costs[p];
        for (uint32_t b = 0; b < gpu::kEbpiRayOptionCount; ++b) {
            if (b > 0 && v.optionQuanta[p][b] == v.optionQuanta[p][b - 1]) break;  // the distinct options are over
            const uint32_t rays = gpu::ebpiOptionRays(v.optionSplits[p][b], settings.maxSplit);
            const double cost = gpu::ebpiRayCost(rays, v.optionQuanta[p][b], lambda);
            if (b == 0 || cost < c.cost) c = {cost, v.optionQuanta[p][b], c.oneRayQuanta, rays, b};
        }
    }
    for (uint32_t k = 1; k < v.levels.size(); ++k) {
        const Level& below = v.levels[k - 1];
        for (uint32_t y = 0; y < v.levels[k].height; ++y)
            for (uint32_t x = 0; x < v.levels[k].width; ++x) {
                gpu::EbpiRayCostGpu& c = v.costs[v.levels[k].first + y * v.levels[k].width + x];
                double cost = 0.0, quanta = 0.0;
                uint32_t rays = 0;
                for (uint32_t cy = 2 * y; cy < std::min(2 * y + 2, below.height); ++cy)
                    for (uint32_t cx = 2 * x; cx < std::min(2 * x + 2, below.width); ++cx) {
                        const gpu::EbpiRayCostGpu& child = v.costs[below.first + cy * below.width + cx];
                        cost += child.cost;
                        quanta = gpu::ebpiAddQuanta(quanta, child.quanta);
                        rays = gpu::ebpiSaturatingAdd(rays, child.rays);
                    }
                const double oneRay = gpu::ebpiRayCost(1, c.oneRayQuanta, lambda);
                if (settings.coarsen && oneRay <= cost)
                    c = {oneRay, c.oneRayQuanta, c.oneRayQuanta, 1, 1};
                else
                    c = {cost, quanta, c.oneRayQuanta, rays, 0};
            }
    }
    return v.costs.back().quanta;
}

double allocatePair(std::vector<ViewState>& views, uint32_t step, const EbpiRayPlanSettings& settings) {
    double total = 0.0;
    for (ViewState& v : views) total = gpu::ebpiAddQuanta(total, allocateView(v, gpu::ebpiRayLambda(step), settings));
    return total;
}

// The rays of the view's allocation (costs at the chosen lambda): a tile emits when no coarser
// tile containing it took one ray.
EbpiRayPlan emitRays(const ViewState& v, const EbpiRayPlanSettings& settings) {
    const EbpiWindow& window = v.image->window;
    EbpiRayPlan plan;
    plan.imageOverflow = v.image->overflow;
    for (uint32_t k = 0; k < v.levels.size(); ++k)
        for (uint32_t y = 0; y < v.levels[k].height; ++y)
            for (uint32_t x = 0; x < v.levels[k].width; ++x) {
                const uint32_t t = v.levels[k].first + y * v.levels[k].width + x;
                bool covered = false;
                for (uint32_t j = k + 1; j < v.levels.size() && !covered; ++j)
                    covered = v.costs[v.levels[j].first + (y >> (j - k)) * v.levels[j].width + (x >> (j - k))].choice == 1;
                if (covered || (k > 0 && v.costs[t].choice != 1)) continue;
                const uint32_t cols = v.cols(k, x), rows = v.rows(k, y);
                uint32_t nx = 1, ny = 1;
                double bound = v.oneRayBound(k, x, y);
                if (k == 0) {
                    const uint32_t code = v.optionSplits[t][v.costs[t].choice];
                    nx = gpu::ebpiSplitCandidate(code & 15u, settings.maxSplit);
                    ny = gpu::ebpiSplitCandidate(code >> 4u, settings.maxSplit);
                    if (code != 0) {
                        const uint64_t* c = v.image->pixels[t].channels;
                        bound = gpu::ebpiSplitBound(v.channels(c, 0), v.channels(c + 5, 5), v.channels(c + 10, 10),
                                                    window.pixelSize.x / nx, window.pixelSize.y / ny,
                                                    gpu::ebpiSplitCap(gpu::ebpiTileCap(window.pixelSize.x, window.pixelSize.y,
                                                                                       v.image->depth),
                                                                      v.image->pixels[t].edges, nx, ny));
                    }
                }
                plan.boundQuanta = gpu::ebpiAddQuanta(plan.boundQuanta, gpu::ebpiBoundQuanta(bound, v.plan.tolerance));
                const glm::dvec2 lo = window.origin + glm::dvec2(x << k, y << k) * window.pixelSize;
                const glm::dvec2 size = glm::dvec2(cols, rows) * window.pixelSize / glm::dvec2(nx, ny);
                for (uint32_t j = 0; j < ny; ++j)
                    for (uint32_t i = 0; i < nx; ++i) {
                        EbpiPlannedRay ray;
                        ray.rect.min = lo + glm::dvec2(i, j) * size;
                        ray.rect.max = ray.rect.min + size;
                        ray.centre = {
                            gpu::ebpiSubTileCentre(window.origin.x, window.pixelSize.x, x << k, cols, i, nx),
                            gpu::ebpiSubTileCentre(window.origin.y, window.pixelSize.y, y << k, rows, j, ny)};
                        ray.area = gpu::ebpiSubTileArea(window.pixelSize.x, window.pixelSize.y, cols, rows, nx, ny);
                        ray.tile = t;
                        plan.rays.push_back(ray);
                    }
            }
    plan.achievedBound = ebpiAchievedBound(plan.boundQuanta, v.plan.tolerance);
    return plan;
}

}  // namespace

uint32_t ebpiPyramidLevels(uint32_t width, uint32_t height) { return gpu::ebpiPyramidLevelCount(width, height); }

uint32_t ebpiPyramidTiles(uint32_t width, uint32_t height) {
    uint32_t tiles = 0;
    for (uint32_t k = 0; k < ebpiPyramidLevels(width, height); ++k)
        tiles += gpu::ebpiLevelSize(width, k) * gpu::ebpiLevelSize(height, k);
    return tiles;
}

double ebpiAchievedBound(double quanta, double tolerance) {
    if (!(quanta < gpu::kEbpiRayQuantaSaturated)) return std::numeric_limits<double>::infinity();
    return std::nextafter(quanta * (tolerance * gpu::kEbpiRayQuantumFraction), std::numeric_limits<double>::infinity());
}

std::vector<EbpiRayPlan> planEbpiPairRays(std::span<const EbpiFixedImage* const> images, double tolerance,
                                          const EbpiRayPlanSettings& settings) {
    std::vector<ViewState> views;
    double budget = 0.0;
    for (const EbpiFixedImage* image : images) {
        views.push_back(prepareView(*image, tolerance, settings));
        budget += gpu::ebpiViewBudgetQuanta(views.back().plan);
    }
    // The smallest step whose total fits the budget, by bisection; the largest when none does.
    uint32_t high = gpu::kEbpiRayLambdaSteps - 1;
    const bool met = allocatePair(views, high, settings) <= budget;
    if (met) {
        int low = -1;
        while (int(high) - low > 1) {
            const int middle = (low + int(high)) / 2;
            if (allocatePair(views, uint32_t(middle), settings) <= budget)
                high = uint32_t(middle);
            else
                low = middle;
        }
    }
    allocatePair(views, high, settings);
    std::vector<EbpiRayPlan> plans;
    for (const ViewState& v : views) {
        plans.push_back(emitRays(v, settings));
        plans.back().boundNotMet = !met;
    }
    return plans;
}

EbpiRayPlan planEbpiRays(const EbpiFixedImage& image, double tolerance, uint32_t maxSplit, bool coarsen) {
    const EbpiFixedImage* views[] = {&image};
    EbpiRayPlanSettings settings;
    settings.maxSplit = maxSplit;
    settings.coarsen = coarsen;
    return planEbpiPairRays(views, tolerance, settings)[0];
}

}  // namespace vkc
