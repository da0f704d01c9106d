// Tier B: AabbTreeDetector over several frames: meshes deformed every frame stay exact after the
// GPU refit (CPU uploads and the host's own strided buffer), capacity overflow reports truncated
// with exact counts, and temporal coherence changes the work but never the results.
#include "aabb_detector_support.h"
#include "aabb_test_support.h"

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
        AabbTreeFrameStats stats;
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
// by the host and announced with markDeformed: the refit and the leaf tests read it in place.
TEST_F(AabbDetectorFramesTest, HostStridedBufferDeformedInPlace) {
    MeshData sphere = uvSphere(23, 11, 0.5f);  // 460 triangles
    MeshData box = subdividedBox(5, {0.3f, 0.3f, 0.3f});
    const uint32_t strideFloats = 8, headerFloats = 4;
    auto hostBuffer = createBuffer(vk(), {VkDeviceSize(4 * (headerFloats + strideFloats * sphere.positions.size())),
                                          VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::Upload, "test host vertices"});
    ASSERT_TRUE(hostBuffer) << hostBuffer.status().describe();
    auto write = [&](const std::vector<glm::vec3>& positions) {
        std::vector<float> data(headerFloats + strideFloats * positions.size(), -1000.0f);
        for (size_t v = 0; v < positions.size(); ++v) std::memcpy(&data[headerFloats + strideFloats * v], &positions[v], 12);
        std::memcpy(hostBuffer->data, data.data(), data.size() * 4);
        ASSERT_TRUE(flushBuffer(vk(), hostBuffer.value()).ok());
    };
    write(sphere.positions);
    {
        auto scene = Scene::create(context_);
        ASSERT_TRUE(scene);
        MeshDesc desc{"host sphere", &sphere, hostBuffer->buffer, 4 * headerFloats, 4 * strideFloats};
        auto sphereId = scene->addMesh(desc);
        auto boxId = scene->addMesh({"box", &box});
        ASSERT_TRUE(sphereId && boxId) << sphereId.status().describe();
        ASSERT_TRUE(scene->addObject(sphereId.value(), glm::mat4(1.0f)));
        ASSERT_TRUE(scene->addObject(boxId.value(), glm::translate(glm::mat4(1.0f), {0.5f, 0.0f, 0.1f})));
        AabbTreeDetector detector = makeDetector();
        for (int frame = 0; frame < 4; ++frame) {
            const std::vector<glm::vec3> moved = wobble(sphere.positions, frame + 1);
            write(moved);
            scene->markDeformed(sphereId.value());
            auto results = detector.run(scene.value(), std::vector<ObjectPair>{{0, 1}});
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

// Output list capacity: counts stay exact, the list holds `capacity` of the oracle's pairs and
// the pairs say truncated. Node-pair list capacity: the overflow is reported, never hidden.
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
    AabbTreeFrameStats stats;
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
    AabbTreeDetector starved = makeDetector(tiny);
    auto partial = starved.run(scene.value(), &stats);
    ASSERT_TRUE(partial) << partial.status().describe();
    EXPECT_TRUE(stats.nodePairOverflow);
    ASSERT_FALSE(partial->warnings.empty());
    EXPECT_NE(partial->warnings[0].find("nodePairCapacity"), std::string::npos);
    for (const PairResult& p : partial->pairs) {
        EXPECT_TRUE(p.truncated);
        EXPECT_LE(*p.trianglePairs, expected.size());
    }
}

// Temporal coherence (paper 4, section 5): over frames of small motions, entering deeper changes
// which box pairs are tested but the triangle pairs are identical with it on and off.
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
        AabbTreeFrameStats statsOn, statsOff;
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
        if (frame == 7) expectMatchesOracle(scene.value(), on.value(), "last frame");
    }
    EXPECT_TRUE(workDiffered) << "coherence never changed an entrance level";
}

}  // namespace
}  // namespace vkc
