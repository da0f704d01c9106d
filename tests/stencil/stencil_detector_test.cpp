// Tier B: StencilDetector (paper 1) on a device under the validation layer, on small hand-placed
// cases against the exact oracle: overlapping and separated boxes, an object fully inside another
// (edges inside a volume), one view over the broadphase's pairs (as the harness runs it), an open
// mesh (warning, not a crash), frames in flight, and every pipeline layout against its SPIR-V.
#include "passes/stencil/stencil_passes.h"
#include "tests/stencil/stencil_test_support.h"
#include "tests/support/failing_buffer_creation.h"
#include "tests/support/reflection_check.h"

#include "spirv/candidate_index.comp.h"
#include "spirv/pair_compact.comp.h"
#include "spirv/stencil_empty.frag.h"
#include "spirv/fullscreen_triangle.vert.h"
#include "spirv/stencil_geometry.vert.h"
#include "spirv/stencil_normals.comp.h"
#include "spirv/stencil_penetrated.frag.h"
#include "spirv/stencil_penetrating.frag.h"
#include "spirv/stencil_scan.comp.h"

#include <algorithm>

namespace vkc::stenciltest {
namespace {

constexpr uint32_t kResolution = 128;

StencilSettings testSettings(uint32_t views = 3) {
    StencilSettings settings;
    settings.resolution = kResolution;
    settings.views = views;
    settings.maxObjects = 512;
    return settings;
}

TEST(StencilLayouts, MatchShaders) {
    EXPECT_TRUE(test::checkPipelineLayout(kSpirv_stencil_geometry_vert, kStencilDrawLayout, "geometry.vert").ok());
    EXPECT_TRUE(test::checkPipelineLayout(kSpirv_stencil_penetrating_frag, kStencilDrawLayout, "penetrating").ok());
    EXPECT_TRUE(test::checkPipelineLayout(kSpirv_stencil_penetrated_frag, kStencilDrawLayout, "penetrated").ok());
    EXPECT_TRUE(test::checkPipelineLayout(kSpirv_stencil_empty_frag, {{}, 0}, "empty").ok());
    EXPECT_TRUE(test::checkPipelineLayout(kSpirv_fullscreen_triangle_vert, kStencilFullscreenLayout, "fullscreen").ok());
    for (auto [spirv, layout, name] :
         {std::tuple{std::span<const uint32_t>(kSpirv_stencil_normals_comp), &kStencilNormalsLayout, "normals"},
          std::tuple{std::span<const uint32_t>(kSpirv_stencil_scan_comp), &kStencilScanLayout, "scan"},
          std::tuple{std::span<const uint32_t>(kSpirv_pair_compact_comp), &kStencilCompactLayout, "compact"},
          std::tuple{std::span<const uint32_t>(kSpirv_candidate_index_comp), &kStencilCompactLayout, "candidate index"}}) {
        Status status = test::checkPipelineLayout(spirv, *layout, name);
        EXPECT_TRUE(status.ok()) << status.describe();
    }
}

class StencilDetectorTest : public StencilTest {};

TEST_F(StencilDetectorTest, OverlappingBoxesFoundWithPointsAndIds) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    addOverlappingBoxes(scene.value());
    auto detector = StencilDetector::create(context_, testSettings());
    ASSERT_TRUE(detector) << detector.status().describe();
    StencilFrameDetails details;
    auto results = detector->run(scene.value(), &details);
    ASSERT_TRUE(results) << results.status().describe();
    EXPECT_TRUE(results->colliding);
    EXPECT_TRUE(details.interference);
    ASSERT_TRUE(test::onlyPair(results.value(), 0, 1));
    EXPECT_FALSE(results->pairs[0].penetrating.empty());
    EXPECT_FALSE(results->pairs[0].penetrated.empty());
    EXPECT_TRUE(results->warnings.empty()) << results->warnings.front();
    for (uint64_t n : details.negativeSamples) EXPECT_EQ(n, 0u);
    EXPECT_FALSE(details.penetratingObjects.empty());
    EXPECT_FALSE(details.penetratedObjects.empty());
    EXPECT_TRUE(results->gpuTimingsMs.count("stencil-count"));
    EXPECT_TRUE(results->gpuTimingsMs.count("stencil-edges"));
    expectAgreesWithOracle(results.value(), details);
    expectPointsNearVolumes(results.value(), details);

    // Later frames reuse the frame slots (persistent images and buffers synchronised against the
    // slot's previous frame) and give the same answer.
    for (int frame = 1; frame < 4; ++frame) {
        auto again = detector->run(scene.value());
        ASSERT_TRUE(again) << again.status().describe();
        ASSERT_EQ(again->pairs.size(), 1u);
        EXPECT_EQ(again->pairs[0].points.size(), results->pairs[0].points.size());
        EXPECT_EQ(again->pairs[0].penetrating, results->pairs[0].penetrating);
    }
}

// A scene created after another is destroyed usually lands at the freed address, here with meshes
// of the same sizes; each frame slot's cached topology must still become the new scene's. Stale
// indices would draw the reversed box inside out (its vertex i is the old one's opposite corner).
TEST_F(StencilDetectorTest, SceneMadeAfterAnotherUsesItsOwnTopology) {
    auto detector = StencilDetector::create(context_, testSettings());
    ASSERT_TRUE(detector) << detector.status().describe();
    {
        auto first = Scene::create(context_, kVolumeMethodRequirements);
        ASSERT_TRUE(first);
        addOverlappingBoxes(first.value());
        for (int frame = 0; frame < 2; ++frame) {  // fills both frame slots' caches
            auto results = detector->run(first.value());
            ASSERT_TRUE(results) << results.status().describe();
            ASSERT_TRUE(test::onlyPair(results.value(), 0, 1));
        }
    }
    clearObjects();
    auto second = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(second);
    MeshData reversed = solids::box({1.0f, 1.0f, 1.0f});
    std::reverse(reversed.positions.begin(), reversed.positions.end());
    const uint32_t last = uint32_t(reversed.positions.size()) - 1;
    for (uint32_t& index : reversed.indices) index = last - index;
    MeshId box = addMesh(second.value(), reversed);
    addObject(second.value(), box, glm::mat4(1.0f));
    addObject(second.value(), box, glm::translate(glm::mat4(1.0f), {0.7f, 0.2f, 0.1f}) *
                                       glm::rotate(glm::mat4(1.0f), 0.5f, glm::vec3(0.3f, 1.0f, 0.2f)));
    for (int frame = 0; frame < 2; ++frame) {
        StencilFrameDetails details;
        auto results = detector->run(second.value(), &details);
        ASSERT_TRUE(results) << results.status().describe();
        ASSERT_TRUE(test::onlyPair(results.value(), 0, 1)) << "frame " << frame;
        EXPECT_TRUE(results->warnings.empty()) << results->warnings.front();
        expectAgreesWithOracle(results.value(), details);
    }
}

TEST_F(StencilDetectorTest, SeparatedBoxesNotReported) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    MeshId box = addMesh(scene.value(), solids::box({1.0f, 1.0f, 1.0f}));
    addObject(scene.value(), box, glm::mat4(1.0f));
    // Boxes that overlap as AABBs (so they are drawn) but are separated by a rotated gap.
    addObject(scene.value(), box, glm::translate(glm::mat4(1.0f), {1.15f, 1.15f, 0.0f}) *
                                      glm::rotate(glm::mat4(1.0f), glm::radians(45.0f), glm::vec3(0, 0, 1)));
    StencilFrameDetails details;
    auto results = detect(scene.value(), details, testSettings());
    ASSERT_TRUE(results) << results.status().describe();
    EXPECT_EQ(details.drawnObjects, 2u) << "the broadphase should pass the pair";
    EXPECT_FALSE(results->colliding);
    EXPECT_TRUE(results->pairs.empty());
    expectAgreesWithOracle(results.value(), details);
}

TEST_F(StencilDetectorTest, SmallObjectInsideLargeOneFound) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    addSphereInsideBox(scene.value());
    StencilFrameDetails details;
    auto results = detect(scene.value(), details, testSettings());
    ASSERT_TRUE(results) << results.status().describe();
    EXPECT_TRUE(results->colliding);
    ASSERT_TRUE(test::onlyPair(results.value(), 0, 1));
    // Only the small object's edges are inside: it penetrates, the big one is penetrated.
    EXPECT_EQ(results->pairs[0].penetrating, std::vector<uint32_t>{1});
    EXPECT_EQ(results->pairs[0].penetrated, std::vector<uint32_t>{0});
    expectPointsNearVolumes(results.value(), details);
}

TEST_F(StencilDetectorTest, OneViewOverTheBroadphasesPairs) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    addOverlappingBalls(scene.value());
    auto detector = StencilDetector::create(context_, testSettings(1));
    ASSERT_TRUE(detector) << detector.status().describe();
    auto pcs = runBroadphase(scene.value());
    ASSERT_TRUE(pcs) << pcs.status().describe();
    StencilFrameDetails details;
    auto results = detector->run(scene.value(), pcs.value(), &details);
    ASSERT_TRUE(results) << results.status().describe();
    EXPECT_EQ(detector->settings().views, 1u);
    // One view: one occlusion-query count of each kind.
    EXPECT_EQ(details.interferingSamples.size(), 1u);
    EXPECT_EQ(details.negativeSamples.size(), 1u);
    EXPECT_TRUE(test::onlyPair(results.value(), 0, 1));
    EXPECT_GT(expectAgreesWithOracle(results.value(), details), 0);
    expectPointsNearVolumes(results.value(), details);
}

TEST_F(StencilDetectorTest, OpenMeshGivesWarningNotCrash) {
    auto scene = Scene::create(context_, kObjectSpaceMethodRequirements);
    ASSERT_TRUE(scene);
    MeshData open = solids::box({1.0f, 1.0f, 1.0f});
    open.name = "open-box";
    // Drop the face looking down -z (towards the z view's eye): rays along +z then leave the box
    // through its +z face without entering it.
    std::vector<uint32_t> kept;
    for (size_t t = 0; t < open.indices.size(); t += 3) {
        glm::vec3 a = open.positions[open.indices[t]], b = open.positions[open.indices[t + 1]],
                  c = open.positions[open.indices[t + 2]];
        if (glm::cross(b - a, c - a).z < 0.0f) continue;
        kept.insert(kept.end(), open.indices.begin() + t, open.indices.begin() + t + 3);
    }
    ASSERT_EQ(kept.size(), open.indices.size() - 6);
    open.indices = kept;
    MeshId openId = addMesh(scene.value(), open);
    MeshId closed = addMesh(scene.value(), solids::box({1.0f, 1.0f, 1.0f}));
    addObject(scene.value(), openId, glm::mat4(1.0f));
    addObject(scene.value(), closed, glm::translate(glm::mat4(1.0f), {0.5f, 0.3f, 0.2f}));
    StencilFrameDetails details;
    auto results = detect(scene.value(), details, testSettings());
    ASSERT_TRUE(results) << results.status().describe();
    ASSERT_FALSE(results->warnings.empty());
    // Rays through the hole meet a back face without its front face: signed stencil < 0 (paper 4.1).
    uint64_t negative = 0;
    for (uint64_t n : details.negativeSamples) negative += n;
    EXPECT_GT(negative, 0u);
    bool counted = false;
    for (const std::string& warning : results->warnings)
        counted = counted || warning.find("negative signed stencil") != std::string::npos;
    EXPECT_TRUE(counted);
    bool named = false;
    for (const std::string& warning : results->warnings) named = named || warning.find("open-box") != std::string::npos;
    EXPECT_TRUE(named) << results->warnings.front();
}

TEST_F(StencilDetectorTest, FramesInFlightNeverBlock) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    addOverlappingBoxes(scene.value());
    auto detector = StencilDetector::create(context_, testSettings());
    ASSERT_TRUE(detector);
    test::expectResultsWaitForHostSignal(vk(), detector.value(), scene.value(), allPairs(), 1);
}

}  // namespace
}  // namespace vkc::stenciltest

namespace vkc::stenciltest {
namespace {

TEST_F(StencilDetectorTest, NoCandidatesAndBadInputs) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    addBoxesApart(scene.value());
    auto detector = StencilDetector::create(context_, testSettings());
    ASSERT_TRUE(detector) << detector.status().describe();
    StencilFrameDetails details;
    auto results = detector->run(scene.value(), &details);
    ASSERT_TRUE(results) << results.status().describe();
    EXPECT_FALSE(results->colliding);
    EXPECT_TRUE(results->pairs.empty());
    EXPECT_EQ(details.drawnObjects, 0u);

    test::expectBadCandidatesRefused(detector.value(), scene.value());

    StencilSettings views;
    views.views = 2;
    test::expectSettingsRefused<StencilDetector>(context_, views);
}

// ensureTopology (collision/stencil/stencil_detector_frame.cpp): when building a new scene's topology
// fails, the slot must not still claim the old scene, whose buffers it has already destroyed.
TEST_F(StencilDetectorTest, TopologyFailureForgetsOldScene) {
    auto sceneA = Scene::create(context_, kVolumeMethodRequirements);
    auto sceneB = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(sceneA && sceneB);
    addOverlappingBoxes(sceneA.value());
    addOverlappingBalls(sceneB.value());
    auto pcsA = runBroadphase(sceneA.value());
    auto pcsB = runBroadphase(sceneB.value());
    ASSERT_TRUE(pcsA && pcsB);
    StencilSettings settings = testSettings();
    settings.framesInFlight = 1;  // one slot: every frame reuses the same topology buffers
    auto detector = StencilDetector::create(context_, settings);
    ASSERT_TRUE(detector) << detector.status().describe();
    VulkanContext& vk = vulkanOf(context_);
    auto frameOf = [&](const Scene& scene, const BroadphaseResults& pcs, uint64_t frame) {
        return test::recordInHostSubmit(vk, [&](VkCommandBuffer cmd) {
            return detector->record(cmd, scene, pcs, frame);
        });
    };
    auto expectPairOf = [&](uint64_t frame) {
        ASSERT_EQ(test::signalFromHost(vk, detector->completionSignal(frame)), VK_SUCCESS);
        FrameResults out;
        Status read = detector->results(frame, out);
        ASSERT_TRUE(read.ok()) << read.describe();
        EXPECT_TRUE(test::onlyPair(out, 0, 1));
    };
    Status first = frameOf(sceneA.value(), pcsA.value(), 0);
    ASSERT_TRUE(first.ok()) << first.describe();
    expectPairOf(0);

    Status failed;
    {
        test::FailingBufferCreation failing(vk);
        failed = frameOf(sceneB.value(), pcsB.value(), 1);
    }
    EXPECT_EQ(failed.code, ErrorCode::OutOfDeviceMemory) << failed.describe();

    // Scene A again in the same frame: rebuilt, not drawn from destroyed buffers.
    Status again = frameOf(sceneA.value(), pcsA.value(), 1);
    ASSERT_TRUE(again.ok()) << again.describe();
    expectPairOf(1);
}

}  // namespace
}  // namespace vkc::stenciltest
