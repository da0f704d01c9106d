// Method ebpi (paper 5): one EBPI pixel split into nx x ny sub-tiles (Eq. 8 and 10, conservative):
// the sub-tile count of a segment, the pixel's bound against the exact errors of its sub-tiles,
// and each pixel's options for the ray allocation (the smallest bound within each ray budget).
#include "collision/ebpi/ebpi_edge_terms.h"
#include "collision/ebpi/ebpi_midpoint_error.h"
#include "collision/ebpi/ebpi_segment_pixels.h"
#include "collision/ebpi/ebpi_subdivision.h"
#include "collision/scene/generated_solids.h"
#include "shaders_glsl/shared/ebpi_rays.h"
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

// Whether the segment [a, b] meets the open rectangle (lo, hi): its parameter interval inside
// every open slab is non-empty.
bool meetsInterior(const glm::dvec2& a, const glm::dvec2& b, const glm::dvec2& lo, const glm::dvec2& hi) {
    double enter = 0.0, leave = 1.0;
    for (int k = 0; k < 2; ++k) {
        const double d = b[k] - a[k];
        if (d == 0.0) {
            if (!(a[k] > lo[k] && a[k] < hi[k])) return false;
            continue;
        }
        const double t0 = (lo[k] - a[k]) / d, t1 = (hi[k] - a[k]) / d;
        enter = std::max(enter, std::min(t0, t1));
        leave = std::min(leave, std::max(t0, t1));
    }
    return enter < leave;
}

TEST(EbpiSubdivision, SegmentMeetsTheInteriorOfAtMostItsFractionalCountPlusThreeSubTiles) {
    const EbpiRect pixel{{0, 0}, {1, 1}};
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> coordinate(-0.3, 1.3);
    std::uniform_int_distribution<int> split(1, 12), gridLine(0, 12);
    double worstOverEq8 = 0;
    size_t onGridLine = 0;
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
        size_t met = 0;
        for (uint32_t j = 0; j < ny; ++j)
            for (uint32_t i = 0; i < nx; ++i)
                met += meetsInterior(a, b, glm::dvec2(double(i) / nx, double(j) / ny),
                                     glm::dvec2(double(i + 1) / nx, double(j + 1) / ny));
        const double fractional = l.x * nx + l.y * ny;
        EXPECT_LE(double(met), fractional + 3) << a.x << "," << a.y << " " << b.x << "," << b.y << " " << nx << "x" << ny;
        // The closed segment touches more (both sides of a grid line it runs along): the pixel
        // level counts those, conservatively; the split bound needs only the interiors.
        EXPECT_LE(met, ebpiPixelsTouched(a, b, subTiles(pixel, nx, ny)).size());
        onGridLine += trial % 3 == 1 && met == 0 && l.y > 0;
        if (met > 0) worstOverEq8 = std::max(worstOverEq8, double(met) - fractional);
    }
    EXPECT_GT(worstOverEq8, 1.0) << "Eq. 8's count l_x / w + l_y / h falls short somewhere";
    EXPECT_GT(onGridLine, 0u) << "a segment on a grid line meets no sub-tile's interior";
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

gpu::EbpiRayPolynomial rayPolynomial(const EbpiBoundPolynomial& p) { return {p.w2h, p.wh2, p.h3, p.w3, p.wh}; }

// ebpiPixelOptions (shaders_glsl/shared/ebpi_rays.h), the allocation's menu per pixel: for each ray
// budget the smallest bound among one ray and the candidate splits within it (brute force here),
// never growing with the budget, and each option's bound covers its sub-tiles' exact errors.
TEST(EbpiSubdivision, PixelOptionsAreTheSmallestBoundWithinEachRayBudget) {
    size_t checked = 0, splits = 0;
    for (const EbpiRayMesh& mesh : auditMeshes()) {
        const EbpiImage image = buildEbpiImage(ebpiEdgeTerms(mesh), ebpi_test::windowAround(mesh, 4));
        const double volume = ebpi_test::meshVolume(mesh);
        const double tolerance = 1e-3 * volume;
        const glm::dvec2 pixel = image.window.pixelSize;
        for (const uint32_t maxSplit : {24u, 10u}) {  // 24: on the ladder; 10: between its steps
            std::vector<uint32_t> candidates;
            for (uint32_t i = 0; i < gpu::kEbpiRaySplitCandidates && gpu::ebpiSplitCandidate(i, maxSplit) != 0; ++i)
                candidates.push_back(gpu::ebpiSplitCandidate(i, maxSplit));
            EXPECT_EQ(candidates.back(), maxSplit);
            for (uint32_t y = 0; y < 4; ++y)
                for (uint32_t x = 0; x < 4; ++x) {
                    const EbpiPixel& p = image.at(x, y);
                    double quanta[gpu::kEbpiRayOptionCount];
                    uint32_t split[gpu::kEbpiRayOptionCount];
                    // No cap (an infinite depth): the edge count does not matter, every edge is "many".
                    gpu::ebpiPixelOptions(rayPolynomial(p.touching), rayPolynomial(p.alongX), rayPolynomial(p.alongY),
                                          ~0u, pixel.x, pixel.y, INFINITY, tolerance, maxSplit, quanta, split);
                    const double oneRay = gpu::ebpiBoundQuanta(
                        gpu::ebpiOneRayBound(rayPolynomial(p.touching), pixel.x, pixel.y, INFINITY), tolerance);
                    // The distinct options (quanta falling) are the frontier over the ray budgets:
                    // every budget's smallest bound is among them, at no more rays than the budget.
                    uint32_t distinct = 1;
                    while (distinct < gpu::kEbpiRayOptionCount && quanta[distinct] < quanta[distinct - 1]) ++distinct;
                    for (uint32_t b = distinct; b < gpu::kEbpiRayOptionCount; ++b) {
                        EXPECT_EQ(quanta[b], quanta[distinct - 1]);
                        EXPECT_EQ(split[b], split[distinct - 1]);
                    }
                    for (uint32_t b = 0; b < gpu::kEbpiRayOptionCount; ++b) {
                        const uint32_t budget = gpu::ebpiRayLadder(b);
                        double best = oneRay;
                        for (uint32_t i = 0; i < candidates.size(); ++i)
                            for (uint32_t j = 0; j < candidates.size(); ++j)
                                if ((i | j) != 0 && candidates[i] * candidates[j] <= budget)
                                    best = std::min(best, gpu::ebpiBoundQuanta(
                                                              ebpiSubdividedPixelBound(image, x, y, candidates[i],
                                                                                       candidates[j]) *
                                                                  gpu::kEbpiRayBoundRoundUp,
                                                              tolerance));
                        double offered = INFINITY;
                        for (uint32_t k = 0; k < distinct; ++k)
                            if (gpu::ebpiOptionRays(split[k], maxSplit) <= budget) offered = std::min(offered, quanta[k]);
                        EXPECT_EQ(offered, best) << x << "," << y << " budget " << budget;
                    }
                    for (uint32_t b = 0; b < distinct; ++b) {
                        const uint32_t nx = gpu::ebpiSplitCandidate(split[b] & 15u, maxSplit);
                        const uint32_t ny = gpu::ebpiSplitCandidate(split[b] >> 4u, maxSplit);
                        EXPECT_EQ(gpu::ebpiOptionRays(split[b], maxSplit), nx * ny);
                        if (b > 0) EXPECT_GT(nx * ny, gpu::ebpiOptionRays(split[b - 1], maxSplit)) << "more rays, less bound";
                        ++checked;
                        splits += split[b] != 0;
                        const double error = split[b] == 0
                                                 ? std::abs(ebpiMidpointError(mesh, ebpiTileRect(image.window, {x, y, 1, 1})))
                                                 : exactSubdividedError(mesh, image, x, y, nx, ny);
                        EXPECT_LE(error, quanta[b] * tolerance * gpu::kEbpiRayQuantumFraction + 1e-12 * volume);
                    }
                }
        }
    }
    EXPECT_GT(splits, checked / 2) << "the budgets must buy splits";
}

}  // namespace
}  // namespace vkc
