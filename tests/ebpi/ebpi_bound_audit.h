// The bound audit's core, shared by the single-mesh and pair audits: every tile of several sizes
// over a window, the exact midpoint-quadrature error of a solid's depth span against the tile's
// bound in an EBPI.
#pragma once

#include "collision/ebpi/ebpi_image.h"
#include "collision/ebpi/ebpi_midpoint_error.h"
#include "tests/ebpi/ebpi_test_meshes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace vkc::ebpi_test {

struct AuditTotals {
    size_t tiles = 0;
    size_t tilesWithError = 0;  // error above 1e-9 of the solid's volume: the bound had work to do
    size_t violations = 0;      // error above the bound
    double worstRatio = 0;      // max error / bound: near 1 means tight, above 1 a failure
    std::string firstViolation;
};

// Every tile of 1x1, 2x2, 3x1, 1x4, 4x4 pixels and the whole window: |error of `solid`| against
// the tile's bound in `image`. A violation goes beyond rounding of the exact integration only
// (relative 1e-9 of the bound, 1e-12 of the volume). The 1x1 tiles must cover the solid.
inline void auditTiles(const EbpiRayMesh& solid, const EbpiImage& image, const EbpiWindow& window,
                       const std::string& label, AuditTotals& totals) {
    const double volume = meshVolume(solid);
    ASSERT_GT(volume, 0) << label << ": outward oriented";
    double covered = 0;
    for (const glm::uvec2 size : {glm::uvec2(1, 1), glm::uvec2(2, 2), glm::uvec2(3, 1), glm::uvec2(1, 4),
                                  glm::uvec2(4, 4), glm::uvec2(window.width, window.height)}) {
        for (uint32_t y = 0; y + size.y <= window.height; y += size.y)
            for (uint32_t x = 0; x + size.x <= window.width; x += size.x) {
                const EbpiTile tile{x, y, size.x, size.y};
                const EbpiRect rect = ebpiTileRect(window, tile);
                const double error = std::abs(ebpiMidpointError(solid, rect));
                const double bound = ebpiTileBound(image, tile);
                if (size == glm::uvec2(1, 1)) covered += ebpiVolumeOverRect(solid, rect);
                ++totals.tiles;
                if (error > 1e-9 * volume) {
                    ++totals.tilesWithError;
                    totals.worstRatio = std::max(totals.worstRatio, error / bound);
                }
                if (error <= bound * (1 + 1e-9) + 1e-12 * volume) continue;
                if (totals.violations++ == 0)
                    totals.firstViolation = label + ": tile " + std::to_string(x) + "," + std::to_string(y) + " size " +
                                            std::to_string(size.x) + "x" + std::to_string(size.y) + ", error " +
                                            std::to_string(error) + " > bound " + std::to_string(bound);
            }
    }
    EXPECT_NEAR(covered, volume, 1e-9 * volume) << label;
}

}  // namespace vkc::ebpi_test
