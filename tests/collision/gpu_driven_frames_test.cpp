// Tier B: the detectors driven the way a renderer drives them (issue 13): the host owns a vertex
// buffer it rewrites on the GPU every frame (vkCmdUpdateBuffer in its own command buffer), the
// broadphase and the detector are recorded into that command buffer, and the detector reads the
// broadphase's pairs and boxes on the GPU (record(cmd, scene, broadphase, frame)): no CPU bounds
// are given, so none can be stale. A sphere moves towards another while it grows (its object
// transform and its vertices both change every frame); every frame's answer is compared with the
// exact oracle on the positions the GPU read, including the frame on which they start to touch.
#include "collision/reference/intersection_volume.h"
#include "collision/reference/triangle_pairs.h"
#include "collision/scene/generated_solids.h"
#include "tests/support/host_frame_loop.h"
#include "tests/support/test_geometry.h"
#include "tests/support/vulkan_test.h"
#include "vk/buffer.h"
#include "vkcollide/aabb_tree.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/collision_frame.h"
#include "vkcollide/consistent_pairs.h"
#include "vkcollide/ebpi.h"
#include "vkcollide/ldi.h"
#include "vkcollide/scene.h"
#include "vkcollide/stencil.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <span>

namespace vkc {
namespace {

constexpr int kFrames = 20;

// Frame f: the growing sphere's radius and its centre's x (the fixed sphere has radius 0.5 at the
// origin): apart until frame 10, touching from frame 11 (0.5 + r(f) > x(f)), deep by frame 19.
float growingRadius(int frame) { return 0.3f + 0.02f * float(frame); }
double growingCentre(int frame) { return 1.6 - 0.06 * double(frame); }

class GpuDrivenFramesTest : public test::VulkanTest {
protected:
    void SetUp() override {
        test::VulkanTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        VkCommandPoolCreateInfo pool = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        pool.queueFamilyIndex = vk().queueFamilyIndex;
        ASSERT_EQ(vk().vkd.vkCreateCommandPool(vk().device, &pool, nullptr, &pool_), VK_SUCCESS);
        VkCommandBufferAllocateInfo allocate = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        allocate.commandPool = pool_;
        allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        allocate.commandBufferCount = 1;
        ASSERT_EQ(vk().vkd.vkAllocateCommandBuffers(vk().device, &allocate, &cmd_), VK_SUCCESS);
        unit_ = solids::sphere(1.0f, 2);  // 320 triangles; the host scales it in its own buffer
        auto buffer = createBuffer(vk(), {unit_.positions.size() * sizeof(glm::vec3),
                                          VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                          MemoryUsage::DeviceLocal, "host growing sphere"});
        ASSERT_TRUE(buffer) << buffer.status().describe();
        vertices_ = buffer.value();
    }
    void TearDown() override {
        if (pool_ != VK_NULL_HANDLE) {
            (void)vk().vkd.vkQueueWaitIdle(vk().queue);
            vk().vkd.vkDestroyCommandPool(vk().device, pool_, nullptr);
        }
        destroyBuffer(vk(), vertices_);
        test::VulkanTest::TearDown();
    }

    std::vector<glm::vec3> grownPositions(int frame) const {
        std::vector<glm::vec3> positions = unit_.positions;
        for (glm::vec3& p : positions) p *= growingRadius(frame);
        return positions;
    }
    glm::dmat4 grownPlacement(int frame) const {
        return glm::translate(glm::dmat4(1.0), glm::dvec3(growingCentre(frame), 0.03, -0.02));
    }

    // One frame as a host records it: its vertex update, the broadphase, then `recordDetector`,
    // submitted with both completion signals (the detector's from `detectorSignal`) and waited
    // for through `read` (never blocking).
    // The host's part of frame `frame`: its command buffer begun, the grown vertices written into
    // its own buffer, the grown sphere placed.
    void beginFrame(Scene& scene, uint64_t frame) {
        VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        ASSERT_EQ(vk().vkd.vkBeginCommandBuffer(cmd_, &begin), VK_SUCCESS);
        const std::vector<glm::vec3> positions = grownPositions(int(frame));
        vk().vkd.vkCmdUpdateBuffer(cmd_, vertices_.buffer, 0, positions.size() * sizeof(glm::vec3), positions.data());
        ASSERT_TRUE(scene.setTransform(1, grownPlacement(int(frame))));
    }
    // Ends the command buffer and submits it with `signals`.
    void submitFrame(std::span<const VkSemaphoreSubmitInfo> signals) {
        ASSERT_EQ(vk().vkd.vkEndCommandBuffer(cmd_), VK_SUCCESS);
        VkCommandBufferSubmitInfo command = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
        command.commandBuffer = cmd_;
        VkSubmitInfo2 submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
        submit.commandBufferInfoCount = 1;
        submit.pCommandBufferInfos = &command;
        submit.signalSemaphoreInfoCount = uint32_t(signals.size());
        submit.pSignalSemaphoreInfos = signals.data();
        ASSERT_EQ(vk().vkd.vkQueueSubmit2(vk().queue, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
    }

    template <class RecordDetector, class Signal, class Read>
    void runFrame(Scene& scene, Broadphase& broadphase, uint64_t frame, RecordDetector&& recordDetector,
                  Signal&& detectorSignal, Read&& read) {
        beginFrame(scene, frame);
        if (HasFatalFailure()) return;
        Status recorded = broadphase.record(cmd_, scene, frame);
        ASSERT_TRUE(recorded.ok()) << recorded.describe();
        recorded = recordDetector(cmd_);
        ASSERT_TRUE(recorded.ok()) << recorded.describe();
        const VkSemaphoreSubmitInfo signals[] = {broadphase.completionSignal(frame), detectorSignal()};
        submitFrame(signals);
        if (HasFatalFailure()) return;
        const Status done = test::pollUntilReady(read);
        ASSERT_TRUE(done.ok()) << done.describe();
        // The one command buffer is reused next frame: the frame's signal says the GPU is done.
        BroadphaseResults pcs;
        ASSERT_TRUE(test::pollUntilReady([&] { return broadphase.results(frame, pcs); }).ok());
    }

    // kFrames frames of `detector` (and its details) recorded GPU-driven after the broadphase, each
    // handed to `check(frame, results, details)`.
    template <class Detector, class Details, class Check>
    void runGpuDrivenFrames(Scene& scene, Detector& detector, Check&& check) {
        auto broadphase = Broadphase::create(context_);
        ASSERT_TRUE(broadphase) << broadphase.status().describe();
        for (uint64_t frame = 0; frame < kFrames; ++frame) {
            SCOPED_TRACE("frame " + std::to_string(frame));
            FrameResults results;
            Details details;
            runFrame(
                scene, broadphase.value(), frame,
                [&](VkCommandBuffer cmd) { return detector.record(cmd, scene, broadphase.value(), frame); },
                [&] { return detector.completionSignal(frame); },
                [&] { return detector.results(frame, results, &details); });
            if (HasFatalFailure()) return;
            check(int(frame), results, details);
        }
    }

    // The scene: the fixed sphere (uploaded) and the growing one, read in place from the host's buffer.
    Result<Scene> makeScene(MeshData& fixed) {
        fixed = solids::sphere(0.5f, 2);
        auto scene = Scene::create(context_);
        if (!scene) return scene.status();
        auto fixedMesh = scene->addMesh({"fixed sphere", &fixed});
        auto growingMesh = scene->addMesh({"growing sphere", &unit_, vertices_.buffer, 0, 12, /*deformedEveryFrame=*/true});
        if (!fixedMesh) return fixedMesh.status();
        if (!growingMesh) return growingMesh.status();
        VKC_TRY(scene->addObject(fixedMesh.value(), glm::dmat4(1.0)).status());
        VKC_TRY(scene->addObject(growingMesh.value(), grownPlacement(0)).status());
        return scene;
    }

    // The exact intersection volume of the two spheres as the GPU read them in `frame`.
    double oracleVolume(const MeshData& fixed, int frame) const {
        MeshData grown = unit_;
        grown.positions = grownPositions(frame);
        auto volume = reference::intersectionVolume(fixed, glm::dmat4(1.0), grown, grownPlacement(frame));
        EXPECT_TRUE(volume) << volume.status().describe();
        return volume ? volume.value() : 0.0;
    }

    // The exact oracle on the positions the GPU read in `frame`.
    std::set<std::pair<uint32_t, uint32_t>> oracleTrianglePairs(const MeshData& fixed, int frame) const {
        MeshData grown = unit_;
        grown.positions = grownPositions(frame);
        auto oracle = reference::intersectingTrianglePairs(fixed, glm::dmat4(1.0), grown, grownPlacement(frame));
        EXPECT_TRUE(oracle) << oracle.status().describe();
        std::set<std::pair<uint32_t, uint32_t>> pairs;
        if (oracle)
            for (const auto& p : oracle->pairs) pairs.insert({p.a, p.b});
        return pairs;
    }

    // An image-space method's answer (stencil, consistent-pairs) for `frame` against the geometry:
    // the pair found whenever the spheres' meshes overlap by a volume (`exact`), never while they are
    // more than two pixels apart, and with `undecided` (stencil) found or named undecided (paper 1,
    // 6.4) exactly when their boxes overlap (the GPU chose the candidates); every point inside both
    // spheres within two pixels; no mesh blamed.
    void expectImageSpaceFrame(int frame, double exact, const FrameResults& results, float pixelSize,
                               const std::vector<ObjectPair>* undecided) const {
        const glm::dvec3 centre = glm::dvec3(grownPlacement(frame)[3]);
        const double radius = growingRadius(frame);
        const double gap = glm::length(centre) - 0.5 - radius;  // of the spheres the meshes lie in
        // The meshes' boxes along x (the broadphase's; y and z always overlap here).
        float unitMin = 0.0f, unitMax = 0.0f;
        for (const glm::vec3& p : unit_.positions) unitMin = std::min(unitMin, p.x), unitMax = std::max(unitMax, p.x);
        const double boxGap = centre.x + radius * unitMin - 0.5 * unitMax;
        const double tolerance = 2.0 * pixelSize;
        for (const std::string& warning : results.warnings) EXPECT_EQ(warning.find("closed"), std::string::npos) << warning;
        if (exact > 1e-4) {
            ASSERT_EQ(results.pairs.size(), 1u) << "exact volume " << exact;
            EXPECT_TRUE(results.colliding);
        }
        if (gap > tolerance) EXPECT_TRUE(results.pairs.empty()) << "gap " << gap;
        if (undecided && std::abs(boxGap) > 1e-5)
            EXPECT_EQ(results.pairs.size() + undecided->size(), boxGap < 0.0 ? 1u : 0u) << "box gap " << boxGap;
        for (const PairResult& pair : results.pairs) {
            EXPECT_EQ(pair.a, 0u);
            EXPECT_EQ(pair.b, 1u);
            EXPECT_FALSE(pair.points.empty());
            for (const glm::vec3& point : pair.points) {
                EXPECT_LE(glm::length(glm::dvec3(point)), 0.5 + tolerance);
                EXPECT_LE(glm::length(glm::dvec3(point) - centre), radius + tolerance);
            }
        }
    }

    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkCommandBuffer cmd_ = VK_NULL_HANDLE;
    MeshData unit_;
    Buffer vertices_;
};

TEST_F(GpuDrivenFramesTest, AabbTreeMatchesTheOracleOnEveryFrame) {
    MeshData fixed;
    auto scene = makeScene(fixed);
    ASSERT_TRUE(scene) << scene.status().describe();
    auto broadphase = Broadphase::create(context_);
    AabbTreeSettings settings;
    settings.keepTrianglePairList = true;
    auto detector = AabbTreeDetector::create(context_, settings);
    ASSERT_TRUE(broadphase && detector);
    int touching = 0;
    for (uint64_t frame = 0; frame < kFrames; ++frame) {
        SCOPED_TRACE("frame " + std::to_string(frame));
        FrameResults results;
        runFrame(
            scene.value(), broadphase.value(), frame,
            [&](VkCommandBuffer cmd) { return detector->record(cmd, scene.value(), broadphase.value(), frame); },
            [&] { return detector->completionSignal(frame); }, [&] { return detector->results(frame, results); });
        if (HasFatalFailure()) return;
        const auto expected = oracleTrianglePairs(fixed, int(frame));
        std::set<std::pair<uint32_t, uint32_t>> found;
        for (const PairResult& pair : results.pairs)
            for (const auto& t : pair.trianglePairList) found.insert({t[0], t[1]});
        EXPECT_EQ(found, expected);
        EXPECT_EQ(results.colliding, !expected.empty());
        EXPECT_FALSE(results.truncated);
        touching += !expected.empty();
    }
    EXPECT_GE(touching, 5);
    EXPECT_LE(touching, 12);  // the first frames are apart: the scenario tests the moment of contact
}

// ebpi from the broadphase's pairs and boxes on the GPU: the pair's boxes, views and tables are set
// up there, so the volume and its bound follow the geometry as drawn from the first touching frame.
TEST_F(GpuDrivenFramesTest, EbpiVolumeWithinItsBoundOfTheExactVolumeOnEveryFrame) {
    MeshData fixed;
    auto scene = makeScene(fixed);
    ASSERT_TRUE(scene) << scene.status().describe();
    auto broadphase = Broadphase::create(context_);
    EbpiSettings settings;
    settings.tolerance = 2e-3;
    auto detector = EbpiDetector::create(context_, settings);
    ASSERT_TRUE(broadphase && detector);
    int measured = 0;
    for (uint64_t frame = 0; frame < kFrames; ++frame) {
        SCOPED_TRACE("frame " + std::to_string(frame));
        FrameResults results;
        EbpiFrameDetails details;
        runFrame(
            scene.value(), broadphase.value(), frame,
            [&](VkCommandBuffer cmd) { return detector->record(cmd, scene.value(), broadphase.value(), frame); },
            [&] { return detector->completionSignal(frame); },
            [&] { return detector->results(frame, results, &details); });
        if (HasFatalFailure()) return;
        const double exact = oracleVolume(fixed, int(frame));
        EXPECT_FALSE(results.truncated);
        EXPECT_TRUE(results.warnings.empty()) << results.warnings.front();
        // Every pair whose volume exceeds the tolerance is reported, within its bound.
        if (exact > settings.tolerance) ASSERT_EQ(results.pairs.size(), 1u);
        for (const PairResult& pair : results.pairs) {
            EXPECT_EQ(pair.a, 0u);
            EXPECT_EQ(pair.b, 1u);
            ASSERT_TRUE(pair.volume && pair.volumeErrorBound);
            EXPECT_LE(*pair.volumeErrorBound, settings.tolerance);
            EXPECT_LE(std::abs(*pair.volume - exact), *pair.volumeErrorBound)
                << "volume " << *pair.volume << ", exact " << exact << ", bound " << *pair.volumeErrorBound;
            ++measured;
        }
        ASSERT_LE(details.pairs.size(), 1u);  // the pair, while this frame's boxes overlap
    }
    EXPECT_GE(measured, 5);
}

// stencil from the broadphase's pairs and boxes on the GPU: the views are fitted to the pairs'
// overlap and the drawn objects chosen there (indirect draws), so no CPU box is given or stale.
TEST_F(GpuDrivenFramesTest, StencilFindsThePairWheneverTheSpheresOverlap) {
    MeshData fixed;
    auto scene = makeScene(fixed);
    ASSERT_TRUE(scene) << scene.status().describe();
    auto detector = StencilDetector::create(context_);
    ASSERT_TRUE(detector) << detector.status().describe();
    int found = 0;
    runGpuDrivenFrames<StencilDetector, StencilFrameDetails>(
        scene.value(), detector.value(), [&](int frame, const FrameResults& results, const StencilFrameDetails& details) {
            expectImageSpaceFrame(frame, oracleVolume(fixed, frame), results, details.pixelSize, &details.undecidedPairs);
            EXPECT_EQ(details.drawnObjects, results.pairs.size() + details.undecidedPairs.size() == 1 ? 2u : 0u);
            found += int(results.pairs.size());
        });
    EXPECT_GE(found, 5);
}

// consistent-pairs from the broadphase's pairs and boxes on the GPU: its view is fitted and its
// objects' draws (one per iteration) are set there, so no CPU box is given or stale.
TEST_F(GpuDrivenFramesTest, ConsistentPairsFindsThePairWheneverTheSpheresOverlap) {
    MeshData fixed;
    auto scene = makeScene(fixed);
    ASSERT_TRUE(scene) << scene.status().describe();
    auto detector = ConsistentPairsDetector::create(context_);
    ASSERT_TRUE(detector) << detector.status().describe();
    int found = 0;
    runGpuDrivenFrames<ConsistentPairsDetector, ConsistentPairsFrameDetails>(
        scene.value(), detector.value(),
        [&](int frame, const FrameResults& results, const ConsistentPairsFrameDetails& details) {
            expectImageSpaceFrame(frame, oracleVolume(fixed, frame), results, details.pixelSize, nullptr);
            EXPECT_FALSE(results.truncated);
            EXPECT_EQ(details.iterationsRun, details.drawnObjects == 0 ? 0u : 1u);  // two spheres: one iteration
            found += int(results.pairs.size());
        });
    EXPECT_GE(found, 5);
}

// ldi from the broadphase's pairs and boxes on the GPU: the VoI, views, tiles, first draws and vertex
// tests are set up there (ldi-pair-setup) and the bound comes from the triangles drawn, so the
// volume and its bound follow the grown sphere from the first touching frame; the inside vertices
// are the oracle's away from the other surface.
TEST_F(GpuDrivenFramesTest, LdiVolumeWithinItsBoundOfTheExactVolumeOnEveryFrame) {
    MeshData fixed;
    auto scene = makeScene(fixed);
    ASSERT_TRUE(scene) << scene.status().describe();
    auto detector = LdiDetector::create(context_);
    ASSERT_TRUE(detector) << detector.status().describe();
    int measured = 0;
    runGpuDrivenFrames<LdiDetector, LdiFrameDetails>(
        scene.value(), detector.value(), [&](int frame, const FrameResults& results, const LdiFrameDetails& details) {
            const double exact = oracleVolume(fixed, frame);
            EXPECT_FALSE(results.truncated);
            EXPECT_TRUE(results.warnings.empty()) << results.warnings.front();
            // The pair is tested exactly while this frame's boxes overlap: x gap of the meshes' boxes.
            const glm::dvec3 centre = glm::dvec3(grownPlacement(frame)[3]);
            float unitMin = 0.0f;
            for (const glm::vec3& p : unit_.positions) unitMin = std::min(unitMin, p.x);
            const double boxGap = centre.x + growingRadius(frame) * unitMin - 0.5;
            if (std::abs(boxGap) > 1e-5) EXPECT_EQ(details.pairs.size(), boxGap < 0.0 ? 1u : 0u) << "box gap " << boxGap;
            if (exact > 1e-4) ASSERT_EQ(results.pairs.size(), 1u) << "exact " << exact;
            for (const LdiPairDetails& pair : details.pairs) {
                EXPECT_EQ(pair.a, 0u);
                EXPECT_EQ(pair.b, 1u);
                EXPECT_FALSE(pair.truncated);
                EXPECT_LE(std::abs(pair.volume - exact), pair.volumeErrorBound)
                    << "volume " << pair.volume << ", exact " << exact << ", bound " << pair.volumeErrorBound;
                // The VoI is this frame's overlap: it reaches the grown sphere's near side.
                EXPECT_NEAR(pair.box.min.x, centre.x + growingRadius(frame) * unitMin, 1e-5);
                measured += exact > 1e-6;
            }
        });
    EXPECT_GE(measured, 5);
}

// One object, one signal (issue 13.4): CollisionFrame records the broadphase, aabb-tree, ebpi,
// stencil, consistent-pairs and ldi into the host's command buffer, the submit carries only its completion signal, and one
// results() gives every method's answer, right on every frame. Odd frames are never read: recording goes on
// (the members' slots are released once the frame's signal has passed, not only by results()).
TEST_F(GpuDrivenFramesTest, CollisionFrameRecordsEveryMethodBehindOneSignal) {
    MeshData fixed;
    auto scene = makeScene(fixed);
    ASSERT_TRUE(scene) << scene.status().describe();
    CollisionFrameSettings settings;
    settings.aabbTree = AabbTreeSettings{};
    settings.aabbTree->keepTrianglePairList = true;
    settings.ebpi = EbpiSettings{};
    settings.ebpi->tolerance = 2e-3;
    settings.stencil = StencilSettings{};
    settings.consistentPairs = ConsistentPairsSettings{};
    settings.ldi = LdiSettings{};
    auto collisions = CollisionFrame::create(context_, settings);
    ASSERT_TRUE(collisions) << collisions.status().describe();
    int touching = 0;
    for (uint64_t frame = 0; frame < kFrames; ++frame) {
        SCOPED_TRACE("frame " + std::to_string(frame));
        beginFrame(scene.value(), frame);
        if (HasFatalFailure()) return;
        const Status recorded = collisions->record(cmd_, scene.value(), frame);
        ASSERT_TRUE(recorded.ok()) << recorded.describe();
        const VkSemaphoreSubmitInfo signal = collisions->completionSignal(frame);
        submitFrame({&signal, 1});
        if (HasFatalFailure()) return;
        if (frame % 2 == 1) {  // not read: only the host's own wait before reusing its command buffer
            ASSERT_EQ(vk().vkd.vkQueueWaitIdle(vk().queue), VK_SUCCESS);
            continue;
        }
        CollisionFrameResults results;
        const Status done = test::pollUntilReady([&] { return collisions->results(frame, results); });
        ASSERT_TRUE(done.ok()) << done.describe();
        ASSERT_TRUE(results.aabbTree && results.ebpi && results.stencil && results.consistentPairs && results.ldi);
        const auto expected = oracleTrianglePairs(fixed, int(frame));
        std::set<std::pair<uint32_t, uint32_t>> found;
        for (const PairResult& pair : results.aabbTree->pairs)
            for (const auto& t : pair.trianglePairList) found.insert({t[0], t[1]});
        EXPECT_EQ(found, expected);
        EXPECT_EQ(results.broadphase.pairCount, expected.empty() ? results.broadphase.pairCount : 1u);
        const double exact = oracleVolume(fixed, int(frame));
        if (exact > settings.ebpi->tolerance) ASSERT_EQ(results.ebpi->pairs.size(), 1u);
        for (const PairResult& pair : results.ebpi->pairs) {
            ASSERT_TRUE(pair.volume && pair.volumeErrorBound);
            EXPECT_LE(std::abs(*pair.volume - exact), *pair.volumeErrorBound);
        }
        if (exact > 1e-4) ASSERT_EQ(results.ldi->pairs.size(), 1u);
        for (const PairResult& pair : results.ldi->pairs) {
            ASSERT_TRUE(pair.volume && pair.volumeErrorBound);
            EXPECT_LE(std::abs(*pair.volume - exact), *pair.volumeErrorBound);
        }
        // The view is fitted to the boxes' overlap; a pixel is at most the fixed sphere's size / 512.
        expectImageSpaceFrame(int(frame), exact, *results.stencil, 1.0f / 512.0f, nullptr);
        expectImageSpaceFrame(int(frame), exact, *results.consistentPairs, 1.0f / 512.0f, nullptr);
        touching += !expected.empty();
    }
    EXPECT_GE(touching, 3);
}

}  // namespace
}  // namespace vkc
