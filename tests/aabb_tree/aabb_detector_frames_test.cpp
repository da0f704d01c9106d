// Tier B: AabbTreeDetector over several frames: meshes deformed every frame stay exact after the
// GPU refit (CPU uploads and the host's own strided buffer), capacity overflow reports truncated
// with exact counts, and temporal coherence changes the work but never the results.
#include "aabb_detector_support.h"
#include "aabb_test_support.h"
#include "tests/support/detector_contract.h"
#include "tests/support/host_frame_loop.h"
#include "tests/support/test_geometry.h"

#include "vk/buffer.h"

#include <cmath>
#include <cstring>

namespace vkc {
namespace {

using namespace aabbtest;

class AabbDetectorFramesTest : public test::VulkanTest {
protected:
    AabbTreeDetector makeDetector(AabbTreeSettings settings = {}) {
        settings.keepTrianglePairList = true;
        auto detector = AabbTreeDetector::create(context_, settings);
        EXPECT_TRUE(detector) << detector.status().describe();
        return std::move(detector.value());
    }
    // Radial wobble of a sphere-like mesh, different every frame.
    static std::vector<glm::vec3> wobble(const std::vector<glm::vec3>& rest, int frame) {
        std::vector<glm::vec3> moved(rest.size());
        for (size_t i = 0; i < rest.size(); ++i) {
            const glm::vec3 p = rest[i];
            moved[i] = p * (1.0f + 0.2f * std::sin(5.0f * p.x + 3.0f * p.y + 0.9f * float(frame)));
        }
        return moved;
    }
};

// An icosphere deformed through Scene::updateVertices every frame against a box (588 triangles):
// the GPU refits the sphere's tree and the pairs stay equal to the oracle's; once the mesh stops
// changing, no slot refits any more.
TEST_F(AabbDetectorFramesTest, DeformingMeshStaysExactAfterGpuRefit) {
    MeshData sphere = icosphere(3, 0.5f, 0);  // 1280 triangles
    MeshData box = subdividedBox(7, {0.35f, 0.3f, 0.25f});
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    auto sphereId = scene->addMesh({"sphere", &sphere});
    auto boxId = scene->addMesh({"box", &box});
    ASSERT_TRUE(sphereId && boxId);
    ASSERT_TRUE(scene->addObject(sphereId.value(), glm::mat4(1.0f), "sphere"));
    ASSERT_TRUE(scene->addObject(boxId.value(), glm::translate(glm::mat4(1.0f), {0.45f, 0.1f, 0.0f}), "box"));
    AabbTreeDetector detector = makeDetector();
    for (int frame = 0; frame < 7; ++frame) {
        const bool deform = frame < 5;
        if (deform) ASSERT_TRUE(scene->updateVertices(sphereId.value(), wobble(sphere.positions, frame)));
        AabbTreeFrameDetails stats;
        auto results = detector.run(scene.value(), &stats);
        ASSERT_TRUE(results) << results.status().describe();
        const size_t n = expectMatchesOracle(scene.value(), results.value(), ("frame " + std::to_string(frame)).c_str());
        EXPECT_GT(n, 0u) << "frame " << frame;
        // Frame 0 builds from the current positions; then each slot refits what changed since it last ran.
        if (frame >= 1 && frame <= 5) EXPECT_EQ(stats.refitTrees, 1u) << "frame " << frame;
        if (frame == 6) EXPECT_EQ(stats.refitTrees, 0u);
        if (frame >= 1 && frame <= 4) EXPECT_TRUE(results->gpuTimingsMs.count("aabb-refit"));
    }
}

// The host's own interleaved vertex buffer (8 floats per vertex after a 16-byte header), written
// by the host and announced with markDeformed, or added deformedEveryFrame and never announced:
// the refit and the leaf tests read it in place.
TEST_F(AabbDetectorFramesTest, HostStridedBufferDeformedInPlace) {
    for (const bool everyFrame : {false, true}) {
        SCOPED_TRACE(everyFrame ? "deformedEveryFrame" : "markDeformed");
        MeshData sphere = uvSphere(23, 11, 0.5f);  // 460 triangles
        MeshData box = subdividedBox(5, {0.3f, 0.3f, 0.3f});
        const uint32_t strideFloats = 8, headerFloats = 4;
        auto hostBuffer = createBuffer(vk(), {VkDeviceSize(4 * (headerFloats + strideFloats * sphere.positions.size())),
                                              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::Upload, "test host vertices"});
        ASSERT_TRUE(hostBuffer) << hostBuffer.status().describe();
        auto write = [&](const std::vector<glm::vec3>& positions) {
            std::vector<float> data = test::interleavePositions(positions, strideFloats, headerFloats);
            std::memcpy(hostBuffer->data, data.data(), data.size() * 4);
            ASSERT_TRUE(flushBuffer(vk(), hostBuffer.value()).ok());
        };
        write(sphere.positions);
        {
            auto scene = Scene::create(context_);
            ASSERT_TRUE(scene);
            MeshDesc desc{"host sphere", &sphere, hostBuffer->buffer, 4 * headerFloats, 4 * strideFloats, everyFrame};
            auto sphereId = scene->addMesh(desc);
            auto boxId = scene->addMesh({"box", &box});
            ASSERT_TRUE(sphereId && boxId) << sphereId.status().describe();
            ASSERT_TRUE(scene->addObject(sphereId.value(), glm::mat4(1.0f)));
            ASSERT_TRUE(scene->addObject(boxId.value(), glm::translate(glm::mat4(1.0f), {0.5f, 0.0f, 0.1f})));
            AabbTreeDetector detector = makeDetector();
            for (int frame = 0; frame < 4; ++frame) {
                const std::vector<glm::vec3> moved = wobble(sphere.positions, frame + 1);
                write(moved);
                if (!everyFrame) scene->markDeformed(sphereId.value());
                auto results = detector.run(scene.value(), withPlacedBounds(scene.value(), {{0, 1}}));
                ASSERT_TRUE(results) << results.status().describe();
                // The oracle sees the positions the host wrote (the scene's CPU copy is the rest pose).
                MeshData current = sphere;
                current.positions = moved;
                auto oracle = reference::intersectingTrianglePairs(current, glm::mat4(1.0f), box, scene->transform(1));
                ASSERT_TRUE(oracle);
                TriSet expected;
                for (const auto& p : oracle->pairs) expected.insert({p.a, p.b});
                TriSet gpu;
                for (const PairResult& r : results->pairs) gpu.insert(r.trianglePairList.begin(), r.trianglePairList.end());
                EXPECT_EQ(gpu, expected) << "frame " << frame;
                EXPECT_GT(expected.size(), 0u);
            }
        }
        destroyBuffer(vk(), hostBuffer.value());
    }
}

// Output list capacity: counts stay exact, the list holds `capacity` of the oracle's pairs and
// the pairs say truncated. Node-pair list capacity: the overflow is reported, never hidden, where
// the budget keeps the lists as given; otherwise run() grows them and answers in full.
TEST_F(AabbDetectorFramesTest, CapacityOverflowReportsTruncatedWithExactCount) {
    auto bunny = loadSharedMesh("bunny_npm.obj");
    auto knot = loadSharedMesh("knot.off");
    ASSERT_TRUE(bunny && knot);
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    ASSERT_TRUE(scene->addObject(scene->addMesh({"bunny", &*bunny}).value(), glm::mat4(1.0f)));
    ASSERT_TRUE(scene->addObject(scene->addMesh({"knot", &*knot}).value(), glm::translate(glm::mat4(1.0f), {0.1f, 0.05f, 0.0f})));
    const TriSet expected = oraclePairs(scene.value(), 0, 1);
    ASSERT_GT(expected.size(), 40u);

    AabbTreeSettings small;
    small.trianglePairCapacity = 16;
    AabbTreeDetector detector = makeDetector(small);
    AabbTreeFrameDetails stats;
    auto results = detector.run(scene.value(), &stats);
    ASSERT_TRUE(results) << results.status().describe();
    ASSERT_EQ(results->pairs.size(), 1u);
    const PairResult& r = results->pairs[0];
    EXPECT_TRUE(r.truncated);
    EXPECT_EQ(*r.trianglePairs, expected.size());
    EXPECT_EQ(stats.trianglePairCount, expected.size());
    EXPECT_FALSE(stats.nodePairOverflow);
    ASSERT_EQ(r.trianglePairList.size(), 16u);
    for (const auto& p : r.trianglePairList) EXPECT_TRUE(expected.count(p)) << p[0] << ", " << p[1];
    EXPECT_EQ(results->warnings.size(), 1u);

    AabbTreeSettings tiny;
    tiny.nodePairCapacity = 64;
    tiny.nodePairMemoryBudget = 1;  // as given: no growth
    AabbTreeDetector starved = makeDetector(tiny);
    auto partial = starved.run(scene.value(), &stats);
    ASSERT_TRUE(partial) << partial.status().describe();
    EXPECT_TRUE(stats.nodePairOverflow);
    EXPECT_GT(stats.nodePairsNeeded, 64u);
    EXPECT_EQ(starved.settings().nodePairCapacity, 64u);
    ASSERT_GE(partial->warnings.size(), 2u);
    EXPECT_NE(partial->warnings[0].find("nodePairCapacity"), std::string::npos);
    EXPECT_NE(partial->warnings[1].find("AabbTreeSettings::nodePairMemoryBudget"), std::string::npos);
    for (const PairResult& p : partial->pairs) {
        EXPECT_TRUE(p.truncated);
        EXPECT_LE(*p.trianglePairs, expected.size());
    }

    // With room to grow (the default budget), run() grows the lists to the need and runs again:
    // the full answer at once.
    tiny.nodePairMemoryBudget = 0;
    AabbTreeDetector growing = makeDetector(tiny);
    auto full = growing.run(scene.value(), &stats);
    ASSERT_TRUE(full) << full.status().describe();
    EXPECT_FALSE(stats.nodePairOverflow);
    EXPECT_FALSE(full->truncated);
    ASSERT_EQ(full->pairs.size(), 1u);
    EXPECT_EQ(*full->pairs[0].trianglePairs, expected.size());
    EXPECT_GT(growing.settings().nodePairCapacity, 64u);

    // Frames a renderer records (its broadphase and the detector in one command buffer) grow from
    // the next frame on: the first overflows, a later one (the count seen is a lower bound of the
    // need, so it may take more than one) holds the oracle's count.
    AabbTreeDetector recorded = makeDetector(tiny);
    auto broadphase = Broadphase::create(context_);
    ASSERT_TRUE(broadphase);
    bool overflowed = false, answered = false;
    for (uint64_t frame = 0; frame < 8 && !answered; ++frame) {
        ASSERT_TRUE(test::recordGpuDrivenFrameInHostSubmit(vk(), broadphase.value(), recorded, scene.value(), frame));
        FrameResults out;
        ASSERT_TRUE(recorded.results(frame, out, &stats));
        ASSERT_EQ(out.pairs.size(), 1u);
        if (frame == 0) overflowed = stats.nodePairOverflow;
        answered = !out.truncated;
        if (answered) EXPECT_EQ(*out.pairs[0].trianglePairs, expected.size());
    }
    EXPECT_TRUE(overflowed);
    EXPECT_TRUE(answered);
}

// Temporal coherence (paper 4, section 5): over frames of small motions, entering deeper changes
// which box pairs are tested but the triangle pairs are identical with it on and off, and the
// oracle's in every frame.
TEST_F(AabbDetectorFramesTest, TemporalCoherenceOnAndOffIdentical) {
    auto bunny = loadSharedMesh("bunny_npm.obj");
    auto pinion = loadSharedMesh("pinion_gear.off");
    auto ball = loadSharedMesh("sphere_ico4.stl");
    ASSERT_TRUE(bunny && pinion && ball);
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    for (const MeshData* m : {&*bunny, &*pinion, &*ball})
        ASSERT_TRUE(scene->addObject(scene->addMesh({m->name.c_str(), m}).value(), glm::mat4(1.0f)));
    AabbTreeDetector coherent = makeDetector();
    AabbTreeSettings off;
    off.disableTemporalCoherence = true;
    AabbTreeDetector plain = makeDetector(off);
    bool workDiffered = false;
    for (int frame = 0; frame < 8; ++frame) {
        const float t = 0.05f * float(frame);
        ASSERT_TRUE(scene->setTransform(1, glm::rotate(glm::translate(glm::mat4(1.0f), {0.2f + t, 0.1f, 0.0f}), t, {0, 1, 0})));
        ASSERT_TRUE(scene->setTransform(2, glm::translate(glm::mat4(1.0f), {-0.25f, 0.1f * t, 0.05f})));
        AabbTreeFrameDetails statsOn, statsOff;
        auto on = coherent.run(scene.value(), &statsOn);
        auto offResults = plain.run(scene.value(), &statsOff);
        ASSERT_TRUE(on && offResults);
        ASSERT_EQ(on->pairs.size(), offResults->pairs.size()) << "frame " << frame;
        for (size_t i = 0; i < on->pairs.size(); ++i) {
            EXPECT_EQ(on->pairs[i].a, offResults->pairs[i].a);
            EXPECT_EQ(on->pairs[i].b, offResults->pairs[i].b);
            EXPECT_EQ(on->pairs[i].trianglePairs, offResults->pairs[i].trianglePairs) << "frame " << frame;
            EXPECT_EQ(on->pairs[i].trianglePairList, offResults->pairs[i].trianglePairList) << "frame " << frame;
        }
        EXPECT_EQ(statsOn.trianglePairCount, statsOff.trianglePairCount);
        workDiffered = workDiffered || statsOn.levelTested != statsOff.levelTested;
        // Equal, and right: the oracle's answer every frame.
        EXPECT_GT(expectMatchesOracle(scene.value(), on.value(), ("frame " + std::to_string(frame)).c_str()), 0u);
    }
    EXPECT_TRUE(workDiffered) << "coherence never changed an entrance level";
}

// The host's frame loop: frames recorded into the host's own command buffers, submitted with the
// detector's completion signal, results polled without blocking, the same answers as the oracle,
// and a slot reused only after its frame completed. Frames 0 and 1 wait on a gate the host opens
// later, so their results must be NotReady (before their submit, and after it while the gate is
// shut) and frame 2, which reuses frame 0's slot, must be refused with NotReady meanwhile.
TEST_F(AabbDetectorFramesTest, FramesInFlightNeverBlock) {
    MeshData sphere = icosphere(2, 0.5f, 0);
    MeshData box = subdividedBox(4, {0.3f, 0.3f, 0.3f});
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    ASSERT_TRUE(scene->addObject(scene->addMesh({"sphere", &sphere}).value(), glm::mat4(1.0f)));
    ASSERT_TRUE(scene->addObject(scene->addMesh({"box", &box}).value(), glm::translate(glm::mat4(1.0f), {0.5f, 0.0f, 0.0f})));
    AabbTreeDetector detector = makeDetector();
    const auto& vkd = vk().vkd;
    VkCommandPoolCreateInfo poolInfo = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.queueFamilyIndex = vk().queueFamilyIndex;
    VkCommandPool pool = VK_NULL_HANDLE;
    ASSERT_EQ(vkd.vkCreateCommandPool(vk().device, &poolInfo, nullptr, &pool), VK_SUCCESS);
    VkCommandBuffer cmds[5] = {};  // one a frame, and one for the refused attempt at frame 2
    VkCommandBufferAllocateInfo allocate = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = pool;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 5;
    ASSERT_EQ(vkd.vkAllocateCommandBuffers(vk().device, &allocate, cmds), VK_SUCCESS);
    test::HostGate gate(vk());
    ASSERT_EQ(gate.created(), VK_SUCCESS);
    auto place = [&](uint64_t frame) {
        return scene->setTransform(1, glm::translate(glm::mat4(1.0f), {0.45f + 0.03f * float(frame), 0.0f, 0.0f}));
    };
    auto recordInto = [&](VkCommandBuffer cmd, uint64_t frame) {
        VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        EXPECT_EQ(vkd.vkBeginCommandBuffer(cmd, &begin), VK_SUCCESS);
        Status recorded = detector.record(cmd, scene.value(), withPlacedBounds(scene.value(), {{0, 1}}), frame);
        EXPECT_EQ(vkd.vkEndCommandBuffer(cmd), VK_SUCCESS);
        return recorded;
    };

    std::vector<FrameResults> polled(4);
    for (uint64_t frame = 0; frame < 2; ++frame) {
        ASSERT_TRUE(place(frame));
        Status recorded = recordInto(cmds[frame], frame);
        ASSERT_TRUE(recorded.ok()) << recorded.describe();
        const VkSemaphoreSubmitInfo signal = detector.completionSignal(frame);
        // Recorded, its signal handed out, not submitted: NotReady, at once.
        EXPECT_EQ(detector.results(frame, polled[frame]).code, ErrorCode::NotReady) << "frame " << frame;
        ASSERT_EQ(test::submitWithSignal(vk(), cmds[frame], signal, &gate), VK_SUCCESS);
    }
    // Submitted but held at the gate: still NotReady, and frame 0's slot is not free for frame 2.
    for (uint64_t frame = 0; frame < 2; ++frame)
        EXPECT_EQ(detector.results(frame, polled[frame]).code, ErrorCode::NotReady) << "frame " << frame;
    EXPECT_EQ(recordInto(cmds[4], 2).code, ErrorCode::NotReady) << "frame 2 reused frame 0's slot in flight";
    ASSERT_EQ(gate.open(), VK_SUCCESS);
    for (uint64_t frame = 2; frame < 4; ++frame) {
        // The slot of frame - 2 must be read back (and done) before it is reused.
        Status status = test::pollUntilReady([&] { return detector.results(frame - 2, polled[frame - 2]); });
        ASSERT_TRUE(status.ok()) << "frame " << frame - 2 << ": " << status.describe();
        ASSERT_TRUE(place(frame));
        Status recorded = recordInto(cmds[frame], frame);
        ASSERT_TRUE(recorded.ok()) << recorded.describe();
        ASSERT_EQ(test::submitWithSignal(vk(), cmds[frame], detector.completionSignal(frame)), VK_SUCCESS);
    }
    for (uint64_t frame = 2; frame < 4; ++frame) {
        Status status = test::pollUntilReady([&] { return detector.results(frame, polled[frame]); });
        ASSERT_TRUE(status.ok()) << "frame " << frame << ": " << status.describe();
    }
    ASSERT_EQ(vkd.vkQueueWaitIdle(vk().queue), VK_SUCCESS);
    vkd.vkDestroyCommandPool(vk().device, pool, nullptr);
    // Each polled frame is the oracle's answer for that frame's pose.
    for (uint64_t frame = 0; frame < 4; ++frame) {
        ASSERT_TRUE(place(frame));
        EXPECT_GT(expectMatchesOracle(scene.value(), polled[frame], ("polled frame " + std::to_string(frame)).c_str()), 0u);
        EXPECT_TRUE(polled[frame].colliding) << frame;
    }
}

}  // namespace
}  // namespace vkc
