// Tier B: AabbTreeDetector against the exact oracle (CGAL) on shared meshes under seeded random
// rigid motions: triangle counts that are and are not multiples of the 64-thread groups, open
// meshes, FCL's env/rob triangle soups; and the shared pipeline layout against all three SPIR-V.
#include "aabb_detector_support.h"

#include "passes/aabb_tree_passes.h"
#include "tests/support/reflection_check.h"

#include "spirv/aabb_indirect.comp.h"
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

    AabbTreeDetector makeDetector(AabbTreeSettings settings = {}) {
        settings.keepTrianglePairList = true;
        auto detector = AabbTreeDetector::create(context_, settings);
        EXPECT_TRUE(detector) << detector.status().describe();
        return std::move(detector.value());
    }
};

TEST_F(AabbDetectorTest, LayoutMatchesSpirv) {
    EXPECT_TRUE(test::checkPipelineLayout(kSpirv_aabb_refit_comp, kAabbPipelineLayout, "aabb_refit.comp").ok());
    EXPECT_TRUE(test::checkPipelineLayout(kSpirv_aabb_indirect_comp, kAabbPipelineLayout, "aabb_indirect.comp").ok());
    Status traverse = test::checkPipelineLayout(kSpirv_aabb_traverse_comp, kAabbPipelineLayout, "aabb_traverse.comp");
    EXPECT_TRUE(traverse.ok()) << traverse.describe();
}

// Closed shared meshes: pinion 1300 and bunny 3674 triangles (not multiples of 64), icosphere
// 1280 and knot 4160 (multiples), three objects per frame so pairs of different depths batch.
TEST_F(AabbDetectorTest, SharedMeshesMatchOracleUnderRandomRigidMotions) {
    std::vector<MeshData> meshes;
    for (const char* name : {"pinion_gear.off", "bunny_npm.obj", "sphere_ico4.stl", "knot.off"}) {
        auto mesh = loadSharedMesh(name);
        ASSERT_TRUE(mesh);
        meshes.push_back(std::move(*mesh));
    }
    Scene scene = makeScene(meshes);
    AabbTreeDetector detector = makeDetector();
    std::mt19937 rng(20261122);
    size_t total = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int frame = 0; frame < 6; ++frame) {
        for (ObjectId o = 0; o < scene.objectCount(); ++o) ASSERT_TRUE(scene.setTransform(o, randomRigidMotion(rng, 0.3f)));
        auto results = detector.run(scene);
        ASSERT_TRUE(results) << results.status().describe();
        total += expectMatchesOracle(scene, results.value(), ("frame " + std::to_string(frame)).c_str());
        EXPECT_TRUE(results->gpuTimingsMs.count("aabb-traverse"));
        EXPECT_TRUE(results->gpuTimingsMs.count("aabb-clear"));
    }
    EXPECT_GT(total, 100u) << "the motions should produce contacts";
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
        ASSERT_TRUE(scene.setTransform(1, randomRigidMotion(rng, 0.25f)));
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
        glm::mat4 pose = randomRigidMotion(rng, 0.0f);
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

}  // namespace
}  // namespace vkc
