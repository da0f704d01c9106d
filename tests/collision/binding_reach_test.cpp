// Tier B: what one storage-buffer binding reaches (maxStorageBufferRange; issue 14's large meshes,
// issue 13's host buffers). A host's vertex buffer larger than one binding (an engine's shared
// buffer) is bound through the range its meshes occupy, not whole: the broadphase, aabb-tree and
// ldi read a mesh at its start validation-clean, with the exact oracle's answers, while a mesh
// placed beyond the reach is refused at addMesh naming it and the bytes. A frame's own buffer
// past the reach (the index buffer of meshes that each fit) is refused naming that buffer and its
// size; on the device's real reach the same detector then answers right.
#include "collision/reference/intersection_volume.h"
#include "collision/reference/triangle_pairs.h"
#include "collision/scene/generated_solids.h"
#include "tests/support/lowered_storage_buffer_limits.h"
#include "tests/support/vulkan_test.h"
#include "vk/buffer.h"
#include "vkcollide/aabb_tree.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/ldi.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

namespace vkc {
namespace {

class BindingReach : public test::VulkanTest {
protected:
    void TearDown() override {
        destroyBuffer(vk(), shared_);
        test::VulkanTest::TearDown();
    }
    Buffer shared_;
};

TEST_F(BindingReach, HostBufferLargerThanOneBindingIsReadThroughItsMeshesRange) {
    const VkDeviceSize reach = storageBindingLimit(vk());
    auto buffer = createBuffer(vk(), {reach + (VkDeviceSize(1) << 20), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                      MemoryUsage::DeviceLocal, "host's shared vertex buffer"});
    ASSERT_TRUE(buffer) << buffer.status().describe();
    shared_ = buffer.value();
    const MeshData ball = solids::sphere(0.5f, 2);
    ASSERT_TRUE(uploadBuffer(vk(), shared_, ball.positions.data(), ball.positions.size() * sizeof(glm::vec3)).ok());

    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene) << scene.status().describe();
    auto near = scene->addMesh({"near", &ball, shared_.buffer, 0, 12});
    ASSERT_TRUE(near) << near.status().describe();
    // The same vertices placed where their last one ends past the reach: refused, naming them.
    const VkDeviceSize farOffset = (reach - ball.positions.size() * 12 + 64) / 4 * 4;
    auto far = scene->addMesh({"far", &ball, shared_.buffer, farOffset, 12});
    ASSERT_FALSE(far);
    EXPECT_EQ(far.status().code, ErrorCode::Unsupported);
    EXPECT_NE(far.status().message.find("mesh \"far\": its vertices reach"), std::string::npos) << far.status().message;
    EXPECT_NE(far.status().message.find(std::to_string(reach) + " bytes one storage-buffer binding reaches"),
              std::string::npos)
        << far.status().message;

    auto uploaded = scene->addMesh({"uploaded", &ball});
    ASSERT_TRUE(uploaded);
    const glm::dmat4 at = glm::translate(glm::dmat4(1.0), {0.6, 0.1, 0.0});
    ASSERT_TRUE(scene->addObject(near.value(), glm::dmat4(1.0)));
    ASSERT_TRUE(scene->addObject(uploaded.value(), at));

    auto broadphase = Broadphase::create(context_);
    ASSERT_TRUE(broadphase);
    auto pcs = broadphase->run(scene.value());
    ASSERT_TRUE(pcs) << pcs.status().describe();
    ASSERT_EQ(pcs->pairs.size(), 1u);

    auto exactPairs = reference::intersectingTrianglePairs(ball, glm::dmat4(1.0), ball, at);
    ASSERT_TRUE(exactPairs);
    AabbTreeSettings aabbSettings;
    auto aabbTree = AabbTreeDetector::create(context_, aabbSettings);
    ASSERT_TRUE(aabbTree);
    auto found = aabbTree->run(scene.value());
    ASSERT_TRUE(found) << found.status().describe();
    ASSERT_EQ(found->pairs.size(), 1u);
    EXPECT_EQ(found->pairs[0].trianglePairs, exactPairs->pairs.size());

    auto exactVolume = reference::intersectionVolume(ball, glm::dmat4(1.0), ball, at);
    ASSERT_TRUE(exactVolume);
    LdiSettings ldiSettings;
    ldiSettings.errorBound = LdiErrorBound::DrawnTriangles;  // GPU-driven
    auto ldi = LdiDetector::create(context_, ldiSettings);
    ASSERT_TRUE(ldi);
    auto measured = ldi->run(scene.value());
    ASSERT_TRUE(measured) << measured.status().describe();
    ASSERT_EQ(measured->pairs.size(), 1u);
    EXPECT_LE(std::abs(*measured->pairs[0].volume - exactVolume.value()), *measured->pairs[0].volumeErrorBound);
}

TEST_F(BindingReach, FrameBufferPastOneBindingIsRefusedNamingItThenTheRealReachRuns) {
    // Two tori of 12,800 triangles: 153,600 bytes of indices each, 307,200 together.
    const MeshData a = solids::torus(0.5f, 0.2f, 80), b = solids::torus(0.45f, 0.15f, 80);
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    LdiSettings settings;
    settings.resolution = 32;  // the frame's other buffers stay far below the lowered reach
    settings.layerCap = 4;
    settings.maxPairs = 1;
    settings.errorBound = LdiErrorBound::DrawnTriangles;
    auto ldi = LdiDetector::create(context_, settings);
    ASSERT_TRUE(ldi) << ldi.status().describe();
    {
        test::LoweredStorageBufferRange lowered(vk(), 200000);
        auto meshA = scene->addMesh({"a", &a});
        auto meshB = scene->addMesh({"b", &b});
        ASSERT_TRUE(meshA && meshB);  // each fits
        ASSERT_TRUE(scene->addObject(meshA.value(), glm::dmat4(1.0)));
        ASSERT_TRUE(scene->addObject(meshB.value(), glm::translate(glm::dmat4(1.0), {0.3, 0.0, 0.1})));
        BroadphaseResults pcs;  // the pair and boxes, as a host would pass them (no broadphase buffers)
        pcs.pairs = {{0, 1}};
        pcs.pairCount = 1;
        pcs.worldBounds = {placedMeshBounds(a, glm::dmat4(1.0)),
                           placedMeshBounds(b, glm::translate(glm::dmat4(1.0), {0.3, 0.0, 0.1}))};
        auto refused = ldi->run(scene.value(), pcs);
        ASSERT_FALSE(refused);
        EXPECT_EQ(refused.status().code, ErrorCode::Unsupported);
        EXPECT_NE(refused.status().message.find("'ldi triangle indices': 307200 bytes, above the 200000 bytes"),
                  std::string::npos)
            << refused.status().message;
    }
    auto measured = ldi->run(scene.value());  // GPU-driven, on the real reach
    ASSERT_TRUE(measured) << measured.status().describe();
    auto exact = reference::intersectionVolume(a, glm::dmat4(1.0), b, glm::translate(glm::dmat4(1.0), {0.3, 0.0, 0.1}));
    ASSERT_TRUE(exact) << exact.status().describe();
    ASSERT_EQ(measured->pairs.size(), 1u);
    EXPECT_LE(std::abs(*measured->pairs[0].volume - exact.value()), *measured->pairs[0].volumeErrorBound);
}

}  // namespace
}  // namespace vkc
