// Tier B: ConsistentPairsSettings::keepImages on a device under the validation layer. Two axis-
// aligned unit boxes overlapping in a square column along the view: every ray through the column
// meets exactly one back face whose nearest front face is the other box's (paper 3, 4.2), every
// other ray none. So the image is 1 on the column's pixels and 0 elsewhere, and sums to the
// frame's inconsistent-fragment count, frame after frame (the image is cleared per frame).
#include "tests/consistent_pairs/consistent_pairs_test_support.h"

#include <algorithm>
#include <numeric>

namespace vkc::consistent_pairs_test {
namespace {

constexpr uint32_t kResolution = 128;
constexpr float kColumnSide = 0.5f;  // the boxes' overlap across the view (x and y)

class ConsistentPairsImagesTest : public ConsistentPairsTest {
protected:
    void addOverlappingColumn(Scene& scene) {
        MeshId box = addMesh(scene, solids::box({1.0f, 1.0f, 1.0f}));
        addObject(scene, box, glm::mat4(1.0f));
        addObject(scene, box, glm::translate(glm::mat4(1.0f), {1.0f - kColumnSide, 1.0f - kColumnSide, 0.25f}));
    }
};

TEST_F(ConsistentPairsImagesTest, OneInconsistentFragmentOnEachPixelOfTheOverlap) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    addOverlappingColumn(scene.value());
    ConsistentPairsSettings settings = testSettings(kResolution);
    settings.keepImages = true;
    auto detector = ConsistentPairsDetector::create(context_, settings);
    ASSERT_TRUE(detector) << detector.status().describe();
    for (int frame = 0; frame < 3; ++frame) {
        SCOPED_TRACE("frame " + std::to_string(frame));
        ConsistentPairsFrameDetails details;
        auto results = detector->run(scene.value(), &details);
        ASSERT_TRUE(results) << results.status().describe();
        ASSERT_TRUE(test::onlyPair(results.value(), 0, 1));
        const std::vector<uint32_t>& image = details.inconsistentImage;
        ASSERT_EQ(image.size(), size_t(kResolution) * kResolution);
        EXPECT_EQ(*std::max_element(image.begin(), image.end()), 1u);
        EXPECT_EQ(std::accumulate(image.begin(), image.end(), uint64_t(0)), details.inconsistentPixels);
        // The column's pixels, give or take a pixel around its outline.
        const double side = kColumnSide / details.pixelSize;
        const double ones = double(std::count(image.begin(), image.end(), 1u));
        EXPECT_NEAR(ones, side * side, 4.0 * side + 4.0) << "pixel " << details.pixelSize;
    }
}

TEST_F(ConsistentPairsImagesTest, NoImageWithoutKeepImages) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    addOverlappingColumn(scene.value());
    ConsistentPairsFrameDetails details;
    auto results = detect(scene.value(), details, testSettings(kResolution));
    ASSERT_TRUE(results) << results.status().describe();
    ASSERT_TRUE(test::onlyPair(results.value(), 0, 1));
    EXPECT_GT(details.inconsistentPixels, 0u);
    EXPECT_TRUE(details.inconsistentImage.empty());
}

}  // namespace
}  // namespace vkc::consistent_pairs_test
