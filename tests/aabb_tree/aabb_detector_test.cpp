// Tier B: AabbTreeDetector against the exact oracle (CGAL) on shared meshes under seeded random
// rigid motions: triangle counts that are and are not multiples of the 64-thread groups, open
// meshes, FCL's env/rob triangle soups; and the shared pipeline layout against all three SPIR-V.
#include "aabb_detector_support.h"
#include "aabb_test_support.h"

#include "collision/aabb_tree/aabb_traversal_cpu.h"
#include "shaders_glsl/shared/aabb_pair_setup.h"

#include "passes/aabb_tree/aabb_tree_passes.h"
#include "tests/support/reflection_check.h"
#include "tests/support/test_geometry.h"
#include "tools/cli/aabb_tree_method.h"

#include "spirv/aabb_indirect.comp.h"
#include "spirv/aabb_pairs.comp.h"
#include "spirv/aabb_refit.comp.h"
#include "spirv/aabb_traverse.comp.h"

#include <chrono>

namespace vkc {
namespace {

using namespace aabbtest;

class AabbDetectorTest : public test::VulkanTest {
protected:
    // A scene with one object per mesh (ids in order), all at the identity.
    Scene makeScene(const std::vector<MeshData>& meshes) {
        auto scene = Scene::create(context_);
        EXPECT_TRUE(scene) << scene.status().describe();
        for (const MeshData& m : meshes) {
            auto id = scene->addMesh({m.name.c_str(), &m});
            EXPECT_TRUE(id) << id.status().describe();
            EXPECT_TRUE(scene->addObject(id.value(), glm::mat4(1.0f), m.name));
        }
        return std::move(scene.value());
    }

    // The shared meshes `names`, loaded (and normalised); a failure is a test failure.
    static std::vector<MeshData> sharedMeshes(std::initializer_list<const char*> names) {
        std::vector<MeshData> meshes;
        for (const char* name : names)
            if (auto mesh = loadSharedMesh(name)) meshes.push_back(std::move(*mesh));
        return meshes;
    }

    AabbTreeDetector makeDetector(AabbTreeSettings settings = {}) {
        settings.keepTrianglePairList = true;
        auto detector = AabbTreeDetector::create(context_, settings);
        EXPECT_TRUE(detector) << detector.status().describe();
        return std::move(detector.value());
    }
};

TEST_F(AabbDetectorTest, LayoutMatchesSpirv) {
    Status pairs = test::checkPipelineLayout(kSpirv_aabb_pairs_comp, kAabbPipelineLayout, "aabb_pairs.comp");
    EXPECT_TRUE(pairs.ok()) << pairs.describe();
    EXPECT_TRUE(test::checkPipelineLayout(kSpirv_aabb_refit_comp, kAabbPipelineLayout, "aabb_refit.comp").ok());
    EXPECT_TRUE(test::checkPipelineLayout(kSpirv_aabb_indirect_comp, kAabbPipelineLayout, "aabb_indirect.comp").ok());
    Status traverse = test::checkPipelineLayout(kSpirv_aabb_traverse_comp, kAabbPipelineLayout, "aabb_traverse.comp");
    EXPECT_TRUE(traverse.ok()) << traverse.describe();
}

// Any similarity a user can write: scales from 1e-3 to 1e3 and positions 1e4 from the origin, with
// the relative poses of a unit-scale scene (so contacts exist at every scale). The pair's relative
// transform is composed in double; in float its last row was not exactly (0, 0, 0, 1) and scaled
// pairs were refused as "not a finite affine map" (regressions/pair_2_0.json).
TEST_F(AabbDetectorTest, ScaledAndFarFromOriginMatchOracle) {
    const std::vector<MeshData> meshes = sharedMeshes({"pinion_gear.off", "couplingdown.off"});
    ASSERT_EQ(meshes.size(), 2u);
    Scene scene = makeScene(meshes);
    AabbTreeDetector detector = makeDetector();
    std::mt19937 rng(20261124);
    size_t total = 0;
    for (double scale : {1e-3, 0.6846963477408263, 1e3}) {
        for (glm::dvec3 origin : {glm::dvec3(0.0), test::kFarOrigin}) {
            for (ObjectId o = 0; o < scene.objectCount(); ++o)
                ASSERT_TRUE(scene.setTransform(o, test::scaledAndMoved(randomRigid(rng, 0.3f), scale, origin)));
            auto results = detector.run(scene);
            ASSERT_TRUE(results) << "scale " << scale << ": " << results.status().describe();
            total += expectMatchesOracle(scene, results.value(), ("scale " + std::to_string(scale)).c_str());
        }
    }
    EXPECT_GT(total, 50u) << "the poses should produce contacts";
    EXPECT_EQ(nearTouchExtras(), 0u);
}

// One detector over two scenes whose meshes share ids but not shapes: trees, node buffers and
// entrance levels were kept by mesh id and object pair, so the second scene was traversed with the
// first scene's trees and missed its contacts (found by the differential campaign).
TEST_F(AabbDetectorTest, ASecondSceneDoesNotReuseTheFirstScenesTrees) {
    const std::vector<MeshData> first = sharedMeshes({"knot.off", "sphere_ico4.stl"});
    const std::vector<MeshData> second = sharedMeshes({"pinion_gear.off", "couplingdown.off"});
    ASSERT_EQ(first.size() + second.size(), 4u);
    AabbTreeDetector detector = makeDetector();
    std::mt19937 rng(77);
    size_t total = 0;
    for (const std::vector<MeshData>* meshes : {&first, &second, &first}) {
        Scene scene = makeScene(*meshes);
        for (int frame = 0; frame < 2; ++frame) {  // a second frame enters at the learnt levels
            ASSERT_TRUE(scene.setTransform(1, randomRigid(rng, 0.2f)));
            auto results = detector.run(scene);
            ASSERT_TRUE(results) << results.status().describe();
            total += expectMatchesOracle(scene, results.value(), meshes->front().name.c_str());
        }
    }
    EXPECT_GT(total, 50u);
}

// Closed shared meshes: pinion 1300 and bunny 3674 triangles (not multiples of 64), icosphere
// 1280 and knot 4160 (multiples), three objects per frame so pairs of different depths batch.
TEST_F(AabbDetectorTest, SharedMeshesMatchOracleUnderRandomRigidMotions) {
    const std::vector<MeshData> meshes = sharedMeshes({"pinion_gear.off", "bunny_npm.obj", "sphere_ico4.stl", "knot.off"});
    ASSERT_EQ(meshes.size(), 4u);
    Scene scene = makeScene(meshes);
    AabbTreeDetector detector = makeDetector();
    std::mt19937 rng(20261122);
    size_t total = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int frame = 0; frame < 6; ++frame) {
        for (ObjectId o = 0; o < scene.objectCount(); ++o) ASSERT_TRUE(scene.setTransform(o, randomRigid(rng, 0.3f)));
        auto results = detector.run(scene);
        ASSERT_TRUE(results) << results.status().describe();
        total += expectMatchesOracle(scene, results.value(), ("frame " + std::to_string(frame)).c_str());
        EXPECT_TRUE(results->gpuTimingsMs.count("aabb-traverse"));
        EXPECT_TRUE(results->gpuTimingsMs.count("aabb-clear"));
    }
    EXPECT_GT(total, 100u) << "the motions should produce contacts";
    // Near-touching extras (see aabb_detector_support.h): none at these seeds with double predicates.
    EXPECT_EQ(nearTouchExtras(), 0u);
    std::printf("[ aabb ] shared closed meshes: %zu triangle pairs over 6 frames, %.0f ms\n", total,
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
}

// Open meshes: the Utah teapot (open, non-manifold vertices) against the coupling.
TEST_F(AabbDetectorTest, OpenMeshMatchesOracle) {
    auto teapot = loadSharedMesh("open-or-broken/teapot_open.obj");
    auto coupling = loadSharedMesh("couplingdown.off");
    ASSERT_TRUE(teapot && coupling);
    Scene scene = makeScene({*teapot, *coupling});
    AabbTreeDetector detector = makeDetector();
    std::mt19937 rng(7);
    size_t total = 0;
    for (int frame = 0; frame < 4; ++frame) {
        ASSERT_TRUE(scene.setTransform(1, randomRigid(rng, 0.25f)));
        auto results = detector.run(scene);
        ASSERT_TRUE(results) << results.status().describe();
        total += expectMatchesOracle(scene, results.value(), ("frame " + std::to_string(frame)).c_str());
    }
    EXPECT_GT(total, 0u);
}

// FCL's own test data (triangle soups, unnormalised, env ~ 2180 and rob 216 triangles): rob placed
// at seeded random poses inside env's box, as FCL's test_fcl_collision does.
TEST_F(AabbDetectorTest, FclEnvRobMatchesOracle) {
    auto env = loadSharedMesh("open-or-broken/fcl_env.obj", false);
    auto rob = loadSharedMesh("open-or-broken/fcl_rob.obj", false);
    ASSERT_TRUE(env && rob);
    glm::vec3 lo(INFINITY), hi(-INFINITY);
    for (const glm::vec3& p : env->positions) lo = glm::min(lo, p), hi = glm::max(hi, p);
    Scene scene = makeScene({*env, *rob});
    AabbTreeDetector detector = makeDetector();
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> x(lo.x, hi.x), y(lo.y, hi.y), z(lo.z, hi.z);
    size_t total = 0, colliding = 0;
    for (int frame = 0; frame < 12; ++frame) {
        glm::mat4 pose = randomRigid(rng, 0.0f);
        pose[3] = glm::vec4(x(rng), y(rng), z(rng), 1.0f);
        ASSERT_TRUE(scene.setTransform(1, pose));
        auto results = detector.run(scene);
        ASSERT_TRUE(results) << results.status().describe();
        const size_t n = expectMatchesOracle(scene, results.value(), ("pose " + std::to_string(frame)).c_str());
        total += n;
        colliding += n != 0;
    }
    EXPECT_GT(colliding, 0u) << "some poses should collide";
    std::printf("[ aabb ] fcl env/rob: %zu colliding poses of 12, %zu triangle pairs\n", colliding, total);
}

// Bit-for-bit the CPU reference of the traversal (collision/aabb_tree/aabb_traversal_cpu.h) on generated
// meshes of depths 3..10 (counts not multiples of 64, one open): the GPU's per-level counters
// (what the paper read with occlusion queries), per-pair counts and triangle pairs are identical.
TEST_F(AabbDetectorTest, CountersMatchCpuTraversalExactly) {
    std::vector<MeshData> meshes = {uvSphere(13, 9, 1.0f), subdividedBox(5, {0.8f, 0.6f, 0.7f}),
                                    icosphere(2, 0.9f, 23), tetrahedron(0.6f), uvSphere(13, 9, 1.0f)};
    Scene scene = makeScene(meshes);
    std::mt19937 rng(31);
    for (ObjectId o = 0; o < scene.objectCount(); ++o) ASSERT_TRUE(scene.setTransform(o, randomRigid(rng, 0.5f)));
    std::vector<ObjectPair> all;
    for (uint32_t a = 0; a < scene.objectCount(); ++a)
        for (uint32_t b = a + 1; b < scene.objectCount(); ++b) all.push_back({a, b});
    AabbTreeSettings settings;
    settings.disableTemporalCoherence = true;
    AabbTreeDetector detector = makeDetector(settings);
    AabbTreeFrameDetails stats;
    auto results = detector.run(scene, withPlacedBounds(scene, all), &stats);
    ASSERT_TRUE(results) << results.status().describe();

    std::vector<AabbTree> trees;
    std::vector<AabbTreeView> views;
    for (const MeshData& m : meshes) trees.push_back(buildAabbTree(m).value());
    for (size_t i = 0; i < meshes.size(); ++i) views.push_back({&trees[i], meshes[i].positions});
    std::vector<gpu::AabbPairGpu> pairs;
    // As the GPU sets them up from the candidate list (aabb_pairs.comp): the shared aabbPairEntry.
    for (const ObjectPair& p : all) {
        const gpu::AabbObjectGpu a = aabbObject(scene.transform(p.a), p.a, trees[p.a].nodes[0]);
        const gpu::AabbObjectGpu b = aabbObject(scene.transform(p.b), p.b, trees[p.b].nodes[0]);
        pairs.push_back(gpu::aabbPairEntry(a, b, p.a, p.b, trees[p.a].levelCount, trees[p.b].levelCount));
    }
    const uint32_t levels = assignAabbGlobalLevels(pairs);
    auto seeds = buildAabbSeedTable(views, pairs, {});
    ASSERT_TRUE(seeds);
    AabbTraversalOutput cpu;
    ASSERT_TRUE(traverseAabbTreesCpu(views, pairs, seeds.value(), levels, {}, cpu).ok());

    ASSERT_EQ(stats.globalLevels, levels);
    EXPECT_FALSE(stats.nodePairOverflow);
    EXPECT_EQ(stats.trianglePairCount, cpu.state.trianglePairCount);
    for (uint32_t g = 0; g < levels; ++g) {
        EXPECT_EQ(stats.levelTested[g], cpu.state.levelTested[g]) << "level " << g;
        EXPECT_EQ(stats.levelOverlaps[g], cpu.state.levelOverlaps[g]) << "level " << g;
    }
    std::map<std::pair<uint32_t, uint32_t>, TriSet> cpuLists;
    for (const gpu::AabbTrianglePairGpu& t : cpu.trianglePairs)
        cpuLists[std::make_pair(all[t.pair].a, all[t.pair].b)].insert({t.triangleA, t.triangleB});
    size_t colliding = 0;
    for (size_t k = 0; k < all.size(); ++k) colliding += cpu.pairStats[k].trianglePairs != 0;
    ASSERT_EQ(results->pairs.size(), colliding);
    for (const PairResult& r : results->pairs) {
        const TriSet gpuList(r.trianglePairList.begin(), r.trianglePairList.end());
        EXPECT_EQ(gpuList, cpuLists[std::make_pair(r.a, r.b)]) << r.a << "-" << r.b;
    }
    EXPECT_GT(cpu.state.trianglePairCount, 0u);
}

// Caller mistakes are errors that name the problem, never crashes.
TEST_F(AabbDetectorTest, BadPairsNameTheProblem) {
    MeshData ball = icosphere(1, 0.5f, 0);
    Scene scene = makeScene({ball, ball, ball});
    // Apart from each other's surfaces (not coincident), all three overlapping in pairs.
    ASSERT_TRUE(scene.setTransform(1, glm::translate(glm::mat4(1.0f), {0.35f, 0.1f, 0.05f})));
    ASSERT_TRUE(scene.setTransform(2, glm::translate(glm::mat4(1.0f), {0.15f, 0.4f, -0.1f})));
    AabbTreeDetector detector = makeDetector();
    auto unknown = detector.run(scene, withPlacedBounds(scene, {{0, 7}}));
    ASSERT_FALSE(unknown);
    EXPECT_EQ(unknown.status().code, ErrorCode::InvalidArgument);
    EXPECT_NE(unknown.status().message.find("(0, 7)"), std::string::npos) << unknown.status().message;
    AabbTreeSettings one;
    one.maxCandidatePairs = 1;
    AabbTreeDetector small = makeDetector(one);
    auto tooMany = small.run(scene, withPlacedBounds(scene, {{0, 1}, {1, 2}}));
    ASSERT_FALSE(tooMany);
    EXPECT_NE(tooMany.status().message.find("maxCandidatePairs"), std::string::npos) << tooMany.status().message;
    // Self pairs are ignored, reversed and repeated pairs normalised: one pair, a < b.
    auto normalised = detector.run(scene, withPlacedBounds(scene, {{1, 1}, {1, 0}, {0, 1}}));
    ASSERT_TRUE(normalised) << normalised.status().describe();
    ASSERT_EQ(normalised->pairs.size(), 1u);
    EXPECT_EQ(normalised->pairs[0].a, 0u);
    EXPECT_EQ(normalised->pairs[0].b, 1u);
    const TriSet expected = oraclePairs(scene, 0, 1);
    EXPECT_GT(expected.size(), 0u);
    EXPECT_EQ(normalised->pairs[0].trianglePairs.value_or(0), expected.size());
    EXPECT_EQ(TriSet(normalised->pairs[0].trianglePairList.begin(), normalised->pairs[0].trianglePairList.end()), expected);
    // And the detector still gives the oracle's answer after the errors, for every pair.
    auto after = detector.run(scene);
    ASSERT_TRUE(after) << after.status().describe();
    EXPECT_EQ(after->pairs.size(), 3u);
    EXPECT_GT(expectMatchesOracle(scene, after.value(), "after the errors"), expected.size());
}

// The harness entry point: the broadphase's PCS in, the same answer as the oracle out.
TEST_F(AabbDetectorTest, HarnessFrameOverBroadphasePcs) {
    auto ball = loadSharedMesh("ballA.off");  // 3796 triangles
    auto wingnut = loadSharedMesh("wingnut.obj");
    ASSERT_TRUE(ball && wingnut);
    Scene scene = makeScene({*ball, *wingnut, *ball});
    ASSERT_TRUE(scene.setTransform(1, glm::translate(glm::mat4(1.0f), {0.4f, 0.2f, 0.0f})));
    ASSERT_TRUE(scene.setTransform(2, glm::translate(glm::mat4(1.0f), {3.0f, 0.0f, 0.0f})));  // far away
    auto broadphase = Broadphase::create(context_);
    ASSERT_TRUE(broadphase);
    auto pcs = broadphase->run(scene);
    ASSERT_TRUE(pcs) << pcs.status().describe();
    ASSERT_EQ(pcs->pairs.size(), 1u);
    std::optional<AabbTreeDetector> detector = makeDetector();
    auto results = tools::runAabbTreeFrame(context_, detector, scene, pcs.value(), true);
    ASSERT_TRUE(results) << results.status().describe();
    EXPECT_GT(expectMatchesOracle(scene, results.value(), "harness"), 0u);
    auto counts = tools::runAabbTreeFrame(context_, detector, scene, pcs.value(), false);
    ASSERT_TRUE(counts);
    ASSERT_EQ(counts->pairs.size(), 1u);
    EXPECT_TRUE(counts->pairs[0].trianglePairList.empty());
    EXPECT_EQ(counts->pairs[0].trianglePairs, results->pairs[0].trianglePairs);

    // Lists far too small for this pair: the harness grows them (as the overflow warning tells a
    // host to) and gives the complete, exact answer rather than a truncated one.
    AabbTreeSettings tiny;
    tiny.nodePairCapacity = 64;
    tiny.trianglePairCapacity = 16;
    std::optional<AabbTreeDetector> small = makeDetector(tiny);
    auto grown = tools::runAabbTreeFrame(context_, small, scene, pcs.value(), true);
    ASSERT_TRUE(grown) << grown.status().describe();
    EXPECT_EQ(expectMatchesOracle(scene, grown.value(), "grown lists"), results->pairs[0].trianglePairList.size());
    EXPECT_GT(small->settings().nodePairCapacity, 64u);
    EXPECT_GE(small->settings().trianglePairCapacity, results->pairs[0].trianglePairList.size());
}

}  // namespace
}  // namespace vkc
