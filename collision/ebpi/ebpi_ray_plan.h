// Method `ebpi` (paper 5, Sec. 4.3): the CPU reference of the adaptive ray list of one view, the
// oracle of the GPU passes (passes/ebpi/ebpi_ray_passes.h), which repeat it bit for bit.
//
// From the view's fixed-point EBPI: the pyramid (each texel the saturating 64-bit sum of its 2 x 2
// children's "touching" channels, so >= the sum of its pixels' polynomials: a sound tile bound by
// ebpi_image.h), then top-down coarsening: a tile gets one ray at its centre when its bound fits its
// share of the tolerance and no coarser tile containing it does; a pixel no tile covers is split into
// the fewest nx x ny sub-tiles meeting its share (ebpiFewestRays, the search of
// ebpiChooseSubdivision), or maxSplit x maxSplit and the view is flagged. Shares and the rounding
// argument: shaders_glsl/shared/ebpi_rays.h. Rays are ordered by tile (levels from the pixels up,
// row-major), then sub-tile (row-major).
//
// Claim (tested against ebpiVolumeOverRect): |sum of area x depth span at the rays - the volume
// over the window| <= achievedBound, and achievedBound <= tolerance unless flagged.
#pragma once

#include "collision/ebpi/ebpi_fixed_point.h"
#include "collision/ebpi/ebpi_window.h"

#include <cstdint>
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
    bool boundNotMet = false;   // some pixel's maxSplit x maxSplit split misses its share
    bool imageOverflow = false; // the EBPI overflowed: no bound holds
};

// The achieved bound of `quanta` quanta of tolerance x 2^-36, rounded up (infinite from 2^52 quanta).
double ebpiAchievedBound(double quanta, double tolerance);

// `coarsen` false: every pixel decides on its own (the finest-level-only plan of the paper's Fig. 9).
EbpiRayPlan planEbpiRays(const EbpiFixedImage& image, double tolerance, uint32_t maxSplit, bool coarsen = true);

}  // namespace vkc
