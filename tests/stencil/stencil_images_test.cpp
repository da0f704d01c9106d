// Tier B: StencilSettings::keepImages on a device under the validation layer. Three nested closed
// solids (a sphere inside a box inside a larger box) make each view's counts analytic: an edge
// point lies inside the solids around its own, so the sphere's edges count 2, the middle box's 1
// and the outer box's 0; the pixels counting more than zero are exactly the samples the
// occlusion query counted (paper 1, 6.1), view by view.
#include "tests/stencil/stencil_test_support.h"

#include <algorithm>

namespace vkc::stenciltest {
namespace {

constexpr uint32_t kResolution = 128;

StencilSettings imageSettings(bool keepImages) {
    StencilSettings settings;
    settings.resolution = kResolution;
    settings.maxObjects = 16;
    settings.keepImages = keepImages;
    return settings;
}

class StencilImagesTest : public StencilTest {
protected:
    void addNestedSolids(Scene& scene) {
        MeshId outer = addMesh(scene, solids::box({4.0f, 4.0f, 4.0f}));
        MeshId middle = addMesh(scene, solids::box({2.0f, 2.0f, 2.0f}));
        MeshId inner = addMesh(scene, solids::sphere(0.4f, 2));
        addObject(scene, outer, glm::mat4(1.0f));
        addObject(scene, middle, glm::mat4(1.0f));
        addObject(scene, inner, glm::translate(glm::mat4(1.0f), {0.3f, -0.2f, 0.1f}));
    }
};

TEST_F(StencilImagesTest, EachViewsCountsAreTheNestingDepthOfItsEdges) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    addNestedSolids(scene.value());
    auto detector = StencilDetector::create(context_, imageSettings(true));
    ASSERT_TRUE(detector) << detector.status().describe();
    // Two frames: the second reuses a slot's buffers, so its counts must be its own copy.
    for (int frame = 0; frame < 2; ++frame) {
        SCOPED_TRACE("frame " + std::to_string(frame));
        StencilFrameDetails details;
        auto results = detector->run(scene.value(), &details);
        ASSERT_TRUE(results) << results.status().describe();
        // All three pairs interfere; the sphere, nested two deep, may leave (outer, sphere) undecided
        // (one penetrated id per pixel, README's guarantees).
        EXPECT_EQ(results->pairs.size() + details.undecidedPairs.size(), 3u);
        ASSERT_EQ(details.counts.size(), 3u);
        for (size_t view = 0; view < details.counts.size(); ++view) {
            const std::vector<int8_t>& counts = details.counts[view];
            ASSERT_EQ(counts.size(), size_t(kResolution) * kResolution) << "view " << view;
            EXPECT_EQ(*std::min_element(counts.begin(), counts.end()), 0) << "view " << view;
            EXPECT_EQ(*std::max_element(counts.begin(), counts.end()), 2) << "view " << view;
            EXPECT_GT(std::count(counts.begin(), counts.end(), int8_t(1)), 0) << "view " << view;
            const auto positive = std::count_if(counts.begin(), counts.end(), [](int8_t c) { return c > 0; });
            EXPECT_EQ(uint64_t(positive), details.interferingSamples[view]) << "view " << view;
        }
    }
}

TEST_F(StencilImagesTest, NoCountsWithoutKeepImages) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    addNestedSolids(scene.value());
    StencilFrameDetails details;
    auto results = detect(scene.value(), details, imageSettings(false));
    ASSERT_TRUE(results) << results.status().describe();
    EXPECT_FALSE(results->pairs.empty());
    EXPECT_TRUE(details.counts.empty());
}

}  // namespace
}  // namespace vkc::stenciltest
