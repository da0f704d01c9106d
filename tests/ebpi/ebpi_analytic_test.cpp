// Method ebpi (paper 5): each piece of the CPU bound reference on cases with closed-form answers.
#include "collision/ebpi/ebpi_edge_terms.h"
#include "collision/ebpi/ebpi_image.h"
#include "collision/ebpi/ebpi_midpoint_error.h"
#include "collision/ebpi/ebpi_segment_pixels.h"
#include "tests/ebpi/ebpi_test_meshes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace vkc {
namespace {

using ebpi_test::alignedBox;
using ebpi_test::symmetricRidge;

// The paper's Alg. 1 in its general case (both faces not steep): the factor k^i|a^i| + k^j|a^j|
// of Eq. 3 and Eq. 7, with a = n_x / n_z. Kept here only to show where it fails.
double paperAlg1CreaseFactor(double alphaI, double alphaJ) {
    if (alphaI * alphaJ >= 0) return std::abs(alphaI) + std::abs(alphaJ);
    if (std::abs(alphaI) > std::abs(alphaJ)) return std::abs(alphaI) - std::abs(alphaJ);
    return std::abs(alphaJ) - std::abs(alphaI);
}

TEST(EbpiMidpointError, SingleTriangleIntegratesItsLinearDepthOverTheClippedPart) {
    // Facing +z (an exit face): depth z = 1 + x over the triangle (0,0), (1,0), (0,1).
    const EbpiRayMesh triangle{{{0, 0, 1}, {1, 0, 2}, {0, 1, 1}}, {0, 1, 2}};
    // Whole triangle: area 1/2 x depth at the centroid (1 + 1/3).
    EXPECT_NEAR(ebpiVolumeOverRect(triangle, {{-1, -1}, {2, 2}}), 0.5 * (4.0 / 3.0), 1e-14);
    // [0, 1/2]^2 lies inside it: area 1/4 x depth at (1/4, 1/4).
    EXPECT_NEAR(ebpiVolumeOverRect(triangle, {{0, 0}, {0.5, 0.5}}), 0.25 * 1.25, 1e-14);
    // [1/2, 1] x [0, 1/2] keeps the triangle (1/2,0), (1,0), (1/2,1/2): area 1/8, centroid x = 2/3.
    EXPECT_NEAR(ebpiVolumeOverRect(triangle, {{0.5, 0}, {1, 0.5}}), 0.125 * (1 + 2.0 / 3.0), 1e-14);
    // Reversed winding faces -z (an entry face) and counts negatively.
    const EbpiRayMesh reversed{triangle.positions, {0, 2, 1}};
    EXPECT_NEAR(ebpiVolumeOverRect(reversed, {{0, 0}, {0.5, 0.5}}), -0.25 * 1.25, 1e-14);
    EXPECT_NEAR(ebpiDepthSpan(triangle, {0.25, 0.25}), 1.25, 1e-14);
}

TEST(EbpiMidpointError, BoxAlignedWithRaysAndTilesHasZeroErrorAndItsVolume) {
    const EbpiRayMesh box = alignedBox({0.1, 0.2, -0.5}, {0.9, 0.8, 1.5});
    const EbpiWindow window{{0.1, 0.2}, {0.1, 0.15}, 8, 4};
    double volume = 0;
    for (uint32_t y = 0; y < window.height; ++y)
        for (uint32_t x = 0; x < window.width; ++x) {
            const EbpiRect rect = ebpiTileRect(window, {x, y, 1, 1});
            EXPECT_NEAR(ebpiMidpointError(box, rect), 0, 1e-14) << x << "," << y;
            volume += ebpiVolumeOverRect(box, rect);
        }
    EXPECT_NEAR(volume, 0.8 * 0.6 * 2.0, 1e-13);
    EXPECT_NEAR(volume, ebpi_test::meshVolume(box), 1e-13);
}

TEST(EbpiEdgeTerms, SymmetricRidgeErrorIsReachedByTheCreaseBoundAndMissedByAlg1) {
    // Depth span 2 (1 - |x|) across the roof of height 2: slopes +2 and -2, gradient jump 4.
    const EbpiRayMesh roof = symmetricRidge(2.0, 3.0);
    // The ridge passes s off the tile centre (at the centre both roof faces would count).
    const double w = 0.3, h = 0.2, s = 0.01;
    const EbpiRect tile{{s - w / 2, 0.1}, {s + w / 2, 0.1 + h}};
    // Exact: the integral of 2 (1 - |x|) over the tile, h (2 w - w^2 / 2 - 2 s^2), minus w h 2 (1 - s).
    const double exact = -h * (w * w / 2 - 2 * w * s + 2 * s * s);
    EXPECT_NEAR(ebpiMidpointError(roof, tile), exact, 1e-14);
    // The crease bound (exact when the ridge passes through the centre) covers it.
    EXPECT_GE(ebpiCreaseBound({4, 0}).evaluate(w, h), std::abs(exact));
    EXPECT_NEAR(ebpiCreaseBound({4, 0}).evaluate(w, h), h * w * w / 2, 1e-14);
    // Alg. 1: outward normals (-2, 0, 1) and (2, 0, 1) on the roof, alpha = -2 and 2, factor 0.
    EXPECT_EQ(paperAlg1CreaseFactor(-2, 2), 0);
    EXPECT_GT(std::abs(exact), paperAlg1CreaseFactor(-2, 2) * h / 6 * 3 * (w / 2) * (w / 2));
    // Through the whole pipeline: the tile of a one-pixel window on the ridge.
    const EbpiWindow window{tile.min, tile.size(), 1, 1};
    const EbpiImage image = buildEbpiImage(ebpiEdgeTerms(roof), window);
    EXPECT_GE(ebpiTileBound(image, {0, 0, 1, 1}), std::abs(exact));
}

TEST(EbpiEdgeTerms, CreaseBoundCoversAnyLineThroughTheCentreInBothCases) {
    // Midpoint error of a hinge max(0, k . p) over a tile centred at 0, by a fine midpoint sum,
    // against the closed-form bound, for edges near x, near y and along the diagonal.
    const double w = 0.7, h = 0.4;
    for (const glm::dvec2 k : {glm::dvec2(3, 0.5), glm::dvec2(0.2, -2), glm::dvec2(1, 1), glm::dvec2(0, 1)}) {
        const int n = 400;
        double integral = 0;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                const glm::dvec2 p((i + 0.5) / n * w - w / 2, (j + 0.5) / n * h - h / 2);
                integral += std::max(0.0, glm::dot(k, p)) * (w / n) * (h / n);
            }
        const double bound = ebpiCreaseBound(k).evaluate(w, h);
        EXPECT_GE(bound, integral * (1 - 1e-3)) << k.x << "," << k.y;
        EXPECT_LE(bound, integral * (1 + 1e-3)) << "the bound is exact for a line through the centre";
    }
}

TEST(EbpiSegmentPixels, DiagonalTouchesEveryPixelItMeetsCornersIncluded) {
    const EbpiWindow window{{0, 0}, {0.1, 0.1}, 10, 10};
    // Through every pixel corner: 10 pixels crossed and 2 x 9 touched at a corner only, more than
    // the l_x / w + l_y / h = 20 tiles of Eq. 8.
    const auto diagonal = ebpiPixelsTouched({0, 0}, {1, 1}, window);
    EXPECT_EQ(diagonal.size(), 28u);
    for (uint32_t k = 0; k < 10; ++k)
        EXPECT_NE(std::find(diagonal.begin(), diagonal.end(), glm::uvec2(k, k)), diagonal.end()) << k;
    // Slightly off the corners: 19 pixels crossed.
    EXPECT_EQ(ebpiPixelsTouched({0, 0.001}, {0.999, 1}, window).size(), 19u);
    // A short edge across a corner meets 3 pixels, where Eq. 8 counts 0.2.
    const auto shortEdge = ebpiPixelsTouched({0.095, 0.0951}, {0.105, 0.1051}, window);
    EXPECT_EQ(shortEdge.size(), 3u);
    EXPECT_GT(double(shortEdge.size()), 0.01 / 0.1 + 0.01 / 0.1);
}

// ebpiPixelsTouched tests only the columns the segment crosses near each row; every pixel of the
// bounding box, tested with the same exact predicate, must give the same list in the same order.
// Seeded segments: long and short, axis-parallel, points, partly or wholly outside the window,
// through pixel corners, and far away.
TEST(EbpiSegmentPixels, RowWalkEqualsTheBoundingBoxSearch) {
    auto everyBoxPixel = [](const glm::dvec2& a, const glm::dvec2& b, const EbpiWindow& window) {
        std::vector<glm::uvec2> pixels;
        for (uint32_t y = 0; y < window.height; ++y)
            for (uint32_t x = 0; x < window.width; ++x)
                if (ebpiSegmentTouchesRect(a, b, ebpiTileRect(window, {x, y, 1, 1}))) pixels.emplace_back(x, y);
        return pixels;
    };
    const EbpiWindow window{{-0.3, 0.2}, {0.05, 0.03}, 40, 30};
    std::mt19937 rng(20261127);
    std::uniform_real_distribution<double> coordinate(-0.8, 2.0), unit(0.0, 1.0);
    std::uniform_int_distribution<int> pixelIndex(-2, 42);
    size_t touched = 0;
    for (int trial = 0; trial < 4000; ++trial) {
        glm::dvec2 a(coordinate(rng), coordinate(rng)), b(coordinate(rng), coordinate(rng));
        switch (trial % 6) {
            case 1: b.y = a.y; break;                         // along a row
            case 2: b.x = a.x; break;                         // along a column
            case 3: b = a + 0.01 * (b - a); break;            // short
            case 4:                                           // from pixel corner to pixel corner
                a = window.origin + window.pixelSize * glm::dvec2(pixelIndex(rng), pixelIndex(rng));
                b = window.origin + window.pixelSize * glm::dvec2(pixelIndex(rng), pixelIndex(rng));
                break;
            case 5: if (unit(rng) < 0.2) b = a; else if (unit(rng) < 0.2) a += 1e12; break;  // a point; far away
            default: break;
        }
        const std::vector<glm::uvec2> expected = everyBoxPixel(a, b, window);
        ASSERT_EQ(ebpiPixelsTouched(a, b, window), expected) << "segment (" << a.x << ", " << a.y << ") - (" << b.x
                                                             << ", " << b.y << ")";
        touched += expected.size();
    }
    EXPECT_GT(touched, 20000u) << "the segments should cross the window";
}

TEST(EbpiImage, TileSumsItsPixelsAndEvaluatesAtItsSize) {
    const EbpiWindow window{{0, 0}, {0.5, 0.25}, 4, 4};
    EbpiEdgeTerm term{{0.1, 0.1}, {0.1, 0.9}, ebpiCreaseBound({2, 0})};  // touches column 0, rows 0-3
    const EbpiImage image = buildEbpiImage({term}, window);
    EXPECT_EQ(image.at(0, 2).touching.w2h, 0.25);
    EXPECT_EQ(image.at(1, 2).touching.w2h, 0);
    // A 2 x 2 tile holds two touched pixels: 2 x (2/8) x w^2 h with w = 1, h = 0.5.
    EXPECT_DOUBLE_EQ(ebpiTileBound(image, {0, 0, 2, 2}), 2 * 0.25 * 1 * 0.5);
    EXPECT_EQ(ebpiTileBound(image, {2, 0, 2, 2}), 0);
}

TEST(EbpiEdgeTerms, SteepWallEdgesCarryTheWallDepth) {
    // An aligned box: the rim edges border a steep side, whose wall is 2 deep; the top and bottom
    // faces are flat, so only the depth term remains: d / 4 per rim edge.
    const EbpiRayMesh box = alignedBox({0, 0, -0.5}, {1, 1, 1.5});
    const auto terms = ebpiEdgeTerms(box);
    EXPECT_EQ(terms.size(), 8u);  // 4 rim edges on top and 4 at the bottom; diagonals are flat creases
    for (const EbpiEdgeTerm& term : terms) {
        EXPECT_DOUBLE_EQ(term.bound.wh, 0.5);
        EXPECT_EQ(term.bound.w2h, 0);
    }
    // A tile across a side, its centre outside: error = the box part missed, within the bound of
    // the two rim edges it touches (top and bottom), 2 x (d / 4) w h.
    const EbpiRect tile{{0.92, 0.3}, {1.12, 0.5}};
    EXPECT_NEAR(ebpiMidpointError(box, tile), 0.08 * 0.2 * 2, 1e-14);
    const EbpiImage image = buildEbpiImage(terms, {tile.min, tile.size(), 1, 1});
    EXPECT_NEAR(ebpiTileBound(image, {0, 0, 1, 1}), 2 * 0.5 * 0.2 * 0.2, 1e-14);
}

TEST(EbpiEdgeTerms, ThinPillarUnderTheRayIsBoundedWhereEq8sCountIsNot) {
    // A pillar 0.02 x 0.02 x 2 under the centre of a 1 x 1 tile (off its diagonals): the ray sees depth 2 over the
    // whole tile, the pillar fills 0.0004 of it.
    const EbpiRayMesh pillar = alignedBox({0.485, 0.49, 0}, {0.505, 0.51, 2});
    const EbpiRect tile{{0, 0}, {1, 1}};
    const double exact = 0.02 * 0.02 * 2 - 1 * 1 * 2;
    EXPECT_NEAR(ebpiMidpointError(pillar, tile), exact, 1e-12);
    const EbpiImage image = buildEbpiImage(ebpiEdgeTerms(pillar), {tile.min, tile.size(), 1, 1});
    EXPECT_GE(ebpiTileBound(image, {0, 0, 1, 1}), std::abs(exact));
    // Eq. 9's steep terms h sum d l_x / 2 + w sum d l_y / 2, over the faces of the 8 rim edges
    // (4 along x, 4 along y, each 0.02 long, each bordering one flat and one steep face).
    const double eq9 = 1 * (4 * 2 * 0.02 / 2) + 1 * (4 * 2 * 0.02 / 2);
    EXPECT_LT(eq9, std::abs(exact));
}

}  // namespace
}  // namespace vkc
