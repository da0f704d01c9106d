// Method ebpi (paper 5): one EBPI pixel split into nx x ny sub-tiles (Eq. 8 and 10, conservative):
// the sub-tile count of a segment, the pixel's bound against the exact errors of its sub-tiles,
// and the choice of the fewest rays that meet a tolerance.
#include "collision/ebpi/ebpi_edge_terms.h"
#include "collision/ebpi/ebpi_midpoint_error.h"
#include "collision/ebpi/ebpi_segment_pixels.h"
#include "collision/ebpi/ebpi_subdivision.h"
#include "collision/scene/generated_solids.h"
#include "tests/ebpi/ebpi_test_meshes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace vkc {
namespace {

// The window of pixel `rect` split into nx x ny sub-tiles.
EbpiWindow subTiles(const EbpiRect& rect, uint32_t nx, uint32_t ny) {
    return {rect.min, rect.size() / glm::dvec2(nx, ny), nx, ny};
}

TEST(EbpiSubdivision, SegmentTouchesAtMostTwiceItsFractionalCountPlusFour) {
    const EbpiRect pixel{{0, 0}, {1, 1}};
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> coordinate(-0.3, 1.3);
    std::uniform_int_distribution<int> split(1, 12), gridLine(0, 12);
    double worstOverEq8 = 0;
    for (int trial = 0; trial < 4000; ++trial) {
        const uint32_t nx = split(rng), ny = split(rng);
        glm::dvec2 a(coordinate(rng), coordinate(rng)), b(coordinate(rng), coordinate(rng));
        // A third on grid lines or through grid vertices: the cases that touch the most.
        if (trial % 3 == 1) a.x = b.x = double(gridLine(rng) % (nx + 1)) / nx;
        if (trial % 3 == 2) {
            a = glm::dvec2(gridLine(rng) % (nx + 1), gridLine(rng) % (ny + 1)) / glm::dvec2(nx, ny);
            b = a + glm::dvec2(1.0 / nx, 1.0 / ny) * double(split(rng) % 4 + 1);
        }
        const glm::dvec2 l = ebpiClippedExtent(a, b, pixel);
        const double touched = double(ebpiPixelsTouched(a, b, subTiles(pixel, nx, ny)).size());
        const double fractional = l.x * nx + l.y * ny;
        EXPECT_LE(touched, 2 * fractional + 4)
            << a.x << "," << a.y << " " << b.x << "," << b.y << " " << nx << "x" << ny;
        if (touched > 0) worstOverEq8 = std::max(worstOverEq8, touched - fractional);
    }
    EXPECT_GT(worstOverEq8, 1.0) << "Eq. 8's count l_x / w + l_y / h falls short somewhere";
}

// Sum over the nx x ny sub-tiles of pixel (x, y) of the exact |midpoint error|.
double exactSubdividedError(const EbpiRayMesh& mesh, const EbpiImage& image, uint32_t x, uint32_t y, uint32_t nx,
                            uint32_t ny) {
    const EbpiWindow split = subTiles(ebpiTileRect(image.window, {x, y, 1, 1}), nx, ny);
    double sum = 0;
    for (uint32_t j = 0; j < ny; ++j)
        for (uint32_t i = 0; i < nx; ++i) sum += std::abs(ebpiMidpointError(mesh, ebpiTileRect(split, {i, j, 1, 1})));
    return sum;
}

std::vector<EbpiRayMesh> auditMeshes() {
    std::mt19937 rng(41);
    std::normal_distribution<double> n;
    std::vector<EbpiRayMesh> meshes;
    for (int trial = 0; trial < 3; ++trial) {
        const MeshData sphere = ebpi_test::perturbedRadially(solids::sphere(1.0f, 2), 0.3, rng);
        meshes.push_back(toEbpiRayFrame(sphere, {n(rng), n(rng), n(rng)}));
        const MeshData torus = ebpi_test::perturbedRadially(solids::torus(1.0f, 0.4f, 10), 0.08, rng);
        meshes.push_back(toEbpiRayFrame(torus, {n(rng), n(rng), n(rng)}));
        meshes.push_back(ebpi_test::wallPrism(7 + 20 * trial, rng));
        // Pillars thinner than a sub-tile, which one sub-tile's ray may hit whole.
        EbpiRayMesh pillars;
        std::uniform_real_distribution<double> place(-1, 1), thin(0.005, 0.03), tall(0.2, 2);
        for (int k = 0; k < 40; ++k) {
            const glm::dvec3 at(place(rng), place(rng), place(rng));
            ebpi_test::append(pillars, ebpi_test::alignedBox(at, at + glm::dvec3(thin(rng), thin(rng), tall(rng))));
        }
        meshes.push_back(pillars);
    }
    return meshes;
}

TEST(EbpiSubdivision, PixelBoundCoversItsSubTilesExactErrors) {
    size_t checked = 0, withError = 0;
    for (const EbpiRayMesh& mesh : auditMeshes()) {
        const EbpiImage image = buildEbpiImage(ebpiEdgeTerms(mesh), ebpi_test::windowAround(mesh, 4));
        const double volume = ebpi_test::meshVolume(mesh);
        for (uint32_t y = 0; y < 4; ++y)
            for (uint32_t x = 0; x < 4; ++x)
                for (const glm::uvec2 n :
                     {glm::uvec2(1, 1), glm::uvec2(2, 3), glm::uvec2(4, 4), glm::uvec2(7, 2), glm::uvec2(1, 9)}) {
                    const double error = exactSubdividedError(mesh, image, x, y, n.x, n.y);
                    const double bound = ebpiSubdividedPixelBound(image, x, y, n.x, n.y);
                    EXPECT_LE(error, bound * (1 + 1e-9) + 1e-12 * volume)
                        << x << "," << y << " split " << n.x << "x" << n.y;
                    ++checked;
                    withError += error > 1e-9 * volume;
                }
    }
    EXPECT_GT(withError, checked / 4);
}

TEST(EbpiSubdivision, ChosenSplitMeetsTheToleranceWithTheFewestRays) {
    const std::vector<EbpiRayMesh> meshes = auditMeshes();
    size_t met = 0, split = 0;
    for (const EbpiRayMesh& mesh : meshes) {
        const EbpiImage image = buildEbpiImage(ebpiEdgeTerms(mesh), ebpi_test::windowAround(mesh, 4));
        const double tolerance = 1e-2 * ebpi_test::meshVolume(mesh);
        for (uint32_t y = 0; y < 4; ++y)
            for (uint32_t x = 0; x < 4; ++x) {
                const EbpiSubdivision chosen = ebpiChooseSubdivision(image, x, y, tolerance, 24);
                if (!chosen.within) continue;
                ++met;
                split += chosen.nx * chosen.ny > 1;
                EXPECT_LE(exactSubdividedError(mesh, image, x, y, chosen.nx, chosen.ny), tolerance);
                EXPECT_LE(chosen.bound, tolerance);
                // No split with fewer rays meets it.
                for (uint32_t nx = 1; nx <= 24; ++nx)
                    for (uint32_t ny = 1; nx * ny < chosen.nx * chosen.ny && ny <= 24; ++ny)
                        EXPECT_GT(ebpiSubdividedPixelBound(image, x, y, nx, ny), tolerance);
                // A looser tolerance never needs more rays.
                const EbpiSubdivision looser = ebpiChooseSubdivision(image, x, y, 4 * tolerance, 24);
                EXPECT_LE(looser.nx * looser.ny, chosen.nx * chosen.ny);
            }
    }
    EXPECT_GT(met, meshes.size() * 8);
    EXPECT_GT(split, met / 4) << "the tolerance must make pixels split";
}

}  // namespace
}  // namespace vkc
