// Method `ebpi` (paper 5, Sec. 4.3): the CPU reference of the adaptive ray lists of one pair's
// views, the oracle of the GPU passes (passes/ebpi/ebpi_ray_passes.h), which repeat it bit for bit.
//
// From each view's fixed-point EBPI: the pyramid (each texel the saturating 64-bit sum of its 2 x 2
// children's "touching" channels, so >= the sum of its pixels' polynomials: a sound tile bound by
// ebpi_image.h); each pixel's options (the smallest bound within each ray budget, over its
// candidate splits nx x ny, ebpi_subdivision.h); then the allocation of shaders_glsl/shared/
// ebpi_rays.h: for a price lambda every tile takes what minimises rays + lambda x bound, a coarser
// tile one ray at its centre when that beats its children's best (the paper's coarsening), and the
// pair takes the smallest lambda of the grid whose total bound fits the views' budgets. Rays are
// ordered by tile (levels from the pixels up, row-major), then sub-tile (row-major).
//
// Claim (tested against ebpiVolumeOverRect): per view |sum of area x depth span at the rays - the
// volume over the window| <= achievedBound, and the views' achieved bounds plus their reserves sum
// to less than views x tolerance unless the pair is flagged.
#pragma once

#include "collision/ebpi/ebpi_fixed_point.h"
#include "collision/ebpi/ebpi_window.h"

#include <cstdint>
#include <span>
#include <vector>

namespace vkc {

// Levels of the pyramid of a W x H image, the pixels included: the top level is one tile.
uint32_t ebpiPyramidLevels(uint32_t width, uint32_t height);
// Tiles of all levels.
uint32_t ebpiPyramidTiles(uint32_t width, uint32_t height);

struct EbpiPlannedRay {
    EbpiRect rect;      // the sub-tile it samples; the ray passes through its centre
    glm::dvec2 centre;  // as the GPU computes it (ebpiSubTileCentre)
    double area;        // as the GPU computes it
    uint32_t tile;      // tile index in the view (levels from the pixels up)
};

struct EbpiRayPlan {
    std::vector<EbpiPlannedRay> rays;
    double achievedBound = 0;   // sum of the emitted tiles' bounds, rounded up; infinite when too large
    double boundQuanta = 0;     // the same in quanta of tolerance x 2^-36 (as the GPU reports it)
    bool boundNotMet = false;   // the pair's smallest bound (maxSplit splits everywhere) misses its budget
    bool imageOverflow = false; // the EBPI overflowed: no bound holds
};

struct EbpiRayPlanSettings {
    uint32_t maxSplit = 64;       // largest split of a pixel per axis, 1..64
    bool coarsen = true;          // false: no tile coarser than a pixel (the paper's Fig. 9 comparison)
    double reservedPerView = 0;   // of each view's tolerance, left to the caller's rounding (EbpiRayViewGpu)
};

// The achieved bound of `quanta` quanta of tolerance x 2^-36, rounded up (infinite from 2^52 quanta).
double ebpiAchievedBound(double quanta, double tolerance);

// One plan per view of a pair; `views` share `tolerance` and one budget (their bounds' mean is the
// pair's). Every image must be non-empty.
std::vector<EbpiRayPlan> planEbpiPairRays(std::span<const EbpiFixedImage* const> views, double tolerance,
                                          const EbpiRayPlanSettings& settings);

// A pair of one view.
EbpiRayPlan planEbpiRays(const EbpiFixedImage& image, double tolerance, uint32_t maxSplit, bool coarsen = true);

}  // namespace vkc
