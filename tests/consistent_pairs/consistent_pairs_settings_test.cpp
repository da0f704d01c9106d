// Tier B: the ConsistentPairsSettings no other test exercises, each against the exact oracle or an
// analytic answer. layersPerIteration other than 3: the nested scene (four front layers) needs
// ceil(4 / (L - 1)) iterations and still gives the oracle's pair; a crowded scene gives the oracle's
// pairs at 2 and 5 layers with the iterations its depth complexity implies. distanceThresholdPixels:
// two boxes 2.5 pixels apart along the view get one collision point per pixel of their overlap
// exactly when the threshold exceeds the gap, and stay no pair. regionPaddingPixels: the fitted
// pixel. maxCandidatePairs: more unique candidates than that are refused (record() documents
// InvalidArgument).
#include "tests/consistent_pairs/consistent_pairs_test_support.h"

#include <glm/gtc/matrix_transform.hpp>

namespace vkc::consistent_pairs_test {
namespace {

// Front layers an iteration adds after the first: L - 1 (each starts from the previous one's last).
uint32_t iterationsFor(uint32_t frontLayers, uint32_t layersPerIteration) {
    return (frontLayers + layersPerIteration - 2) / (layersPerIteration - 1);
}

// The peels that found fragments: a leading run, every later peel empty.
uint32_t nonEmptyPeels(const ConsistentPairsFrameDetails& details) {
    uint32_t layers = 0;
    while (layers < details.fragmentsPerPeel.size() && details.fragmentsPerPeel[layers] != 0) ++layers;
    for (size_t i = layers; i < details.fragmentsPerPeel.size(); ++i)
        EXPECT_EQ(details.fragmentsPerPeel[i], 0u) << "peel " << i << " after an empty one";
    return layers;
}

class ConsistentPairsSettingsTest : public ConsistentPairsTest {
protected:
    // Unit box 0 at the origin and unit box 1 moved by (0.3, 0.2) across the view and `gapZ` beyond
    // box 0 along it (z): their boxes overlap by 0.7 x 0.8 across the view.
    void addBoxesApartAlongView(Scene& scene, float gapZ) {
        MeshId box = addMesh(scene, solids::box({1.0f, 1.0f, 1.0f}));
        addObject(scene, box, glm::mat4(1.0f));
        addObject(scene, box, glm::translate(glm::mat4(1.0f), {0.3f, 0.2f, 1.0f + gapZ}));
    }
};

TEST_F(ConsistentPairsSettingsTest, LayersPerIterationSetsIterationsOfNestedScene) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    buildNestedScene(scene.value());
    const uint32_t frontLayers = 4;
    for (uint32_t layers : {2u, 4u, 5u}) {
        SCOPED_TRACE(std::to_string(layers) + " layers per iteration");
        ConsistentPairsSettings settings = testSettings();
        settings.layersPerIteration = layers;
        auto detector = ConsistentPairsDetector::create(context_, settings);
        ASSERT_TRUE(detector) << detector.status().describe();
        EXPECT_EQ(detector->settings().layersPerIteration, layers);
        ConsistentPairsFrameDetails details;
        auto results = detector->run(scene.value(), &details);
        ASSERT_TRUE(results) << results.status().describe();
        EXPECT_TRUE(test::onlyPair(results.value(), 1, 2));
        EXPECT_TRUE(results->warnings.empty()) << results->warnings.front();
        // 2 layers: 4 iterations (1-2, 2-3, 3-4, 4-5); 4: 2 (1-4, 4-7); 5: 1 (1-5, the fifth empty).
        EXPECT_EQ(details.iterationsRun, iterationsFor(frontLayers, layers));
        EXPECT_EQ(details.fragmentsPerPeel.size(), 1 + (layers - 1) * details.iterationsRun);
        EXPECT_EQ(nonEmptyPeels(details), frontLayers);
        expectAgreesWithOracle(results.value(), details);
    }
}

TEST_F(ConsistentPairsSettingsTest, LayersPerIterationTwoAndFiveOnCrowdedScene) {
    const std::vector<MeshData> shapes = {solids::box({1.0f, 0.5f, 1.5f}), solids::sphere(0.6f, 2),
                                          solids::torus(0.7f, 0.25f, 16)};
    auto scene = randomScene(shapes, 41, 14, 2.5f);
    ASSERT_TRUE(scene) << scene.status().describe();
    uint32_t depthComplexity = 0;
    for (uint32_t layers : {2u, 5u}) {
        SCOPED_TRACE(std::to_string(layers) + " layers per iteration");
        ConsistentPairsSettings settings = testSettings();
        settings.layersPerIteration = layers;
        settings.maxIterations = 32;
        ConsistentPairsFrameDetails details;
        auto results = detect(scene.value(), details, settings);
        ASSERT_TRUE(results) << results.status().describe();
        EXPECT_TRUE(results->warnings.empty()) << results->warnings.front();
        EXPECT_GT(results->pairs.size(), 2u) << "the scene should collide somewhere";
        expectAgreesWithOracle(results.value(), details);
        // The front layers are the scene's along the view, whatever the window: the iterations follow.
        const uint32_t peeled = nonEmptyPeels(details);
        EXPECT_GT(peeled, 4u) << "crowded enough to need several iterations at either setting";
        if (depthComplexity == 0) depthComplexity = peeled;
        EXPECT_EQ(peeled, depthComplexity);
        EXPECT_EQ(details.iterationsRun, iterationsFor(peeled, layers));
        EXPECT_EQ(details.fragmentsPerPeel.size(), 1 + (layers - 1) * details.iterationsRun);
    }
}

// Box 1's front face lies 2.5 pixels behind box 0's back face along the view, over 0.7 x 0.8 of
// their faces (the candidates' overlap, so the fitted pixel, its larger side, is known beforehand). Surfaces of
// different objects closer than the threshold along a ray join in a collision point (paper 4.3):
// none below 2.5 pixels, one per pixel of the overlap above, each from box 0's back face to box
// 1's front face, the gap apart. The boxes are consistent (apart): never a pair.
TEST_F(ConsistentPairsSettingsTest, DistanceThresholdJoinsSurfacesOnlyCloserThanIt) {
    const uint32_t resolution = 128;
    const float pixel = test::fittedPixelSize(0.8f, 2.0f, resolution);
    const float gapPixels = 2.5f, gap = gapPixels * pixel;
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    addBoxesApartAlongView(scene.value(), gap);
    auto apart = reference::interferes(objectMesh(0), objectTransform(0), objectMesh(1), objectTransform(1));
    ASSERT_TRUE(apart && !apart.value());
    const BroadphaseResults pcs = allPairs();  // their world boxes do not overlap along z
    // The view maps the padded overlap to the resolution along each axis (its pixels are not
    // square): the overlap itself spans resolution / (1 + 2 * padding / resolution) pixels a side.
    const float side = float(resolution) / (1.0f + 4.0f / float(resolution));

    for (float threshold : {0.0f, 2.25f, 2.75f, 4.0f}) {
        SCOPED_TRACE("distanceThresholdPixels " + std::to_string(threshold));
        ConsistentPairsSettings settings = testSettings(resolution);
        settings.distanceThresholdPixels = threshold;
        auto detector = ConsistentPairsDetector::create(context_, settings);
        ASSERT_TRUE(detector) << detector.status().describe();
        const float used = detector->settings().distanceThresholdPixels;
        EXPECT_EQ(used, threshold == 0.0f ? 1.5f : threshold);  // 0: the documented default
        ConsistentPairsFrameDetails details;
        auto results = detector->run(scene.value(), pcs, &details);
        ASSERT_TRUE(results) << results.status().describe();
        EXPECT_NEAR(details.pixelSize, pixel, 1e-5f * pixel);
        EXPECT_NEAR(gap / details.pixelSize, gapPixels, 1e-3f);
        EXPECT_NEAR(details.distanceThreshold, used * details.pixelSize, 1e-5f * pixel);
        EXPECT_TRUE(results->pairs.empty());
        EXPECT_FALSE(results->colliding);
        EXPECT_EQ(details.inconsistentPixels, 0u);
        EXPECT_FALSE(details.pointsTruncated);
        if (used < gapPixels) {
            EXPECT_EQ(details.pointCount, 0u) << "surfaces 2.5 pixels apart joined";
            continue;
        }
        EXPECT_GE(details.pointCount, uint32_t((side - 1) * (side - 1)));
        EXPECT_LE(details.pointCount, uint32_t((side + 1) * (side + 1)));
        size_t wrong = 0;
        for (const ConsistentPairsPoint& point : details.points) {
            // t (nearer) on box 0's back face at z = 0.5, p on box 1's front face, the gap behind.
            const bool expected = point.objectT == 0 && point.objectP == 1 && !point.frontT && point.frontP &&
                                  std::abs(point.t.z - 0.5f) < 1e-4f && std::abs(point.p.z - point.t.z - gap) < 1e-4f &&
                                  point.p.x == point.t.x && point.p.y == point.t.y;
            if (!expected && wrong++ < 4)
                ADD_FAILURE() << "point t (" << point.t.x << ", " << point.t.y << ", " << point.t.z << ") of "
                              << point.objectT << ", p (" << point.p.x << ", " << point.p.y << ", " << point.p.z
                              << ") of " << point.objectP;
        }
        EXPECT_EQ(wrong, 0u);
    }
}

TEST_F(ConsistentPairsSettingsTest, RegionPaddingGrowsTheFittedPixel) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    addBoxesApartAlongView(scene.value(), -0.5f);  // overlapping by half along the view
    const BroadphaseResults pcs = allPairs();
    // One view along z: the overlap's larger side across it is 0.8.
    expectPaddingSetsFittedPixel<ConsistentPairsDetector, ConsistentPairsFrameDetails>(testSettings(128), scene.value(),
                                                                                       pcs, 0.8f);
}

TEST_F(ConsistentPairsSettingsTest, MoreCandidatePairsThanMaxCandidatePairsRefused) {
    FrameResults atLimit;
    ConsistentPairsFrameDetails details;
    ASSERT_NO_FATAL_FAILURE(expectCandidateLimitOfOne<ConsistentPairsDetector>(testSettings(128), atLimit, details));
    // Pair (0, 2) was not a candidate, but the oracle says it is apart: the answer is still whole.
    expectAgreesWithOracle(atLimit, details);
}

}  // namespace
}  // namespace vkc::consistent_pairs_test
