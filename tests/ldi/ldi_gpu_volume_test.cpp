// Tier B: intersection volumes of LdiDetector (paper 2, §3.3a) on a device against the exact
// oracle: the reference table of ../shared/meshes/README.md at 256² and 512² within the reported
// bound (and close to the CPU reference LDI's volume), convergence from 128² to 512², seeded random
// rigid motions, containment through the VoI extension (Fig. 2b), separated pairs, and depth
// complexity above the cap: `truncated` with the needed layers and never a volume (nor a false
// self-intersection); an atlas of several rows whose last is partly filled, above 65535 workgroups.
#include "collision/scene/generated_solids.h"
#include "collision/reference/intersection_volume.h"
#include "tests/ldi/ldi_cube_bound.h"
#include "tests/ldi/ldi_gpu_support.h"
#include "tests/support/detector_contract.h"

#include <cstdio>
#include <string_view>

namespace vkc {
namespace {

using ldi_test::kReferenceVolumes;
using ldi_test::ReferenceVolume;
using ldi_test::shift;

class LdiGpuVolume : public test::VulkanTest {};

TEST_F(LdiGpuVolume, ReferenceVolumesWithinTheReportedBound) {
    for (uint32_t resolution : {256u, 512u}) {
        auto detector = LdiDetector::create(context_, ldi_test::settingsAt(resolution));
        ASSERT_TRUE(detector) << detector.status().describe();
        for (const ReferenceVolume& r : kReferenceVolumes) {
            auto a = ldi_test::sharedMesh(r.a);
            auto b = ldi_test::sharedMesh(r.b ? r.b : r.a);
            VKC_REQUIRE_SHARED_MESH(a);
            VKC_REQUIRE_SHARED_MESH(b);
            const glm::mat4 tb = shift(r.offset);
            auto gpu = ldi_test::runPair(context_, detector.value(), *a, glm::mat4(1.0f), *b, tb);
            ASSERT_TRUE(gpu);
            ASSERT_EQ(gpu->results.pairs.size(), 1u) << r.a;
            const PairResult& pair = gpu->results.pairs[0];
            ASSERT_TRUE(pair.volume && pair.volumeErrorBound) << r.a;
            EXPECT_FALSE(pair.truncated);
            EXPECT_TRUE(gpu->results.colliding);
            auto voi = computeLdiVoi(placedMeshBounds(*a, glm::mat4(1.0f)), placedMeshBounds(*b, tb));
            ASSERT_TRUE(voi);
            double cpu = cpuLdiIntersectionVolume(buildCpuLdi(*a, glm::mat4(1.0f), *voi, true, resolution),
                                                  buildCpuLdi(*b, tb, *voi, false, resolution));
            double error = std::abs(*pair.volume - r.volume);
            std::printf("%-16s %3u^2: gpu %.9g exact %.9g error %.3g (%.3g%%) bound %.3g; gpu - cpu ldi %.2g; n_max %u/%u\n",
                        r.a, resolution, *pair.volume, r.volume, error, 100.0 * error / r.volume, *pair.volumeErrorBound,
                        *pair.volume - cpu, gpu->details.pairs[0].layersA, gpu->details.pairs[0].layersB);
            EXPECT_LE(error, *pair.volumeErrorBound + 2e-8 * r.volume) << r.a << " at " << resolution;
            // Separately, the accuracy the method has (a volume of 0 is within the bound of most pairs).
            EXPECT_LE(error, r.accuracy(resolution) * r.volume) << r.a << " at " << resolution;
            if (r.a == std::string_view("cube.stl")) {  // the bound itself: tests/ldi/ldi_cube_bound.h
                EXPECT_EQ(gpu->details.pairs[0].layersA + gpu->details.pairs[0].layersB, 2u);
                const double hand = ldi_test::kUnitCubePairDepthBound +
                                    (resolution == 256 ? ldi_test::kUnitCubePairBound256 : ldi_test::kUnitCubePairBound512);
                EXPECT_NEAR(*pair.volumeErrorBound, hand, 1e-10 * hand) << resolution;
            }
            // Same sampling as the reference: only the few pixels a float/double snapping differs at.
            EXPECT_LE(std::abs(*pair.volume - cpu), 0.1 * *pair.volumeErrorBound) << r.a << " at " << resolution;
        }
    }
}

TEST_F(LdiGpuVolume, ErrorShrinksWithResolution) {
    auto sphere = ldi_test::sharedMesh("sphere_ico4.stl");
    VKC_REQUIRE_SHARED_MESH(sphere);
    const double exact = kReferenceVolumes[1].volume;
    double errors[2];
    for (int i = 0; i < 2; ++i) {
        auto detector = LdiDetector::create(context_, ldi_test::settingsAt(i == 0 ? 128 : 512));
        ASSERT_TRUE(detector) << detector.status().describe();
        auto gpu = ldi_test::runPair(context_, detector.value(), *sphere, glm::mat4(1.0f), *sphere, shift(1, 0, 0));
        ASSERT_TRUE(gpu && gpu->results.pairs.size() == 1 && gpu->results.pairs[0].volume);
        errors[i] = std::abs(*gpu->results.pairs[0].volume - exact);
    }
    std::printf("sphere_ico4: |error| %.3g at 128^2, %.3g at 512^2\n", errors[0], errors[1]);
    EXPECT_LT(errors[1], errors[0]);
}

TEST_F(LdiGpuVolume, RandomRigidMotionsAgainstTheOracle) {
    std::mt19937 rng(20261122);
    const MeshData shapes[] = {solids::sphere(0.6f, 3), solids::torus(0.6f, 0.25f, 24), solids::box({1.2f, 0.5f, 0.8f})};
    auto detector = LdiDetector::create(context_, ldi_test::settingsAt(256));
    ASSERT_TRUE(detector) << detector.status().describe();
    int overlapping = 0;
    for (int trial = 0; trial < 6; ++trial) {
        const MeshData& a = shapes[trial % 3];
        const MeshData& b = shapes[(trial + 1 + trial / 3) % 3];
        glm::mat4 ta = ldi_test::randomRigid(rng, 0.6f), tb = ldi_test::randomRigid(rng, 0.6f);
        auto exact = reference::intersectionVolume(a, ta, b, tb);
        ASSERT_TRUE(exact) << exact.status().describe();
        auto gpu = ldi_test::runPair(context_, detector.value(), a, ta, b, tb);
        ASSERT_TRUE(gpu);
        ASSERT_EQ(gpu->details.pairs.size(), 1u);
        const LdiPairDetails& d = gpu->details.pairs[0];
        ASSERT_FALSE(d.truncated);
        const double error = std::abs(d.volume - exact.value());
        std::printf("trial %d: exact %.6f gpu %.6f error %.2g bound %.3g\n", trial, exact.value(), d.volume, error,
                    d.volumeErrorBound);
        EXPECT_LE(error, d.volumeErrorBound) << "trial " << trial;
        // The accuracy the method has: measured at most 1.4e-5 (bounds 0.04-0.07) over these trials.
        EXPECT_LE(error, 6e-5) << "trial " << trial;
        overlapping += exact.value() > 0;
    }
    EXPECT_GE(overlapping, 4);
}

TEST_F(LdiGpuVolume, BoxInsideBoxThroughTheVoiExtension) {
    // Fig. 2b: the inner box's box is the overlap; the VoI extends to the outer box. Boxes align
    // with the pixel grid, so the volume is exact; the inner box's vertices are all inside.
    MeshData outer = solids::box({4, 3, 5}), inner = solids::box({1, 1.5f, 2});
    const glm::mat4 to = shift(0.25f, 0, 0), ti = shift(0.5f, 0.25f, -0.5f);
    auto detector = LdiDetector::create(context_, ldi_test::settingsAt(128));
    ASSERT_TRUE(detector) << detector.status().describe();
    for (bool outerFirst : {true, false}) {
        auto gpu = outerFirst ? ldi_test::runPair(context_, detector.value(), outer, to, inner, ti)
                              : ldi_test::runPair(context_, detector.value(), inner, ti, outer, to);
        ASSERT_TRUE(gpu);
        ASSERT_EQ(gpu->results.pairs.size(), 1u);
        EXPECT_TRUE(gpu->details.pairs[0].extended);
        ASSERT_TRUE(gpu->results.pairs[0].volume);
        EXPECT_NEAR(*gpu->results.pairs[0].volume, 3.0, 1e-4);
        // Vertex-in-volume (§3.3b): the inner box's 8 corners lie inside the outer box's LDI.
        uint32_t innerCorners = 0;
        for (uint32_t v : gpu->results.pairs[0].insideVertices)
            innerCorners += outerFirst ? (v & kLdiInsideVertexOfB) != 0 : (v & kLdiInsideVertexOfB) == 0;
        EXPECT_EQ(innerCorners, inner.positions.size());
        // The same vertices the CPU reference LDIs contain, for both objects.
        auto voi = computeLdiVoi(placedMeshBounds(outerFirst ? outer : inner, outerFirst ? to : ti),
                                 placedMeshBounds(outerFirst ? inner : outer, outerFirst ? ti : to));
        ASSERT_TRUE(voi);
        const MeshData& a = outerFirst ? outer : inner;
        const MeshData& b = outerFirst ? inner : outer;
        const glm::mat4 ta = outerFirst ? to : ti, tb = outerFirst ? ti : to;
        CpuLdi ldiA = buildCpuLdi(a, ta, *voi, true, 128), ldiB = buildCpuLdi(b, tb, *voi, false, 128);
        std::vector<uint32_t> expected;
        for (uint32_t i = 0; i < a.positions.size(); ++i)
            if (ldiB.contains(ldi_test::world(ta, a.positions[i]))) expected.push_back(i);
        for (uint32_t i = 0; i < b.positions.size(); ++i)
            if (ldiA.contains(ldi_test::world(tb, b.positions[i]))) expected.push_back(i | kLdiInsideVertexOfB);
        std::sort(expected.begin(), expected.end());
        EXPECT_EQ(gpu->results.pairs[0].insideVertices, expected);
    }
}

TEST_F(LdiGpuVolume, AtlasOfSeveralRowsWithAPartlyFilledLastRow) {
    // 33 pairs of 256^2 LDIs: 66 tiles in an atlas of min(66, maxFramebufferWidth / 256) columns
    // (64 on lavapipe): a second row with 2 tiles, whose stencil copy spans the whole row, and
    // 66 x 256^2 / 64 = 67584 workgroups of layer counting and sorting, above lavapipe's 65535
    // per dimension. Boxes aligned with the pixel grid: every pair's volume is 0.5 x 0.75 x 1.
    constexpr uint32_t kPairs = 33;
    MeshData box = solids::box({1, 1, 1});
    std::vector<ldi_test::Placed> placed;
    for (uint32_t i = 0; i < kPairs; ++i) {
        placed.push_back({&box, shift(4.0f * float(i), 0, 0)});
        placed.push_back({&box, shift(4.0f * float(i) + 0.5f, 0.25f, 0)});
    }
    // One mesh shared by every object.
    auto scene = Scene::create(context_, kObjectSpaceMethodRequirements);
    ASSERT_TRUE(scene) << scene.status().describe();
    auto mesh = scene->addMesh({"box", &box});
    ASSERT_TRUE(mesh) << mesh.status().describe();
    for (const ldi_test::Placed& p : placed) ASSERT_TRUE(scene->addObject(mesh.value(), p.transform));
    BroadphaseResults pcs;
    for (const ldi_test::Placed& p : placed) pcs.worldBounds.push_back(placedMeshBounds(*p.mesh, p.transform));
    for (uint32_t i = 0; i < kPairs; ++i) pcs.pairs.push_back({2 * i, 2 * i + 1});
    pcs.pairCount = kPairs;
    LdiSettings settings = ldi_test::settingsAt(256, 2);
    settings.maxPairs = kPairs;
    auto detector = LdiDetector::create(context_, settings);
    ASSERT_TRUE(detector) << detector.status().describe();
    LdiFrameDetails details;
    auto gpu = detector->run(scene.value(), pcs, &details);
    ASSERT_TRUE(gpu) << gpu.status().describe();
    auto exact = reference::intersectionVolume(box, placed[0].transform, box, placed[1].transform);
    ASSERT_TRUE(exact) << exact.status().describe();
    EXPECT_NEAR(exact.value(), 0.375, 1e-9);
    EXPECT_TRUE(gpu->warnings.empty()) << gpu->warnings[0];
    EXPECT_TRUE(details.selfIntersections.empty());
    ASSERT_EQ(gpu->pairs.size(), kPairs);
    for (const auto& pair : gpu->pairs) {
        EXPECT_FALSE(pair.truncated) << pair.a;
        ASSERT_TRUE(pair.volume) << pair.a;
        EXPECT_LE(std::abs(*pair.volume - exact.value()), *pair.volumeErrorBound) << "pair of object " << pair.a;
    }
}

TEST_F(LdiGpuVolume, SeparatedPairWithOverlappingBoxesIsNotColliding) {
    MeshData box = solids::box({1, 1, 1});
    const glm::mat4 tb = shift(1.15f, 1.15f, 0) * glm::rotate(glm::mat4(1.0f), glm::radians(45.0f), glm::vec3(0, 0, 1));
    auto detector = LdiDetector::create(context_, ldi_test::settingsAt(128));
    ASSERT_TRUE(detector) << detector.status().describe();
    auto gpu = ldi_test::runPair(context_, detector.value(), box, glm::mat4(1.0f), box, tb);
    ASSERT_TRUE(gpu);
    ASSERT_EQ(gpu->details.pairs.size(), 1u) << "the boxes overlap: the pair is tested";
    EXPECT_EQ(gpu->details.pairs[0].volume, 0.0);
    EXPECT_FALSE(gpu->results.colliding);
    EXPECT_TRUE(gpu->results.pairs.empty());

    // Boxes apart have an empty VoI: the pair is not even tested.
    auto apart = ldi_test::runPair(context_, detector.value(), box, glm::mat4(1.0f), box, shift(1.5f, 0, 0));
    ASSERT_TRUE(apart);
    EXPECT_TRUE(apart->details.pairs.empty());
    EXPECT_FALSE(apart->results.colliding);
}

// A stack of 5 thin slabs (one mesh) and a wider block entering it from above: the VoI can only
// look along z (along x and y the block contains the stack), where rays cross 3 slabs: 6 layers.
MeshData slabStack() {
    MeshData stack;
    stack.name = "stack";
    for (int i = 0; i < 5; ++i) {
        MeshData slab = solids::box({1.0f, 1.0f, 0.1f});
        uint32_t base = uint32_t(stack.positions.size());
        for (glm::vec3 p : slab.positions) stack.positions.push_back(p + glm::vec3(0, 0, -0.8f + 0.4f * i));
        for (uint32_t index : slab.indices) stack.indices.push_back(base + index);
    }
    return stack;
}
const glm::mat4 kRodIntoStack = shift(0.1f, 0.05f, 0.65f);

TEST_F(LdiGpuVolume, DepthComplexityAboveTheCapIsTruncatedWithoutVolumeOrGrownTo) {
    const MeshData stack = slabStack();
    const MeshData rod = solids::box({1.4f, 1.4f, 1.7f});
    const glm::mat4 tr = kRodIntoStack;
    auto voi = computeLdiVoi(placedMeshBounds(stack, glm::mat4(1.0f)), placedMeshBounds(rod, tr));
    ASSERT_TRUE(voi);
    ASSERT_EQ(voi->axis, 2u);
    const uint32_t needed = std::max(buildCpuLdi(stack, glm::mat4(1.0f), *voi, true, 64).maxDepthComplexity,
                                     buildCpuLdi(rod, tr, *voi, false, 64).maxDepthComplexity);
    ASSERT_EQ(needed, 6u);
    // A budget of one byte keeps the cap as given; the default one lets run() grow it to the need
    // and answer (budget 0, cap 1).
    for (auto [cap, budget] : {std::pair{1u, 1ull}, {4u, 1ull}, {16u, 1ull}, {1u, 0ull}}) {
        SCOPED_TRACE(testing::Message() << "cap " << cap << ", budget " << budget);
        LdiSettings settings = ldi_test::settingsAt(64, cap);
        settings.layerMemoryBudget = budget;
        auto detector = LdiDetector::create(context_, settings);
        ASSERT_TRUE(detector) << detector.status().describe();
        auto gpu = ldi_test::runPair(context_, detector.value(), stack, glm::mat4(1.0f), rod, tr);
        ASSERT_TRUE(gpu);
        ASSERT_EQ(gpu->details.pairs.size(), 1u);
        const LdiPairDetails& d = gpu->details.pairs[0];
        // A truncated pixel keeps the first `cap` fragments in draw order: no self-intersection test.
        EXPECT_TRUE(gpu->details.selfIntersections.empty()) << "cap " << cap;
        if (budget == 0) EXPECT_EQ(detector->settings().layerCap, needed);
        if (budget == 1 && cap < needed) {
            EXPECT_TRUE(d.truncated);
            EXPECT_EQ(d.neededLayers, needed);
            ASSERT_EQ(gpu->results.pairs.size(), 1u);
            EXPECT_TRUE(gpu->results.pairs[0].truncated);
            EXPECT_FALSE(gpu->results.pairs[0].volume) << "a truncated LDI must not give a volume";
            EXPECT_FALSE(gpu->results.colliding);
            ASSERT_FALSE(gpu->results.warnings.empty());
            EXPECT_NE(gpu->results.warnings[0].find("needs 6 layers"), std::string::npos) << gpu->results.warnings[0];
            EXPECT_EQ(detector->settings().layerCap, cap);
        } else {
            EXPECT_FALSE(d.truncated);
            ASSERT_EQ(gpu->results.pairs.size(), 1u);
            ASSERT_TRUE(gpu->results.pairs[0].volume);
            auto exact = reference::intersectionVolume(stack, glm::mat4(1.0f), rod, tr);
            ASSERT_TRUE(exact) << exact.status().describe();
            EXPECT_LE(std::abs(*gpu->results.pairs[0].volume - exact.value()), *gpu->results.pairs[0].volumeErrorBound);
        }
    }
}

// GPU-driven frames a renderer records grow their layers from the next frame: the first, at a cap
// of 1, truncates the pair and says it needs 6; the next peels them, within the exact volume's bound.
TEST_F(LdiGpuVolume, RecordedFramesGrowTheirLayersToTheNeedFromTheNextFrame) {
    const MeshData stack = slabStack();
    const MeshData rod = solids::box({1.4f, 1.4f, 1.7f});
    const ldi_test::Placed objects[] = {{&stack, glm::mat4(1.0f)}, {&rod, kRodIntoStack}};
    auto exact = reference::intersectionVolume(stack, glm::mat4(1.0f), rod, kRodIntoStack);
    ASSERT_TRUE(exact) << exact.status().describe();
    auto scene = ldi_test::makeScene(context_, objects);
    LdiSettings settings = ldi_test::settingsAt(64, 1);
    settings.framesInFlight = 2;
    auto detector = LdiDetector::create(context_, settings);
    auto broadphase = Broadphase::create(context_);
    ASSERT_TRUE(scene && detector && broadphase);
    for (uint64_t frame = 0; frame < 2; ++frame) {
        SCOPED_TRACE(frame);
        ASSERT_TRUE(test::recordGpuDrivenFrameInHostSubmit(vk(), broadphase.value(), detector.value(), scene.value(), frame));
        FrameResults out;
        LdiFrameDetails details;
        ASSERT_TRUE(detector->results(frame, out, &details));
        ASSERT_EQ(out.pairs.size(), 1u);
        ASSERT_EQ(details.pairs.size(), 1u);
        EXPECT_EQ(details.pairs[0].neededLayers, 6u);
        if (frame == 0) {
            EXPECT_TRUE(out.pairs[0].truncated);
            EXPECT_FALSE(out.pairs[0].volume);
            continue;
        }
        EXPECT_FALSE(out.truncated);
        ASSERT_TRUE(out.pairs[0].volume);
        EXPECT_LE(std::abs(*out.pairs[0].volume - exact.value()), *out.pairs[0].volumeErrorBound);
    }
    EXPECT_EQ(detector->settings().layerCap, 6u);
}

}  // namespace
}  // namespace vkc
