// Issue 14: a game world's object count. aabb-tree, ebpi, ldi and consistent-pairs index objects in
// 32 bits, so a scene of more than 65,535 objects (stencil's 16-bit limit) goes through them:
// 70,000 small boxes apart from each other and two overlapping spheres whose ids straddle 65,535,
// each method's run(scene) (its own GPU broadphase; ldi also GPU-driven) against the exact oracle.
#include "collision/frames/detector_settings.h"
#include "collision/reference/intersection_volume.h"
#include "collision/reference/triangle_pairs.h"
#include "collision/scene/generated_solids.h"
#include "tests/support/vulkan_test.h"
#include "vk/descriptors.h"
#include "shaders_glsl/shared/aabb_tree.h"
#include "vkcollide/aabb_tree.h"
#include "vkcollide/consistent_pairs.h"
#include "vkcollide/ebpi.h"
#include "vkcollide/ldi.h"
#include "vkcollide/stencil.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

namespace vkc {
namespace {

constexpr uint32_t kBoxes = 70000;
constexpr uint32_t kObjects = kBoxes + 2;

class LargeScene : public test::VulkanTest {
protected:
    // Boxes on a grid 1 apart (0.2 wide: no two overlap), the spheres at ids 1,000 and kObjects - 1,
    // overlapping each other off the grid.
    void SetUp() override {
        test::VulkanTest::SetUp();
        auto scene = Scene::create(context_, kVolumeMethodRequirements);
        ASSERT_TRUE(scene) << scene.status().describe();
        auto box = scene->addMesh({"box", &box_});
        auto sphere = scene->addMesh({"sphere", &sphere_});
        ASSERT_TRUE(box && sphere);
        for (uint32_t i = 0, placed = 0; i < kObjects; ++i) {
            const bool isSphere = i == kFirstSphere || i == kSecondSphere;
            const glm::dmat4 at = isSphere ? sphereAt(i) : gridAt(placed++);
            ASSERT_TRUE(scene->addObject(isSphere ? sphere.value() : box.value(), at));
        }
        scene_ = std::make_unique<Scene>(std::move(scene.value()));
    }
    void TearDown() override {
        scene_.reset();  // before the context it was made with
        test::VulkanTest::TearDown();
    }

    static glm::dmat4 gridAt(uint32_t k) {
        return glm::translate(glm::dmat4(1.0), {double(k % 50), double(k / 50 % 50), double(k / 2500)});
    }
    static glm::dmat4 sphereAt(uint32_t id) {
        return glm::translate(glm::dmat4(1.0), {-5.0 + (id == kFirstSphere ? 0.0 : 0.7), -5.0, -5.0});
    }

    template <class Settings>
    Settings large() {
        Settings settings;
        settings.maxObjects = kObjects;
        return settings;
    }

    static constexpr uint32_t kFirstSphere = 1000, kSecondSphere = kObjects - 1;
    const MeshData box_ = solids::box(glm::vec3(0.2f));
    const MeshData sphere_ = solids::sphere(0.5f, 2);
    std::unique_ptr<Scene> scene_;
};

TEST_F(LargeScene, MethodsWithThirtyTwoBitIdsTakeMoreThan65535Objects) {
    ASSERT_GT(kSecondSphere, kMaxPackedIdObjects);
    const glm::dmat4 ta = sphereAt(kFirstSphere), tb = sphereAt(kSecondSphere);
    auto expectOnlyTheSpheres = [&](const Result<FrameResults>& results, const char* method) {
        ASSERT_TRUE(results) << method << ": " << results.status().describe();
        ASSERT_EQ(results->pairs.size(), 1u) << method;
        EXPECT_EQ(results->pairs[0].a, kFirstSphere) << method;
        EXPECT_EQ(results->pairs[0].b, kSecondSphere) << method;
    };

    auto aabbTree = AabbTreeDetector::create(context_, large<AabbTreeSettings>());
    ASSERT_TRUE(aabbTree) << aabbTree.status().describe();
    auto exactPairs = reference::intersectingTrianglePairs(sphere_, ta, sphere_, tb);
    ASSERT_TRUE(exactPairs) << exactPairs.status().describe();
    auto found = aabbTree->run(*scene_);
    expectOnlyTheSpheres(found, "aabb-tree");
    if (found && found->pairs.size() == 1) EXPECT_EQ(found->pairs[0].trianglePairs, exactPairs->pairs.size());

    auto exactVolume = reference::intersectionVolume(sphere_, ta, sphere_, tb);
    ASSERT_TRUE(exactVolume) << exactVolume.status().describe();
    auto ldi = LdiDetector::create(context_, large<LdiSettings>());
    ASSERT_TRUE(ldi) << ldi.status().describe();
    auto measured = ldi->run(*scene_);
    expectOnlyTheSpheres(measured, "ldi");
    if (measured && measured->pairs.size() == 1)
        EXPECT_LE(std::abs(*measured->pairs[0].volume - exactVolume.value()), *measured->pairs[0].volumeErrorBound);
    // GPU-driven: the pair chosen among 70,002 objects' table on the GPU.
    LdiSettings gpuDriven = large<LdiSettings>();
    gpuDriven.errorBound = LdiErrorBound::DrawnTriangles;
    auto ldiGpu = LdiDetector::create(context_, gpuDriven);
    ASSERT_TRUE(ldiGpu) << ldiGpu.status().describe();
    auto measuredGpu = ldiGpu->run(*scene_);
    expectOnlyTheSpheres(measuredGpu, "ldi GPU-driven");
    if (measuredGpu && measuredGpu->pairs.size() == 1)
        EXPECT_LE(std::abs(*measuredGpu->pairs[0].volume - exactVolume.value()), *measuredGpu->pairs[0].volumeErrorBound);

    // consistent-pairs: its candidates flagged through their hash slots, not an objects^2 matrix.
    auto consistentPairs = ConsistentPairsDetector::create(context_, large<ConsistentPairsSettings>());
    ASSERT_TRUE(consistentPairs) << consistentPairs.status().describe();
    expectOnlyTheSpheres(consistentPairs->run(*scene_), "consistent-pairs");

    EbpiSettings ebpiSettings = large<EbpiSettings>();
    ebpiSettings.tolerance = 0.05 * exactVolume.value();
    auto ebpi = EbpiDetector::create(context_, ebpiSettings);
    ASSERT_TRUE(ebpi) << ebpi.status().describe();
    auto bounded = ebpi->run(*scene_);
    expectOnlyTheSpheres(bounded, "ebpi");
    if (bounded && bounded->pairs.size() == 1 && bounded->pairs[0].volume) {
        EXPECT_LE(std::abs(*bounded->pairs[0].volume - exactVolume.value()), *bounded->pairs[0].volumeErrorBound);
        EXPECT_LE(*bounded->pairs[0].volumeErrorBound, ebpiSettings.tolerance);
    } else {
        ADD_FAILURE() << "ebpi stated no volume for the spheres";
    }
}

// Their limits: stencil keeps 16-bit ids; the others refuse a maxObjects whose per-object table
// would not fit one storage-buffer binding, naming the limit.
TEST_F(LargeScene, EachMethodRefusesMoreObjectsThanItsIdsOrTablesHold) {
    StencilSettings stencil;
    stencil.maxObjects = kMaxPackedIdObjects + 1;
    auto refusedStencil = StencilDetector::create(context_, stencil);
    ASSERT_FALSE(refusedStencil);
    EXPECT_NE(refusedStencil.status().message.find("StencilSettings::maxObjects 65536 exceeds 65535"), std::string::npos)
        << refusedStencil.status().message;
    AabbTreeSettings aabb;
    aabb.maxObjects = objectsPerBinding(vk(), sizeof(gpu::AabbObjectGpu)) + 1;
    auto refusedAabb = AabbTreeDetector::create(context_, aabb);
    ASSERT_FALSE(refusedAabb);
    EXPECT_NE(refusedAabb.status().message.find("AabbTreeSettings::maxObjects " + std::to_string(aabb.maxObjects) +
                                                 " exceeds " + std::to_string(aabb.maxObjects - 1)),
              std::string::npos)
        << refusedAabb.status().message;
    EXPECT_EQ(uint64_t(aabb.maxObjects - 1) * sizeof(gpu::AabbObjectGpu) <= storageBindingLimit(vk()), true);
    // consistent-pairs: 20 bytes of draws per object and iteration (8 by default).
    ConsistentPairsSettings consistentPairs;
    consistentPairs.maxObjects = objectsPerBinding(vk(), 8 * 20) + 1;
    auto refusedConsistentPairs = ConsistentPairsDetector::create(context_, consistentPairs);
    ASSERT_FALSE(refusedConsistentPairs);
    EXPECT_NE(refusedConsistentPairs.status().message.find("ConsistentPairsSettings::maxObjects " +
                                                           std::to_string(consistentPairs.maxObjects) + " exceeds " +
                                                           std::to_string(consistentPairs.maxObjects - 1)),
              std::string::npos)
        << refusedConsistentPairs.status().message;
}

}  // namespace
}  // namespace vkc
