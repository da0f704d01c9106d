// Tier B: the collision points of the determination pass (paper 3, section 4.3) against the exact
// geometry: each point lies on its own object's surface and within the distance threshold of the
// other's, its normal (computed on the GPU from the triangle hit) is the outward normal of the
// nearest triangle of its object, and the four front/back cases all occur where two solids
// interpenetrate. Also a host's interleaved vertex buffer, read in place with stride and offset.
#include "tests/consistent_pairs/consistent_pairs_test_support.h"

namespace vkc::consistent_pairs_test {
namespace {

class ConsistentPairsPointsTest : public ConsistentPairsTest {};

TEST_F(ConsistentPairsPointsTest, PointsOnBothSurfacesWithTriangleNormals) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    MeshId box = addMesh(scene.value(), solids::box({1.0f, 0.8f, 1.2f}));
    MeshId ball = addMesh(scene.value(), solids::sphere(0.6f, 2));
    addObject(scene.value(), box, glm::rotate(glm::mat4(1.0f), 0.4f, glm::vec3(0.2f, 1.0f, 0.3f)));
    addObject(scene.value(), ball, glm::translate(glm::mat4(1.0f), {0.55f, 0.25f, 0.1f}));
    ConsistentPairsFrameDetails details;
    auto results = detect(scene.value(), details);
    ASSERT_TRUE(results) << results.status().describe();
    ASSERT_EQ(results->pairs.size(), 1u);
    EXPECT_FALSE(details.pointsTruncated);
    // Two surface samples per determination point, each with its triangle's normal.
    EXPECT_EQ(results->pairs[0].points.size(), 2 * details.pointCount);
    EXPECT_EQ(results->pairs[0].normals.size(), results->pairs[0].points.size());
    // The paper's four cases (Fig. 6) all occur, each with t not deeper than p along the view (+z).
    bool cases[2][2] = {};
    for (const ConsistentPairsPoint& point : details.points) {
        cases[point.frontP][point.frontT] = true;
        EXPECT_GE(point.p.z, point.t.z - 1e-5f) << "t must not be deeper than p";
    }
    EXPECT_TRUE(cases[1][1]) << "front/front";
    EXPECT_TRUE(cases[0][1]) << "back/front";
    EXPECT_TRUE(cases[1][0]) << "front/back";
    EXPECT_TRUE(cases[0][0]) << "back/back";
    const size_t checked = expectPointsOnBothSurfaces(details, 96);
    std::printf("[ cp       ] %u points, %zu checked against the surfaces, threshold %.4f\n", details.pointCount,
                checked, details.distanceThreshold);
    EXPECT_GT(checked, 32u);
    expectAgreesWithOracle(results.value(), details);
}

TEST_F(ConsistentPairsPointsTest, ReadsHostVertexBufferInPlaceWithStride) {
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    ASSERT_NO_FATAL_FAILURE(addHostBufferSpheresAndBox(scene.value()));
    ConsistentPairsFrameDetails details;
    auto results = detect(scene.value(), details, testSettings(192));
    ASSERT_TRUE(results) << results.status().describe();
    EXPECT_EQ(results->pairs.size(), 2u);
    expectAgreesWithOracle(results.value(), details);
    expectPointsOnBothSurfaces(details, 32);
}

}  // namespace
}  // namespace vkc::consistent_pairs_test
