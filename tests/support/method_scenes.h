// The scenes the image-space method tests (stencil, consistent pairs) place, on the oracle-scene
// fixture so the exact oracle sees them: random poses, overlapping and separated pairs, an object
// inside another, a host's interleaved vertex buffer; the candidate pairs a detector is given
// (the harness's GPU broadphase, or every pair with exact world boxes); and the checks both
// methods share for their settings (the fitted pixel, the candidate-pair limit).
#pragma once

#include "collision/scene/generated_solids.h"
#include "tests/support/detector_contract.h"
#include "tests/support/host_vertex_buffer.h"
#include "tests/support/oracle_scene.h"
#include "vkcollide/broadphase.h"

#include <random>
#include <vector>

namespace vkc::test {

// The pixel side an image-space method fits (shaders_glsl/shared/orthographic_fit.h): the largest
// extent of the candidates' box overlap its views see, grown by the padding on each side, over the
// resolution.
inline float fittedPixelSize(float largestExtent, float paddingPixels, uint32_t resolution) {
    return largestExtent * (1.0f + 2.0f * paddingPixels / float(resolution)) / float(resolution);
}

class MethodSceneTest : public OracleSceneTest {
protected:
    void TearDown() override {
        // After the test's scenes (locals) are gone, before the context.
        for (Buffer& buffer : hostBuffers_) destroyBuffer(vk(), buffer);
        hostBuffers_.clear();
        OracleSceneTest::TearDown();
    }

    // A new scene (the fixture forgets earlier objects) of `objects` objects cycling through
    // `shapes` at seeded random rigid poses within a cube of side `spread`.
    Result<Scene> randomScene(const std::vector<MeshData>& shapes, uint32_t seed, uint32_t objects, float spread) {
        clearObjects();
        auto scene = Scene::create(context_, kVolumeMethodRequirements);
        if (!scene) return scene;
        std::vector<MeshId> ids;
        for (const MeshData& mesh : shapes) ids.push_back(addMesh(scene.value(), mesh));
        std::mt19937 rng(seed);
        for (uint32_t i = 0; i < objects; ++i) addObject(scene.value(), ids[i % ids.size()], randomRigid(rng, spread));
        return scene;
    }

    // Two unit boxes, the second moved and turned into the first: pair (0, 1). Returns the box mesh.
    MeshId addOverlappingBoxes(Scene& scene) {
        MeshId box = addMesh(scene, solids::box({1.0f, 1.0f, 1.0f}));
        addObject(scene, box, glm::mat4(1.0f));
        addObject(scene, box, glm::translate(glm::mat4(1.0f), {0.7f, 0.2f, 0.1f}) *
                                  glm::rotate(glm::mat4(1.0f), 0.5f, glm::vec3(0.3f, 1.0f, 0.2f)));
        return box;
    }

    // addOverlappingBoxes, and a third box turned 45 degrees about z beside the first, whose world
    // box overlaps the first's (so the broadphase passes (0, 1) and (0, 2)) across a gap: pair (0, 1).
    void addOverlappingAndSeparatedBoxes(Scene& scene) {
        MeshId box = addOverlappingBoxes(scene);
        addObject(scene, box, glm::translate(glm::mat4(1.0f), {-1.15f, -1.15f, 0.0f}) *
                                  glm::rotate(glm::mat4(1.0f), glm::radians(45.0f), glm::vec3(0, 0, 1)));
    }

    // Two unit boxes 5 apart: not even their world boxes overlap, so no candidate pair.
    void addBoxesApart(Scene& scene) {
        MeshId box = addMesh(scene, solids::box({1.0f, 1.0f, 1.0f}));
        addObject(scene, box, glm::mat4(1.0f));
        addObject(scene, box, glm::translate(glm::mat4(1.0f), {5.0f, 0.0f, 0.0f}));
    }

    // Two balls (radius 0.5) overlapping: pair (0, 1).
    void addOverlappingBalls(Scene& scene) {
        MeshId ball = addMesh(scene, solids::sphere(0.5f, 2));
        addObject(scene, ball, glm::mat4(1.0f));
        addObject(scene, ball, glm::translate(glm::mat4(1.0f), {0.6f, 0.3f, 0.0f}));
    }

    // A small sphere (object 1) fully inside a rotated large box (object 0): no surfaces cross.
    void addSphereInsideBox(Scene& scene) {
        MeshId big = addMesh(scene, solids::box({4.0f, 4.0f, 4.0f}));
        MeshId small = addMesh(scene, solids::sphere(0.4f, 2));
        addObject(scene, big, glm::rotate(glm::mat4(1.0f), 0.3f, glm::vec3(1, 1, 0)));
        addObject(scene, small, glm::translate(glm::mat4(1.0f), {0.3f, -0.2f, 0.5f}));
    }

    // A sphere read in place from a host-style interleaved buffer (8 floats a vertex, position,
    // normal, uv, after a 16-byte header) placed twice, and a box: pairs (0, 1) and (0, 2). The
    // buffer lives until TearDown.
    void addHostBufferSpheresAndBox(Scene& scene) {
        MeshData sphere = solids::sphere(0.8f, 2);
        sphere.name = "host sphere";
        const uint32_t strideFloats = 8, headerFloats = 4;
        auto buffer = createInterleavedVertexBuffer(vk(), sphere.positions, strideFloats, headerFloats,
                                                    "host interleaved vertices");
        ASSERT_TRUE(buffer) << buffer.status().describe();
        hostBuffers_.push_back(buffer.value());
        MeshId hosted = addMesh(scene, std::move(sphere), buffer->buffer, headerFloats * 4, strideFloats * 4);
        MeshId box = addMesh(scene, solids::box({1.0f, 1.0f, 1.0f}));
        addObject(scene, hosted, glm::mat4(1.0f));
        addObject(scene, box, glm::translate(glm::mat4(1.0f), {0.9f, 0.3f, -0.2f}));
        addObject(scene, hosted, glm::translate(glm::mat4(1.0f), {-1.2f, 0.2f, 0.1f}));
    }

    // The GPU broadphase's candidate pairs for `scene`, as the harness hands them to a method.
    Result<BroadphaseResults> runBroadphase(const Scene& scene) {
        auto broadphase = Broadphase::create(context_);
        if (!broadphase) return broadphase.status();
        return broadphase->run(scene);
    }

    // expectCandidateLimitRefused (detector_contract.h) with maxCandidatePairs = 1 in `settings` on
    // addOverlappingAndSeparatedBoxes, whose broadphase gives two candidates. The frame at the limit
    // (candidate (0, 1) only) finds pair (0, 1), the whole answer since (0, 2) is apart; `atLimit`
    // and `details` receive it for the caller to compare with the oracle.
    template <class Detector, class Settings, class Details>
    void expectCandidateLimitOfOne(Settings settings, FrameResults& atLimit, Details& details) {
        auto scene = Scene::create(context_, kVolumeMethodRequirements);
        ASSERT_TRUE(scene);
        addOverlappingAndSeparatedBoxes(scene.value());
        auto pcs = runBroadphase(scene.value());
        ASSERT_TRUE(pcs) << pcs.status().describe();
        ASSERT_EQ(pcs->pairs, (std::vector<ObjectPair>{{0, 1}, {0, 2}}));
        settings.maxCandidatePairs = 1;
        auto detector = Detector::create(context_, settings);
        ASSERT_TRUE(detector) << detector.status().describe();
        ASSERT_NO_FATAL_FAILURE(expectCandidateLimitRefused(detector.value(), scene.value(), pcs.value(), 1, atLimit,
                                                            details));
        EXPECT_TRUE(onlyPair(atLimit, 0, 1));
    }

    // For regionPaddingPixels 0 (the default, 2), 1 and 6.5 in `settings`: a detector's fitted pixel
    // over `pcs` is fittedPixelSize(largestExtent, padding, resolution), and pair (0, 1) is found.
    template <class Detector, class Details, class Settings>
    void expectPaddingSetsFittedPixel(Settings settings, const Scene& scene, const BroadphaseResults& pcs,
                                      float largestExtent) {
        for (float padding : {0.0f, 1.0f, 6.5f}) {
            SCOPED_TRACE("regionPaddingPixels " + std::to_string(padding));
            settings.regionPaddingPixels = padding;
            auto detector = Detector::create(context_, settings);
            ASSERT_TRUE(detector) << detector.status().describe();
            const float used = padding == 0.0f ? 2.0f : padding;  // 0: the documented default
            EXPECT_EQ(detector->settings().regionPaddingPixels, used);
            Details details;
            auto results = detector->run(scene, pcs, &details);
            ASSERT_TRUE(results) << results.status().describe();
            const float expected = fittedPixelSize(largestExtent, used, detector->settings().resolution);
            EXPECT_NEAR(details.pixelSize, expected, 1e-5f * expected);
            EXPECT_TRUE(onlyPair(results.value(), 0, 1));
        }
    }

    // Every pair of objects as a candidate, with the objects' world boxes (worldBoxes).
    BroadphaseResults allPairs() const {
        BroadphaseResults pcs;
        for (const auto& [lo, hi] : worldBoxes()) pcs.worldBounds.push_back({lo, hi});
        for (uint32_t a = 0; a < objectCount(); ++a)
            for (uint32_t b = a + 1; b < objectCount(); ++b) pcs.pairs.push_back({a, b});
        pcs.pairCount = uint32_t(pcs.pairs.size());
        return pcs;
    }

private:
    std::vector<Buffer> hostBuffers_;
};

}  // namespace vkc::test
