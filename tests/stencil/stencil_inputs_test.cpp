// Tier B: what the stencil method reads. Positions in the host's interleaved vertex buffer (read
// in place with stride and offset, normals recomputed from them on the GPU), and a deforming
// mesh (new vertices -> new normals and counts the next frame), against the exact oracle.
#include "tests/stencil/stencil_test_support.h"

namespace vkc::stenciltest {
namespace {

class StencilInputsTest : public StencilTest {};

TEST_F(StencilInputsTest, ReadsHostVertexBufferInPlaceWithStride) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    ASSERT_NO_FATAL_FAILURE(addHostBufferSpheresAndBox(scene.value()));
    StencilFrameDetails details;
    auto results = detect(scene.value(), details, settingsAt(192));
    ASSERT_TRUE(results) << results.status().describe();
    EXPECT_EQ(results->pairs.size(), 2u);
    expectAgreesWithOracle(results.value(), details);
    expectPointsNearVolumes(results.value(), details);
}

TEST_F(StencilInputsTest, DeformedMeshIsCountedWithItsNewShape) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    MeshId ball = addMesh(scene.value(), solids::sphere(0.5f, 2));
    MeshId box = addMesh(scene.value(), solids::box({1.0f, 1.0f, 1.0f}));
    addObject(scene.value(), ball, glm::mat4(1.0f));
    addObject(scene.value(), box, glm::translate(glm::mat4(1.0f), {1.3f, 0.0f, 0.0f}));
    auto detector = StencilDetector::create(context_, settingsAt(128));
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
