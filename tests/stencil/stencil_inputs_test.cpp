// Tier B: what the stencil method reads. Positions in the host's interleaved vertex buffer (read
// in place with stride and offset, normals recomputed from them on the GPU), and a deforming
// mesh (new vertices -> new normals and counts the next frame), against the exact oracle.
#include "tests/stencil/stencil_test_support.h"
#include "vk/buffer.h"

namespace vkc::stenciltest {
namespace {

class StencilInputsTest : public StencilTest {};

TEST_F(StencilInputsTest, ReadsHostVertexBufferInPlaceWithStride) {
    MeshData sphere = solids::sphere(0.8f, 2);
    sphere.name = "host sphere";
    // Interleaved host layout: 8 floats per vertex (position, normal, uv) after a 16-byte header.
    const uint32_t strideFloats = 8, headerFloats = 4;
    std::vector<float> interleaved = test::interleavePositions(sphere.positions, strideFloats, headerFloats);
    auto hostBuffer = createBuffer(vk(), {interleaved.size() * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                          MemoryUsage::DeviceLocal, "host interleaved vertices"});
    ASSERT_TRUE(hostBuffer);
    ASSERT_TRUE(uploadBuffer(vk(), hostBuffer.value(), interleaved.data(), interleaved.size() * sizeof(float)));
    {
        auto scene = Scene::create(context_, kVolumeMethodRequirements);
        ASSERT_TRUE(scene);
        meshes_.push_back(std::make_unique<MeshData>(sphere));
        auto mesh = scene->addMesh({"host sphere", meshes_.back().get(), hostBuffer->buffer, headerFloats * 4,
                                    strideFloats * 4});
        ASSERT_TRUE(mesh) << mesh.status().describe();
        meshOf_.push_back(meshes_.back().get());
        MeshId box = addMesh(scene.value(), solids::box({1.0f, 1.0f, 1.0f}));
        addObject(scene.value(), mesh.value(), glm::mat4(1.0f));
        addObject(scene.value(), box, glm::translate(glm::mat4(1.0f), {0.9f, 0.3f, -0.2f}));
        addObject(scene.value(), mesh.value(), glm::translate(glm::mat4(1.0f), {-1.2f, 0.2f, 0.1f}));
        StencilSettings settings;
        settings.resolution = 192;
        auto detector = StencilDetector::create(context_, settings);
        ASSERT_TRUE(detector) << detector.status().describe();
        StencilFrameDetails details;
        auto results = detector->run(scene.value(), &details);
        ASSERT_TRUE(results) << results.status().describe();
        EXPECT_EQ(results->pairs.size(), 2u);
        expectAgreesWithOracle(results.value(), details);
        expectPointsNearVolumes(results.value(), details);
    }
    destroyBuffer(vk(), hostBuffer.value());
}

TEST_F(StencilInputsTest, DeformedMeshIsCountedWithItsNewShape) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    MeshId ball = addMesh(scene.value(), solids::sphere(0.5f, 2));
    MeshId box = addMesh(scene.value(), solids::box({1.0f, 1.0f, 1.0f}));
    addObject(scene.value(), ball, glm::mat4(1.0f));
    addObject(scene.value(), box, glm::translate(glm::mat4(1.0f), {1.3f, 0.0f, 0.0f}));
    StencilSettings settings;
    settings.resolution = 128;
    auto detector = StencilDetector::create(context_, settings);
    ASSERT_TRUE(detector) << detector.status().describe();
    StencilFrameDetails details;
    auto before = detector->run(scene.value(), &details);
    ASSERT_TRUE(before) << before.status().describe();
    EXPECT_TRUE(before->pairs.empty());

    // Stretch the ball along x so that it reaches into the box.
    std::vector<glm::vec3> stretched = meshes_[0]->positions;
    for (glm::vec3& p : stretched) p.x *= 2.0f;
    ASSERT_TRUE(scene->updateVertices(ball, stretched).ok());
    meshes_[0]->positions = stretched;
    auto after = detector->run(scene.value(), &details);
    ASSERT_TRUE(after) << after.status().describe();
    ASSERT_EQ(after->pairs.size(), 1u);
    expectAgreesWithOracle(after.value(), details);
    expectPointsNearVolumes(after.value(), details);
}

}  // namespace
}  // namespace vkc::stenciltest
