// Tier B: ConsistentPairsDetector (paper 3) on a device under the validation layer, on small
// hand-placed cases against the exact oracle: overlapping and separated boxes (also over later
// frames reusing the slots), non-blocking frames in flight, an open mesh refused naming the
// object, the point list's capacity (exact count, truncated), and a run over the broadphase's pairs
// with its details as the harness reports them.
#include "tests/consistent_pairs/consistent_pairs_test_support.h"
#include "tests/support/failing_buffer_creation.h"
#include "tools/cli/report_json.h"

namespace vkc::consistent_pairs_test {
namespace {

class ConsistentPairsDetectorTest : public ConsistentPairsTest {};

TEST_F(ConsistentPairsDetectorTest, OverlappingBoxesFoundSeparatedNot) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    // Boxes 0 and 2 overlap as AABBs (so they are drawn) but are separated by a rotated gap.
    addOverlappingAndSeparatedBoxes(scene.value());
    auto detector = ConsistentPairsDetector::create(context_, testSettings());
    ASSERT_TRUE(detector) << detector.status().describe();
    ConsistentPairsFrameDetails details;
    auto results = detector->run(scene.value(), &details);
    ASSERT_TRUE(results) << results.status().describe();
    EXPECT_EQ(details.drawnObjects, 3u) << "the broadphase should pass both pairs";
    ASSERT_TRUE(test::onlyPair(results.value(), 0, 1));
    EXPECT_FALSE(results->pairs[0].points.empty());
    EXPECT_EQ(results->pairs[0].points.size(), results->pairs[0].normals.size());
    EXPECT_TRUE(results->warnings.empty()) << results->warnings.front();
    EXPECT_EQ(details.iterationsRun, 1u) << "convex boxes need one window of three layers";
    for (const char* pass : {"consistent-pairs-peel", "consistent-pairs-consistency", "consistent-pairs-determination"})
        EXPECT_TRUE(results->gpuTimingsMs.count(pass)) << pass;
    expectAgreesWithOracle(results.value(), details);

    // Later frames reuse the frame slots (persistent images and buffers synchronised against the
    // slot's previous frame) and give the same answer.
    for (int frame = 1; frame < 4; ++frame) {
        ConsistentPairsFrameDetails again;
        auto next = detector->run(scene.value(), &again);
        ASSERT_TRUE(next) << next.status().describe();
        ASSERT_EQ(next->pairs.size(), 1u);
        EXPECT_EQ(again.pointCount, details.pointCount);
        EXPECT_EQ(again.inconsistentPixels, details.inconsistentPixels);
    }
}

TEST_F(ConsistentPairsDetectorTest, FramesInFlightNeverBlock) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    addOverlappingBoxes(scene.value());
    auto detector = ConsistentPairsDetector::create(context_, testSettings(128));
    ASSERT_TRUE(detector);
    test::expectResultsWaitForHostSignal(vk(), detector.value(), scene.value(), allPairs(), 1);
}

TEST_F(ConsistentPairsDetectorTest, OpenMeshRefusedOrLeftUntestedNamingTheObject) {
    auto scene = Scene::create(context_, kObjectSpaceMethodRequirements);
    ASSERT_TRUE(scene);
    MeshData open = solids::box({1.0f, 1.0f, 1.0f});
    open.name = "open-box";
    open.indices.resize(open.indices.size() - 3);  // one triangle missing: a hole
    MeshId openId = addMesh(scene.value(), open);
    MeshId closed = addMesh(scene.value(), solids::box({1.0f, 1.0f, 1.0f}));
    addObject(scene.value(), closed, glm::mat4(1.0f));
    ASSERT_TRUE(scene->addObject(openId, glm::translate(glm::mat4(1.0f), {0.5f, 0.3f, 0.2f}), "lid-less crate"));
    auto detector = ConsistentPairsDetector::create(context_, testSettings(128));
    ASSERT_TRUE(detector) << detector.status().describe();
    // The host's candidates are checked before the frame: refused.
    auto broadphase = Broadphase::create(context_);
    ASSERT_TRUE(broadphase);
    auto pcs = broadphase->run(scene.value());
    ASSERT_TRUE(pcs) << pcs.status().describe();
    auto refused = detector->run(scene.value(), pcs.value());
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.status().code, ErrorCode::InvalidMesh);
    EXPECT_NE(refused.status().message.find("lid-less crate"), std::string::npos) << refused.status().message;
    EXPECT_NE(refused.status().message.find("open-box"), std::string::npos) << refused.status().message;
    // GPU-driven, the candidates are known only on the GPU: the open object is not drawn, its pair
    // not tested, and the frame says so.
    ConsistentPairsFrameDetails details;
    auto results = detector->run(scene.value(), &details);
    ASSERT_TRUE(results) << results.status().describe();
    EXPECT_TRUE(results->truncated);
    EXPECT_TRUE(results->pairs.empty());
    EXPECT_EQ(details.drawnObjects, 1u);
    ASSERT_EQ(results->warnings.size(), 1u);
    EXPECT_NE(results->warnings[0].find("lid-less crate"), std::string::npos) << results->warnings[0];
    EXPECT_NE(results->warnings[0].find("open-box"), std::string::npos) << results->warnings[0];
}

TEST_F(ConsistentPairsDetectorTest, PointCapacityKeepsExactCountAndSaysTruncated) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    MeshId ball = addMesh(scene.value(), solids::sphere(0.5f, 2));
    addObject(scene.value(), ball, glm::mat4(1.0f));
    addObject(scene.value(), ball, glm::translate(glm::mat4(1.0f), {0.6f, 0.2f, 0.1f}));
    ConsistentPairsSettings large = testSettings(128);
    ConsistentPairsFrameDetails all;
    auto reference = detect(scene.value(), all, large);
    ASSERT_TRUE(reference) << reference.status().describe();
    ASSERT_GT(all.pointCount, 16u);
    EXPECT_EQ(all.points.size(), all.pointCount);

    ConsistentPairsSettings small = large;
    small.pointCapacity = 16;
    ConsistentPairsFrameDetails some;
    auto results = detect(scene.value(), some, small);
    ASSERT_TRUE(results) << results.status().describe();
    test::expectPointsTruncated(results.value(), some, all);
    EXPECT_EQ(some.points.size(), 16u);
    EXPECT_EQ(results->pairs.size(), 1u);
}

TEST_F(ConsistentPairsDetectorTest, OverTheBroadphasesPairsWithReportFields) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    addOverlappingBalls(scene.value());
    auto detector = ConsistentPairsDetector::create(context_, testSettings(128));
    ASSERT_TRUE(detector) << detector.status().describe();
    auto pcs = runBroadphase(scene.value());
    ASSERT_TRUE(pcs) << pcs.status().describe();
    ConsistentPairsFrameDetails details;
    auto results = detector->run(scene.value(), pcs.value(), &details);
    ASSERT_TRUE(results) << results.status().describe();
    ASSERT_EQ(results->pairs.size(), 1u);
    nlohmann::json json = tools::toJson(details);
    EXPECT_EQ(json["iterations"], details.iterationsRun);
    EXPECT_EQ(json["fragments_per_peel"].size(), details.fragmentsPerPeel.size());
    EXPECT_GT(json["inconsistent_pixels"].get<uint32_t>(), 0u);
    EXPECT_EQ(detector->settings().layersPerIteration, 3u);
    EXPECT_EQ(detector->settings().maxIterations, 8u);
}

TEST_F(ConsistentPairsDetectorTest, NoCandidatesAndBadInputs) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    addBoxesApart(scene.value());
    auto detector = ConsistentPairsDetector::create(context_, testSettings(128));
    ASSERT_TRUE(detector) << detector.status().describe();
    ConsistentPairsFrameDetails details;
    auto results = detector->run(scene.value(), &details);
    ASSERT_TRUE(results) << results.status().describe();
    EXPECT_FALSE(results->colliding);
    EXPECT_EQ(details.drawnObjects, 0u);
    EXPECT_EQ(details.iterationsRun, 0u);

    test::expectBadCandidatesRefused(detector.value(), scene.value());

    ConsistentPairsSettings layers;
    layers.layersPerIteration = 1;
    test::expectSettingsRefused<ConsistentPairsDetector>(context_, layers);

    // More objects than one binding of their draws holds (LargeScene takes 70,002).
    ConsistentPairsSettings objects;
    objects.maxObjects = 0xffffffffu;
    test::expectSettingsRefused<ConsistentPairsDetector>(context_, objects);
    auto tooMany = ConsistentPairsDetector::create(context_, objects);
    ASSERT_FALSE(tooMany);
    EXPECT_NE(tooMany.status().message.find("ConsistentPairsSettings::maxObjects"), std::string::npos)
        << tooMany.status().describe();
}

// The slot's index buffer (collision/scene/scene_index_cache.h) is a persistent graph buffer. When a
// frame for a larger scene cannot create its buffers, later frames must not read indices the
// buffer no longer holds: scene A and then scene B still give their own answers.
TEST_F(ConsistentPairsDetectorTest, AFrameWhoseBuffersCouldNotBeCreatedLeavesNoStaleIndices) {
    auto sceneA = Scene::create(context_, kVolumeMethodRequirements);
    auto sceneB = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(sceneA && sceneB);
    addOverlappingBoxes(sceneA.value());
    addOverlappingBalls(sceneB.value());  // more triangles: its index buffer must grow
    // Each scene's answer from a detector that never failed (OverlappingBoxesFoundSeparatedNot and
    // the ball tests check those against the oracle).
    std::vector<ConsistentPairsFrameDetails> expected(2);
    const Scene* scenes[] = {&sceneA.value(), &sceneB.value()};
    for (int s = 0; s < 2; ++s) {
        auto reference = ConsistentPairsDetector::create(context_, testSettings());
        ASSERT_TRUE(reference);
        auto results = reference->run(*scenes[s], &expected[s]);
        ASSERT_TRUE(results) << results.status().describe();
        ASSERT_EQ(results->pairs.size(), 1u);
    }

    auto detector = ConsistentPairsDetector::create(context_, testSettings());
    ASSERT_TRUE(detector) << detector.status().describe();
    ASSERT_TRUE(detector->run(sceneA.value()));
    {
        test::FailingBufferCreation failing(vk());
        auto failed = detector->run(sceneB.value());
        ASSERT_FALSE(failed);
        EXPECT_EQ(failed.status().code, ErrorCode::OutOfDeviceMemory) << failed.status().describe();
    }
    for (int round = 0; round < 2; ++round) {  // both slots
        for (int s = 0; s < 2; ++s) {
            ConsistentPairsFrameDetails details;
            auto results = detector->run(*scenes[s], &details);
            ASSERT_TRUE(results) << results.status().describe();
            ASSERT_EQ(results->pairs.size(), 1u);
            EXPECT_EQ(details.pointCount, expected[s].pointCount) << "scene " << s << " round " << round;
            EXPECT_EQ(details.inconsistentPixels, expected[s].inconsistentPixels);
        }
    }
}

}  // namespace
}  // namespace vkc::consistent_pairs_test
