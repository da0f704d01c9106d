// Tier B: the paper's hard cases (paper 3, sections 4.2 and 5), each checked against the exact
// oracle too: a nested configuration whose colliding pair lies behind three front layers (Figs 8
// and 9: found only by a second iteration, reported as truncated, in FrameResults and the run
// report, when one iteration is allowed), a hollow object with another object in its cavity
// (consistent: no collision), and one object fully inside another (collision, though no surfaces
// cross).
#include "tests/consistent_pairs/consistent_pairs_test_support.h"
#include "tools/cli/report_json.h"

namespace vkc::consistent_pairs_test {
namespace {

class ConsistentPairsHardCasesTest : public ConsistentPairsTest {};

TEST_F(ConsistentPairsHardCasesTest, NestedPairNeedsSecondIteration) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    buildNestedScene(scene.value());
    auto oracle = reference::interferes(objectMesh(1), objectTransform(1), objectMesh(2), objectTransform(2));
    ASSERT_TRUE(oracle && oracle.value());
    ConsistentPairsFrameDetails details;
    auto results = detect(scene.value(), details);
    ASSERT_TRUE(results) << results.status().describe();
    ASSERT_TRUE(test::onlyPair(results.value(), 1, 2));
    // Front layers: shell outside, box 1, box 2, the shell's far inner wall; the second window
    // (layers 3-5) peels that wall and then nothing, so the GPU stops after two of eight iterations.
    EXPECT_EQ(details.iterationsRun, 2u);
    ASSERT_EQ(details.fragmentsPerPeel.size(), 5u);
    EXPECT_GT(details.fragmentsPerPeel[3], 0u);
    EXPECT_EQ(details.fragmentsPerPeel[4], 0u);
    EXPECT_TRUE(results->warnings.empty()) << results->warnings.front();
    expectAgreesWithOracle(results.value(), details);

    // One iteration only: the pair is not seen, and the result says why instead of staying silent.
    ConsistentPairsSettings one = testSettings();
    one.maxIterations = 1;
    ConsistentPairsFrameDetails truncated;
    auto partial = detect(scene.value(), truncated, one);
    ASSERT_TRUE(partial) << partial.status().describe();
    EXPECT_TRUE(partial->pairs.empty());
    EXPECT_EQ(truncated.iterationsRun, 1u);
    EXPECT_TRUE(truncated.iterationsTruncated);
    ASSERT_FALSE(partial->warnings.empty());
    EXPECT_NE(partial->warnings.front().find("maxIterations"), std::string::npos) << partial->warnings.front();
    // Machine-readable too: `colliding` reads false, but the answer is marked incomplete.
    EXPECT_FALSE(partial->colliding);
    EXPECT_TRUE(partial->truncated);
    EXPECT_FALSE(results->truncated);
    // The report carries it only when set.
    tools::RunReport report;
    report.frames.push_back({partial.value()});
    report.frames.push_back({results.value()});
    const nlohmann::json json = tools::toJson(report);
    EXPECT_EQ(json["frames"][0].value("truncated", false), true) << json["frames"][0].dump();
    EXPECT_FALSE(json["frames"][1].contains("truncated")) << json["frames"][1].dump();
}

TEST_F(ConsistentPairsHardCasesTest, ObjectInsideHollowCavityDoesNotCollide) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    MeshId shell = addMesh(scene.value(), hollowBox({4.0f, 4.0f, 4.0f}, {3.0f, 3.0f, 3.0f}));
    MeshId ball = addMesh(scene.value(), solids::sphere(1.0f, 3));
    addObject(scene.value(), shell, glm::rotate(glm::mat4(1.0f), 0.3f, glm::vec3(1.0f, 0.5f, 0.0f)));
    addObject(scene.value(), ball, glm::translate(glm::mat4(1.0f), {0.2f, -0.1f, 0.15f}));
    auto oracle = reference::interferes(objectMesh(0), objectTransform(0), objectMesh(1), objectTransform(1));
    ASSERT_TRUE(oracle);
    ASSERT_FALSE(oracle.value()) << "the ball sits in the cavity, touching nothing";
    ConsistentPairsFrameDetails details;
    auto results = detect(scene.value(), details);
    ASSERT_TRUE(results) << results.status().describe();
    EXPECT_EQ(details.drawnObjects, 2u);
    EXPECT_FALSE(results->colliding);
    EXPECT_TRUE(results->pairs.empty());
    EXPECT_EQ(details.inconsistentPixels, 0u) << "every back face has its own object's front face in front";
    EXPECT_GE(details.iterationsRun, 2u) << "outer wall, ball, far inner wall: three front layers and more";
    expectAgreesWithOracle(results.value(), details);
}

TEST_F(ConsistentPairsHardCasesTest, ObjectFullyInsideAnotherCollides) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    addSphereInsideBox(scene.value());
    auto pair = reference::exactPair(objectMesh(0), objectTransform(0), objectMesh(1), objectTransform(1),
                                     {false, false, {}});
    ASSERT_TRUE(pair);
    ASSERT_TRUE(pair->bInsideA) << "no surfaces cross: containment only";
    ConsistentPairsFrameDetails details;
    auto results = detect(scene.value(), details);
    ASSERT_TRUE(results) << results.status().describe();
    ASSERT_TRUE(test::onlyPair(results.value(), 0, 1));
    // No surfaces within the threshold: no collision points, the pair stands on consistency alone.
    EXPECT_TRUE(results->pairs[0].points.empty());
    expectAgreesWithOracle(results.value(), details);
}

}  // namespace
}  // namespace vkc::consistent_pairs_test
