// Tier B: the seeded CI set of the differential campaign. Every method on every generated scene
// kind (pairs at several depths, an animated pair, a 40-object crowd, containment and nesting,
// exactly touching boxes, an open mesh) against the double-precision truth under its contract
// (tools/difftest/campaign.h). A failing clause names its scenes; reproduce one with
// `vkcollide-difftest --ci --seed S --first I --scenes 1 --out DIR`.
#include "tests/difftest/difftest_paths.h"
#include "tests/support/vulkan_test.h"
#include "tools/difftest/campaign.h"

#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace vkc::difftest {
namespace {

class DifftestCampaign : public test::VulkanTest {};

constexpr uint32_t kCiScenes = 36;

// `scenes` consecutive scenes of the seeded CI set from `first`, `methods` only, every contract
// clause met and every clause that appears exercised.
void expectCiScenesMeetEveryClause(Context& context, uint32_t first, uint32_t scenes, std::vector<std::string> methods) {
    CampaignOptions options;
    options.seed = 20261124;
    options.firstIndex = first;
    options.scenes = scenes;
    options.ciSize = true;
    options.meshDir = test::difftestMeshDir();
    options.methods = std::move(methods);
    // stencil and consistent-pairs at their defaults; ldi at the paper's 128 to keep the set quick;
    // ebpi at its default, 2% of each pair's volume.
    options.ldiResolution = 128;
    auto summary = runCampaign(context, options, &std::cout);
    ASSERT_TRUE(summary) << summary.status().describe();
    std::cout << formatSummary(summary.value());
    EXPECT_EQ(summary->scenes, options.scenes);
    for (const ClauseTally& tally : summary->clauses) {
        EXPECT_GT(tally.cases, 0u) << tally.method << " " << tally.clause << ": no case exercised it";
        EXPECT_EQ(tally.contractFailures(), 0u) << tally.method << " " << tally.clause << " failed in scenes "
                                                << ::testing::PrintToString(tally.failingScenes);
    }
}

// The seeded CI set, 36 scenes (six of each kind), in three tests of twelve consecutive scenes:
// a scene's kind is its index modulo six, so each test holds two of every kind and exercises every
// clause on its own (a test each keeps them under the quick loop's minute and lets ctest spread them).
// ebpi, whose 2% of each pair's volume takes lavapipe about ten times longer, runs the same scenes
// in eighteen tests of two.
class DifftestCampaignChunk : public test::VulkanTest, public ::testing::WithParamInterface<uint32_t> {};
class DifftestEbpiChunk : public test::VulkanTest, public ::testing::WithParamInterface<uint32_t> {};

constexpr uint32_t kScenesPerChunk = 12;
constexpr uint32_t kScenesPerEbpiChunk = 2;

TEST_P(DifftestCampaignChunk, SeededCiSetMeetsEveryContractClause) {
    expectCiScenesMeetEveryClause(context_, GetParam() * kScenesPerChunk, kScenesPerChunk,
                                  {"exact", "aabb-tree", "stencil", "consistent-pairs", "ldi"});
}

TEST_P(DifftestEbpiChunk, SeededCiSetMeetsEveryContractClause) {
    expectCiScenesMeetEveryClause(context_, GetParam() * kScenesPerEbpiChunk, kScenesPerEbpiChunk, {"ebpi"});
}

INSTANTIATE_TEST_SUITE_P(ScenesOfTheCiSet, DifftestCampaignChunk,
                         ::testing::Range(0u, kCiScenes / kScenesPerChunk));
INSTANTIATE_TEST_SUITE_P(ScenesOfTheCiSet, DifftestEbpiChunk, ::testing::Range(0u, kCiScenes / kScenesPerEbpiChunk));

// Scenes of the long run (seed 4242) where consistent-pairs once paired separated objects from a
// single silhouette pixel: 158, a crowd where a third object's front lay within the threshold of
// a cube's grazing back face (cube and pinion 23 pixels apart); 1843, an animated pair whose
// sphere's front face was interpolated 0.002 in depth behind its own back face at a grazing pixel
// (sphere and pinion 176 pixels apart on the last frame).
TEST_F(DifftestCampaign, ConsistentPairsSilhouetteScenesOfTheLongRun) {
    for (uint32_t index : {158u, 1843u}) {
        CampaignOptions options;
        options.seed = 4242;
        options.firstIndex = index;
        options.scenes = 1;
        options.ciSize = true;
        options.meshDir = test::difftestMeshDir();
        options.methods = {"consistent-pairs"};
        auto summary = runCampaign(context_, options, &std::cout);
        ASSERT_TRUE(summary) << summary.status().describe();
        uint64_t separatedCases = 0;
        for (const ClauseTally& tally : summary->clauses) {
            EXPECT_EQ(tally.contractFailures(), 0u) << "scene 4242-" << index << ": " << tally.method << " "
                                                    << tally.clause;
            if (tally.clause == "separated") separatedCases += tally.cases;
        }
        EXPECT_GT(separatedCases, 0u) << "scene 4242-" << index << " has no separated pair to judge";
    }
}

}  // namespace
}  // namespace vkc::difftest
