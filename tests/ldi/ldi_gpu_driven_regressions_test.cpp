// Tier B: ldi GPU-driven (run(scene) with the drawn-triangle bound: the pairs, VoIs and bounds
// decided on the GPU from the same frame's broadphase) on ../shared/scenes/regressions (shared
// meshes under random similarity transforms), against the truth an independent CGAL program
// computed: every pair of the truth tested with its volume within the stated bound, and every other
// tested pair's volume within its bound of zero.
#include "tests/ldi/ldi_gpu_support.h"
#include "tests/support/vulkan_test.h"
#include "tools/io/scene_builder.h"
#include "vkcollide/ldi.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>

namespace vkc {
namespace {

class LdiGpuDrivenRegressions : public test::VulkanTest {};

TEST_F(LdiGpuDrivenRegressions, EveryPairOfTheTruthWithinItsDrawnTriangleBound) {
    const std::filesystem::path dir = std::filesystem::path(test::sharedDir()) / "scenes" / "regressions";
    if (test::sharedDir().empty() || !std::filesystem::exists(dir)) {
        if (test::deviceRequired()) FAIL() << "no regression scenes at " << dir << " (VKC_SHARED_DIR)";
        GTEST_SKIP() << "no regression scenes at " << dir;
    }
    LdiSettings settings = ldi_test::settingsAt(96);
    settings.maxPairs = 72;  // every pair with a VoI of the crowds in one frame, within one 128 MiB binding of layers
    settings.errorBound = LdiErrorBound::DrawnTriangles;
    auto detector = LdiDetector::create(context_, settings);
    ASSERT_TRUE(detector) << detector.status().describe();
    uint32_t measured = 0;
    for (const char* name : {"pair_1_1", "pair_2_0", "pair_3_1", "crowd_0", "crowd_2"}) {
        SCOPED_TRACE(name);
        auto description = io::loadScene(dir / (std::string(name) + ".json"));
        ASSERT_TRUE(description) << description.status().describe();
        auto scene = io::buildScene(context_, description.value(), kVolumeMethodRequirements);
        ASSERT_TRUE(scene) << scene.status().describe();
        std::ifstream truthFile(dir / "truth" / (std::string(name) + ".json"));
        const nlohmann::json truthJson = nlohmann::json::parse(truthFile);
        std::map<std::pair<uint32_t, uint32_t>, double> truth;  // (a, b) -> exact volume
        for (const auto& pair : truthJson["pairs"])
            truth[{pair["a"].get<uint32_t>(), pair["b"].get<uint32_t>()}] = pair["volume"].get<double>();

        LdiFrameDetails details;
        auto results = detector->run(scene.value(), &details);
        ASSERT_TRUE(results) << results.status().describe();
        EXPECT_FALSE(results->truncated) << (results->warnings.empty() ? "" : results->warnings.front());
        size_t truthTested = 0;
        for (const LdiPairDetails& pair : details.pairs) {
            SCOPED_TRACE("pair (" + std::to_string(pair.a) + ", " + std::to_string(pair.b) + ")");
            EXPECT_FALSE(pair.truncated);
            const auto exact = truth.find({pair.a, pair.b});
            const double volume = exact == truth.end() ? 0.0 : exact->second;
            truthTested += exact != truth.end();
            EXPECT_LE(std::abs(pair.volume - volume), pair.volumeErrorBound) << "volume " << pair.volume << ", exact " << volume;
            measured += volume > 0.0;
        }
        EXPECT_EQ(truthTested, truth.size()) << "every pair of the truth tested";
    }
    EXPECT_GE(measured, 60u);  // the crowds' 64 pairs with a volume
}

}  // namespace
}  // namespace vkc
