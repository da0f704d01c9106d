// Tier A: the CPU pieces the GPU EBPI is compared with: the fixed-point rule (rounded up, scales
// powers of two with a quantum of at most 2^-32 pixel cube, overflow flagged), the mesh edge list,
// the steep-wall rule MeshDepthExtent (never below ConnectedWall), and the placed ray frame.
#include "collision/ebpi/ebpi_edge_terms.h"
#include "collision/ebpi/ebpi_fixed_point.h"
#include "collision/ebpi/ebpi_image.h"
#include "collision/ebpi/ebpi_mesh_edges.h"
#include "collision/scene/generated_solids.h"
#include "tests/ebpi/ebpi_test_meshes.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace vkc {
namespace {

TEST(EbpiFixedPoint, ContributionsRoundUpAndOverflowIsFlagged) {
    bool overflow = false;
    EXPECT_EQ(ebpiQuanta(0.1, 8.0, overflow), 1u);  // 0.8 quanta: one
    EXPECT_EQ(ebpiQuanta(1.0, 4.0, overflow), 4u);  // exact: no extra quantum
    EXPECT_EQ(ebpiQuanta(0.0, 4.0, overflow), 0u);
    EXPECT_EQ(ebpiQuanta(0x1p61, 1.0, overflow), uint64_t(1) << 61);
    EXPECT_FALSE(overflow);
    EXPECT_EQ(ebpiQuanta(0x1p62, 1.0, overflow), 0u);
    EXPECT_TRUE(overflow);
    overflow = false;
    ebpiQuanta(std::numeric_limits<double>::quiet_NaN(), 1.0, overflow);
    EXPECT_TRUE(overflow);
}

TEST(EbpiFixedPoint, ScalesArePowersOfTwoWithAQuantumOfAtMost2ToMinus32PixelCubes) {
    const EbpiWindow window{{-1.3, 0.2}, {0.03, 0.07}, 50, 40};
    const auto scales = ebpiFixedPointScales(window);
    const double w = 0.03, h = 0.07, cube = h * h * h;
    const double monomials[5] = {w * w * h, w * h * h, h * h * h, w * w * w, w * h};
    for (uint32_t c = 0; c < kEbpiChannels; ++c) {
        int exponent = 0;
        EXPECT_EQ(std::frexp(scales[c], &exponent), 0.5) << "channel " << c;
        // One quantum of the channel at the pixel's size, in pixel cubes: in (2^-33, 2^-32].
        const double along = c < 5 ? 1.0 : c < 10 ? w : h;
        const double quantum = monomials[c % 5] * along / scales[c] / cube;
        EXPECT_LE(quantum, 0x1p-32) << "channel " << c;
        EXPECT_GT(quantum, 0x1p-33) << "channel " << c;
    }
}

TEST(EbpiFixedPoint, ImageIsAtLeastTheDoubleImageAndASumPast2To63IsFlagged) {
    std::mt19937 rng(5);
    const MeshData solid = ebpi_test::perturbedRadially(solids::sphere(1.0f, 2), 0.3, rng);
    const EbpiRayMesh mesh = toEbpiRayFrame(solid, glm::dvec3(1, 2, 3));
    const EbpiWindow window = ebpi_test::windowAround(mesh, 24);
    const std::vector<EbpiEdgeTerm> terms = ebpiEdgeTerms(mesh);
    const EbpiFixedImage fixed = buildEbpiFixedImage(terms, window);
    const EbpiImage exact = buildEbpiImage(terms, window);
    EXPECT_FALSE(fixed.overflow);
    size_t touched = 0;
    for (size_t p = 0; p < exact.pixels.size(); ++p) {
        const EbpiPixel decoded = ebpiFromFixed(fixed.pixels[p], fixed.scales);
        touched += fixed.pixels[p].edges != 0;
        EXPECT_GE(decoded.touching.evaluate(0.1, 0.1), exact.pixels[p].touching.evaluate(0.1, 0.1)) << p;
        EXPECT_GE(decoded.alongX.w2h, exact.pixels[p].alongX.w2h) << p;
        EXPECT_GE(decoded.alongY.wh, exact.pixels[p].alongY.wh) << p;
    }
    EXPECT_GT(touched, 100u);

    // Four edges through one pixel, each 2^61 quanta of the wh channel: the sum reaches 2^63.
    const EbpiWindow one{{0, 0}, {1, 1}, 1, 1};
    EbpiEdgeTerm big{{0.2, 0.3}, {0.7, 0.6}, {}};
    big.bound.wh = 0x1p61 / ebpiFixedPointScales(one)[4];
    EXPECT_FALSE(buildEbpiFixedImage({big, big, big}, one).overflow);
    EXPECT_TRUE(buildEbpiFixedImage({big, big, big, big}, one).overflow);
}

TEST(EbpiMeshEdges, ClosedMeshesHaveEveryEdgeInTwoTrianglesOpenOnesAreReported) {
    const MeshData box = solids::box({1.0f, 2.0f, 3.0f});
    const EbpiMeshEdges edges = ebpiMeshEdges(box.indices);
    EXPECT_TRUE(edges.closedManifold);
    EXPECT_EQ(edges.edges.size(), 18u);  // 12 triangles x 3 sides / 2
    for (const EbpiMeshEdge& e : edges.edges) {
        EXPECT_LT(e.a, e.b);
        EXPECT_NE(e.triangles[0], e.triangles[1]);
    }
    const std::vector<uint32_t> open = {0, 1, 2, 0, 2, 3};
    const EbpiMeshEdges square = ebpiMeshEdges(open);
    EXPECT_FALSE(square.closedManifold);
    EXPECT_EQ(square.edges.size(), 1u);  // the diagonal
}

TEST(EbpiEdgeTerms, MeshDepthExtentRuleIsNeverBelowTheConnectedWall) {
    std::mt19937 rng(9);
    EbpiRayMesh scene = ebpi_test::wallPrism(9, rng);
    ebpi_test::append(scene, ebpi_test::alignedBox({3, 0, -4}, {4, 1, -3.5}));  // a short wall far below
    const std::vector<EbpiEdgeTerm> wall = ebpiEdgeTerms(scene, EbpiSteepWallDepth::ConnectedWall);
    const std::vector<EbpiEdgeTerm> extent = ebpiEdgeTerms(scene, EbpiSteepWallDepth::MeshDepthExtent);
    ASSERT_EQ(wall.size(), extent.size());
    size_t wider = 0;
    for (size_t i = 0; i < wall.size(); ++i) {
        EXPECT_EQ(wall[i].a, extent[i].a);
        EXPECT_EQ(wall[i].bound.w2h, extent[i].bound.w2h);
        EXPECT_GE(extent[i].bound.wh, wall[i].bound.wh);
        wider += extent[i].bound.wh > wall[i].bound.wh;
    }
    EXPECT_GT(wider, 0u) << "the box's walls are shorter than the scene's extent";
}

TEST(EbpiRayMesh, PlacedRayFrameIsTheTransformThenTheRotation) {
    const EbpiRotation rotation = ebpiRotationTo({1, 2, 3});
    const glm::mat4 place = glm::rotate(glm::translate(glm::mat4(1.0f), {1.0f, -2.0f, 0.5f}), 0.3f, glm::vec3(0, 0, 1));
    const glm::vec3 p(0.25f, -0.5f, 2.0f);
    const glm::dvec3 world = glm::dvec3(glm::dmat4(place) * glm::dvec4(glm::dvec3(p), 1.0));
    const glm::dvec3 got = ebpiRayFramePoint(place, rotation, p);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(got[k], glm::dot(rotation.rows[k], world), 1e-12);
    EXPECT_NEAR(glm::dot(rotation.rows[2], glm::normalize(glm::dvec3(1, 2, 3))), 1.0, 1e-15);
    EXPECT_NEAR(glm::dot(glm::cross(rotation.rows[0], rotation.rows[1]), rotation.rows[2]), 1.0, 1e-15);
}

}  // namespace
}  // namespace vkc
