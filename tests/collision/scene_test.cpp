// Scene registration: mesh checks run at addMesh with errors naming the mesh and the problem;
// bad transforms are refused by name and the accepted range is kept in double; requirements differ between object-space and volume methods.
#include "collision/scene/generated_solids.h"
#include "tests/support/vulkan_test.h"
#include "vk/buffer.h"
#include "vkcollide/scene.h"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace vkc {
namespace {

class SceneTest : public test::VulkanTest {};

TEST_F(SceneTest, RefusesNonFiniteVerticesNamingTheMesh) {
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    MeshData box = solids::box(glm::vec3(1.0f));
    box.positions[3].y = std::numeric_limits<float>::quiet_NaN();
    auto mesh = scene->addMesh({"crate", &box});
    ASSERT_FALSE(mesh);
    EXPECT_EQ(mesh.status().code, ErrorCode::InvalidMesh);
    EXPECT_NE(mesh.status().message.find("crate"), std::string::npos) << mesh.status().message;
    EXPECT_EQ(scene->meshCount(), 0u);
}

TEST_F(SceneTest, OpenMeshAcceptedForObjectSpaceRefusedForVolumeMethods) {
    MeshData open = solids::box(glm::vec3(1.0f));
    open.indices.resize(open.indices.size() - 3);  // drop one triangle: three boundary edges
    auto objectSpace = Scene::create(context_, kObjectSpaceMethodRequirements);
    ASSERT_TRUE(objectSpace);
    EXPECT_TRUE(objectSpace->addMesh({"lid-less", &open}));

    auto volume = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(volume);
    auto refused = volume->addMesh({"lid-less", &open});
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.status().message.find("lid-less"), std::string::npos);
    EXPECT_NE(refused.status().message.find("open"), std::string::npos) << refused.status().message;
}

TEST_F(SceneTest, RefusesNanTransformsAndUnknownIds) {
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    MeshData box = solids::box(glm::vec3(1.0f));
    auto mesh = scene->addMesh({"box", &box});
    ASSERT_TRUE(mesh);
    glm::mat4 bad(1.0f);
    bad[3][0] = std::numeric_limits<float>::infinity();
    auto object = scene->addObject(mesh.value(), bad, "runaway");
    ASSERT_FALSE(object);
    EXPECT_NE(object.status().message.find("runaway"), std::string::npos);
    EXPECT_FALSE(scene->addObject(mesh.value() + 1, glm::mat4(1.0f)));
    auto good = scene->addObject(mesh.value(), glm::mat4(1.0f));
    ASSERT_TRUE(good);
    EXPECT_FALSE(scene->setTransform(good.value(), bad).ok());
    EXPECT_FALSE(scene->setTransform(good.value() + 5, glm::mat4(1.0f)).ok());
    EXPECT_EQ(scene->objectCount(), 1u);
}

TEST_F(SceneTest, UpdateVerticesChecksCountAndValues) {
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    MeshData box = solids::box(glm::vec3(1.0f));
    auto mesh = scene->addMesh({"box", &box});
    ASSERT_TRUE(mesh);
    std::vector<glm::vec3> tooFew(3, glm::vec3(0.0f));
    EXPECT_EQ(scene->updateVertices(mesh.value(), tooFew).code, ErrorCode::InvalidArgument);
    std::vector<glm::vec3> nan = box.positions;
    nan[0].x = std::nanf("");
    EXPECT_EQ(scene->updateVertices(mesh.value(), nan).code, ErrorCode::InvalidMesh);
    std::vector<glm::vec3> far = box.positions;
    far[1].y = -3e38f;  // finite, beyond kMaxMeshCoordinate
    const Status farStatus = scene->updateVertices(mesh.value(), far);
    EXPECT_EQ(farStatus.code, ErrorCode::InvalidMesh);
    EXPECT_NE(farStatus.message.find("beyond 1e+08"), std::string::npos) << farStatus.message;
    EXPECT_EQ(scene->mesh(mesh.value()).positions, box.positions) << "a refused update must change nothing";
}


// The accepted transforms (vkcollide/scene.h): similarities with positive determinant, scale and
// translation in range. Each refusal names the object and says what is wrong; the limits
// themselves are accepted, and the transform is kept in double exactly as given.
TEST_F(SceneTest, AcceptsSimilaritiesInRangeAndRefusesTheRestByName) {
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    MeshData box = solids::box(glm::vec3(1.0f));
    auto mesh = scene->addMesh({"box", &box});
    ASSERT_TRUE(mesh);
    const glm::dmat4 rotation = glm::dmat4(glm::mat4_cast(glm::normalize(glm::dquat(0.3, -0.5, 0.7, 0.4))));
    auto similarity = [&](double scale, glm::dvec3 position) {
        glm::dmat4 m = rotation * glm::scale(glm::dmat4(1.0), glm::dvec3(scale));
        m[3] = glm::dvec4(position, 1.0);
        return m;
    };
    for (double scale : {kMinObjectScale, 1e-3, 0.6846963477408263, 1e3, kMaxObjectScale}) {
        // As far as the box's size (scale, and its half diagonal's reach) allows.
        const double far = std::min(kMaxObjectTranslation, scale * (1.0 / kMinObjectSizeToDistance - 0.9));
        const glm::dmat4 m = similarity(scale, {1e-4 * far + 0.123456789012, -5e-5 * far, far});
        auto object = scene->addObject(mesh.value(), m, "ok");
        ASSERT_TRUE(object) << "scale " << scale << ": " << object.status().describe();
        EXPECT_EQ(scene->transform(object.value()), m) << "kept in double, bit for bit";
    }
    auto refused = [&](const glm::dmat4& m, const char* problem) {
        auto object = scene->addObject(mesh.value(), m, "odd one");
        ASSERT_FALSE(object) << problem;
        EXPECT_EQ(object.status().code, ErrorCode::InvalidArgument);
        EXPECT_NE(object.status().message.find("\"odd one\""), std::string::npos) << object.status().message;
        EXPECT_NE(object.status().message.find(problem), std::string::npos) << object.status().message;
    };
    refused(glm::scale(glm::dmat4(1.0), glm::dvec3(1.0, 1.0, -1.0)), "mirrors");
    refused(glm::scale(glm::dmat4(1.0), glm::dvec3(1.0, 2.0, 1.0)), "uniform scale");
    glm::dmat4 shear(1.0);
    shear[1][0] = 0.1;
    refused(shear, "uniform scale");
    refused(glm::scale(glm::dmat4(1.0), glm::dvec3(0.0)), "singular");
    refused(similarity(kMinObjectScale / 2, {}), "outside the supported range");
    refused(similarity(kMaxObjectScale * 2, {}), "outside the supported range");
    refused(similarity(1.0, {0.0, -2 * kMaxObjectTranslation, 0.0}), "translates beyond");
    // Too small for where it is: float world boxes there are coarser than the object.
    refused(similarity(1e-3, {0.0, 1e-3 / kMinObjectSizeToDistance, 0.0}), "float world coordinates cannot resolve");
    glm::dmat4 projective(1.0);
    projective[0][3] = 0.5;
    refused(projective, "not affine");
    EXPECT_EQ(scene->objectCount(), 5u);
}

// A mesh larger than one storage-buffer binding reaches is refused with the bytes it needs, and
// one at the limit is accepted (the device's limit lowered, as a smaller device would report it).
TEST_F(SceneTest, RefusesMeshesBeyondOneStorageBufferBindingWithTheSizeTheyNeed) {
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    const MeshData box = solids::box(glm::vec3(1.0f));  // 8 vertices (96 bytes), 12 triangles (144 bytes)
    const uint32_t saved = vk().properties.limits.maxStorageBufferRange;
    vk().properties.limits.maxStorageBufferRange = 144;
    EXPECT_TRUE(scene->addMesh({"at the limit", &box}));
    vk().properties.limits.maxStorageBufferRange = 143;
    auto refused = scene->addMesh({"too big", &box});
    vk().properties.limits.maxStorageBufferRange = saved;
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.status().code, ErrorCode::Unsupported);
    EXPECT_NE(refused.status().message.find("mesh \"too big\": its 12 triangles need 144 bytes"), std::string::npos)
        << refused.status().message;
    EXPECT_NE(refused.status().message.find("maxStorageBufferRange 143"), std::string::npos) << refused.status().message;
    EXPECT_EQ(scene->meshCount(), 1u);
}

// deformedEveryFrame is for meshes read from the host's buffer: an uploaded mesh changes only
// through updateVertices, so asking for it is the caller's mistake, named.
TEST_F(SceneTest, DeformedEveryFrameNeedsTheHostsBuffer) {
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    const MeshData box = solids::box(glm::vec3(1.0f));
    MeshDesc desc{"uploaded", &box};
    desc.deformedEveryFrame = true;
    auto refused = scene->addMesh(desc);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.status().code, ErrorCode::InvalidArgument);
    EXPECT_NE(refused.status().message.find("mesh \"uploaded\": deformedEveryFrame needs the host's vertex buffer"),
              std::string::npos)
        << refused.status().message;
    EXPECT_EQ(scene->meshCount(), 0u);
}

// addMesh refuses, naming the mesh where it has a name: no name, no data, and host vertex
// layouts the shaders cannot read (offset or stride not a multiple of 4 bytes, stride below 12).
TEST_F(SceneTest, RefusesMeshesWithoutNameDataOrAReadableHostLayout) {
    auto scene = Scene::create(context_);
    ASSERT_TRUE(scene);
    MeshData box = solids::box(glm::vec3(1.0f));
    for (const char* name : {static_cast<const char*>(nullptr), ""}) {
        auto unnamed = scene->addMesh({name, &box});
        ASSERT_FALSE(unnamed);
        EXPECT_EQ(unnamed.status().code, ErrorCode::InvalidArgument);
        EXPECT_NE(unnamed.status().message.find("name"), std::string::npos) << unnamed.status().message;
    }
    auto noData = scene->addMesh({"ghost", nullptr});
    ASSERT_FALSE(noData);
    EXPECT_NE(noData.status().message.find("\"ghost\""), std::string::npos) << noData.status().message;

    auto host = createBuffer(vk(), {4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::DeviceLocal, "host vertices"});
    ASSERT_TRUE(host) << host.status().describe();
    struct Layout { VkDeviceSize offset; uint32_t stride; };
    for (Layout layout : {Layout{2, 12}, Layout{0, 14}, Layout{0, 8}}) {
        auto refused = scene->addMesh({"interleaved", &box, host->buffer, layout.offset, layout.stride});
        ASSERT_FALSE(refused) << "offset " << layout.offset << " stride " << layout.stride;
        EXPECT_EQ(refused.status().code, ErrorCode::InvalidArgument);
        EXPECT_NE(refused.status().message.find("\"interleaved\""), std::string::npos) << refused.status().message;
        EXPECT_NE(refused.status().message.find("multiples of 4"), std::string::npos) << refused.status().message;
    }
    EXPECT_EQ(scene->meshCount(), 0u);
    destroyBuffer(vk(), host.value());
}

}  // namespace
}  // namespace vkc
