// Tier B: the StencilSettings no other test exercises, each against the exact oracle or an analytic
// answer. pointCapacity: a full point list keeps the exact count and says truncated, the pairs stay
// the oracle's. maxCandidatePairs: more unique candidates than that are refused as the caller's
// error (record() documents InvalidArgument), fewer run. regionPaddingPixels: the fitted pixel is
// the candidates' box overlap, grown by the padding on each side, over the resolution.
// edgeOffsetPixels: edges move that far outward, so an octahedron's tip 1.5 pixels from a box is
// reported only when the offset exceeds the gap, with its edge points out to the offset tip.
#include "tests/stencil/stencil_test_support.h"

#include <glm/gtc/matrix_transform.hpp>

#include <set>

namespace vkc::stenciltest {
namespace {

using PairSet = std::set<std::pair<uint32_t, uint32_t>>;

PairSet pairsOf(const FrameResults& results) {
    PairSet pairs;
    for (const PairResult& pair : results.pairs) pairs.insert({pair.a, pair.b});
    return pairs;
}

// A regular octahedron with its six vertices at `radius` on the axes: the vertex normals the GPU
// computes (area-weighted over four congruent faces) point exactly along the axes.
MeshData octahedron(float radius) {
    MeshData mesh;
    mesh.name = "octahedron";
    mesh.positions = {{radius, 0, 0}, {-radius, 0, 0}, {0, radius, 0}, {0, -radius, 0}, {0, 0, radius}, {0, 0, -radius}};
    for (int sx : {1, -1})
        for (int sy : {1, -1})
            for (int sz : {1, -1}) {
                const uint32_t x = sx > 0 ? 0 : 1, y = sy > 0 ? 2 : 3, z = sz > 0 ? 4 : 5;
                // Counter-clockwise seen from outside: (x, y, z) where sx * sy * sz > 0, else (x, z, y).
                if (sx * sy * sz > 0)
                    mesh.indices.insert(mesh.indices.end(), {x, y, z});
                else
                    mesh.indices.insert(mesh.indices.end(), {x, z, y});
            }
    return mesh;
}

class StencilSettingsTest : public StencilTest {};

TEST_F(StencilSettingsTest, PointCapacityKeepsExactCountAndPairs) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    addOverlappingBoxes(scene.value());
    MeshId ball = addMesh(scene.value(), solids::sphere(0.5f, 2));
    addObject(scene.value(), ball, glm::translate(glm::mat4(1.0f), {-0.7f, 0.1f, 0.0f}));  // into box 0 only
    const PairSet expected = {{0, 1}, {0, 2}};

    StencilSettings large = settingsAt(128);
    large.pointCapacity = 1u << 17;
    StencilFrameDetails all;
    auto reference = detect(scene.value(), all, large);
    ASSERT_TRUE(reference) << reference.status().describe();
    ASSERT_GT(all.pointCount, 64u);
    size_t stored = 0;
    for (const PairResult& pair : reference->pairs) stored += pair.points.size();
    EXPECT_EQ(stored, all.pointCount);
    EXPECT_EQ(pairsOf(reference.value()), expected);
    expectAgreesWithOracle(reference.value(), all);

    StencilSettings small = large;
    small.pointCapacity = 16;
    StencilFrameDetails some;
    auto results = detect(scene.value(), some, small);
    ASSERT_TRUE(results) << results.status().describe();
    test::expectPointsTruncated(results.value(), some, all);
    stored = 0;
    for (const PairResult& pair : results->pairs) stored += pair.points.size();
    EXPECT_EQ(stored, 16u);
    // The pairs come from the pair flags, not from the points: still the oracle's.
    EXPECT_EQ(pairsOf(results.value()), expected);
    expectAgreesWithOracle(results.value(), some);
    expectPointsNearVolumes(results.value(), some, 64, false);
}

TEST_F(StencilSettingsTest, MoreCandidatePairsThanMaxCandidatePairsRefused) {
    FrameResults atLimit;
    StencilFrameDetails details;
    ASSERT_NO_FATAL_FAILURE(expectCandidateLimitOfOne<StencilDetector>(settingsAt(128), atLimit, details));
    // Pair (0, 2) was not a candidate, but the oracle says it is apart: the answer is still whole.
    expectAgreesWithOracle(atLimit, details);
}

// Two axis-aligned boxes whose world boxes overlap by 0.75 x 1 x 1.5 (x, y, z): the three views see
// all axes (largest extent 1.5), the one view along z only x and y (largest 1).
TEST_F(StencilSettingsTest, RegionPaddingGrowsTheFittedPixel) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    addObject(scene.value(), addMesh(scene.value(), solids::box({2.0f, 2.0f, 2.0f})), glm::mat4(1.0f));
    addObject(scene.value(), addMesh(scene.value(), solids::box({1.75f, 1.0f, 2.5f})),
              glm::translate(glm::mat4(1.0f), {1.125f, 0.0f, -0.75f}));
    const BroadphaseResults pcs = allPairs();
    for (uint32_t views : {3u, 1u}) {
        SCOPED_TRACE("views " + std::to_string(views));
        StencilSettings settings = settingsAt(128);
        settings.views = views;
        expectPaddingSetsFittedPixel<StencilDetector, StencilFrameDetails>(settings, scene.value(), pcs,
                                                                           views == 3 ? 1.5f : 1.0f);
    }
}

// An octahedron (radius 0.5) and a box whose face lies `gap` = 1.5 pixels beyond the octahedron's
// +x tip. Edges move outward along their vertex normals by edgeOffsetPixels (section 6.3): the
// tip's edges reach into the box exactly when the offset exceeds the gap, which is also when the
// oracle says the box moved towards the octahedron by the offset interferes with it. The tip faces
// the box's face away from that face's diagonal (an edge too, moved towards the octahedron by most
// of the offset), so only the octahedron's edges enter. Both objects are given the same
// conservative world box, 3 on each side, so the pixel is known beforehand.
TEST_F(StencilSettingsTest, EdgeOffsetReachesAcrossAGapOnlyWhenLarger) {
    const uint32_t resolution = 128;
    const float pixel = test::fittedPixelSize(3.0f, 2.0f, resolution);
    const float gapPixels = 1.5f, gap = gapPixels * pixel, tip = 0.5f;
    const glm::vec3 centre(0.0f, 0.4f, -0.4f);  // of the octahedron: 0.57 from the diagonal y = z
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    addObject(scene.value(), addMesh(scene.value(), octahedron(tip)), glm::translate(glm::mat4(1.0f), centre));
    const glm::mat4 boxPose = glm::translate(glm::mat4(1.0f), {tip + gap + 0.5f, 0.0f, 0.0f});
    addObject(scene.value(), addMesh(scene.value(), solids::box({1.0f, 2.0f, 2.0f})), boxPose);
    auto apart = reference::interferes(objectMesh(0), objectTransform(0), objectMesh(1), objectTransform(1));
    ASSERT_TRUE(apart && !apart.value()) << "the box must be apart from the octahedron";
    BroadphaseResults pcs;
    pcs.worldBounds.assign(2, Aabb{{-1.0f, -1.5f, -1.5f}, {2.0f, 1.5f, 1.5f}});
    pcs.pairs = {{0, 1}};
    pcs.pairCount = 1;

    for (float offsetPixels : {0.0f, 4.0f}) {
        SCOPED_TRACE("edgeOffsetPixels " + std::to_string(offsetPixels));
        StencilSettings settings = settingsAt(resolution);
        settings.edgeOffsetPixels = offsetPixels;
        auto detector = StencilDetector::create(context_, settings);
        ASSERT_TRUE(detector) << detector.status().describe();
        const float offset = detector->settings().edgeOffsetPixels * pixel;
        if (offsetPixels == 0.0f) EXPECT_EQ(detector->settings().edgeOffsetPixels, 0.5f);  // the default
        const bool reaches = offset > gap;
        auto grown = reference::interferes(objectMesh(0), objectTransform(0), objectMesh(1),
                                           glm::translate(glm::mat4(1.0f), {-offset, 0.0f, 0.0f}) * boxPose);
        ASSERT_TRUE(grown);
        ASSERT_EQ(grown.value(), reaches) << "the oracle and the analytic reach disagree";

        StencilFrameDetails details;
        auto results = detector->run(scene.value(), pcs, &details);
        ASSERT_TRUE(results) << results.status().describe();
        EXPECT_NEAR(details.pixelSize, pixel, 1e-5f * pixel);
        for (uint64_t n : details.negativeSamples) EXPECT_EQ(n, 0u) << "the octahedron is closed and outward";
        if (!reaches) {
            EXPECT_TRUE(results->pairs.empty());
            EXPECT_EQ(details.undecidedPairs, (std::vector<ObjectPair>{{0, 1}}));
            continue;
        }
        ASSERT_TRUE(test::onlyPair(results.value(), 0, 1));
        EXPECT_EQ(results->pairs[0].penetrating, std::vector<uint32_t>{0}) << "the octahedron's edges enter the box";
        EXPECT_EQ(results->pairs[0].penetrated, std::vector<uint32_t>{1});
        // The edge points lie in the box, no further than the offset tip, each within a pixel.
        ASSERT_FALSE(results->pairs[0].points.empty());
        float reach = -INFINITY;
        for (const glm::vec3& p : results->pairs[0].points) {
            EXPECT_GE(p.x, tip + gap - pixel);
            EXPECT_LE(p.x, tip + offset + pixel);
            EXPECT_LE(std::max(std::abs(p.y - centre.y), std::abs(p.z - centre.z)), offset + pixel);
            reach = std::max(reach, p.x);
        }
        EXPECT_GE(reach, tip + offset - 1.5f * pixel) << "the edges reach out by the offset";
    }
}

}  // namespace
}  // namespace vkc::stenciltest
