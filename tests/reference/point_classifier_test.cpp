// PointClassifier / pointInside / pointsInside against analytic points in a cube and a sphere.
#include "collision/reference/point_classifier.h"

#include "tests/reference/test_mesh_loader.h"
#include "tests/reference/test_shapes.h"

#include <gtest/gtest.h>

#include <random>

namespace vkc::reference {
namespace {

using test::makeUnitCube;
using test::translation;

TEST(PointClassifier, CubeInsideOutsideBoundary) {
    Result<PointClassifier> c = PointClassifier::create(makeUnitCube(), translation(1, 2, 3));
    ASSERT_TRUE(c.ok()) << c.status().describe();
    auto side = [&](double x, double y, double z) { return *c->classify(glm::dvec3(x, y, z) + glm::dvec3(1, 2, 3)); };
    EXPECT_EQ(side(0.5, 0.5, 0.5), PointSide::Inside);
    EXPECT_EQ(side(0.999, 0.001, 0.5), PointSide::Inside);
    EXPECT_EQ(side(1.001, 0.5, 0.5), PointSide::Outside);
    EXPECT_EQ(side(-0.5, 0.5, 0.5), PointSide::Outside);
    EXPECT_EQ(side(0.5, 0.5, 1.0), PointSide::OnBoundary);  // on a face
    EXPECT_EQ(side(1.0, 1.0, 1.0), PointSide::OnBoundary);  // on a corner
    EXPECT_EQ(side(0.5, 0.5, 0.5 + 1e-12), PointSide::Inside);
    EXPECT_EQ(side(0.5, 0.5, 1.0 + 1e-12), PointSide::Outside);  // exact predicates: no tolerance
}

TEST(PointClassifier, PointInsideCountsBoundaryAsInside) {
    const MeshData cube = makeUnitCube();
    Result<bool> inside = pointInside(cube, glm::mat4(1.0f), {0.25, 0.5, 0.75});
    ASSERT_TRUE(inside.ok());
    EXPECT_TRUE(*inside);
    EXPECT_TRUE(*pointInside(cube, glm::mat4(1.0f), {0.0, 0.5, 0.5}));
    EXPECT_FALSE(*pointInside(cube, glm::mat4(1.0f), {2.0, 0.5, 0.5}));
    // A mirrored placement is still a solid (winding is restored).
    EXPECT_TRUE(*pointInside(cube, glm::scale(glm::mat4(1.0f), glm::vec3(-1, 1, 1)), {-0.5, 0.5, 0.5}));
}

TEST(PointClassifier, SphereBatchMatchesAnalyticRadius) {
    std::optional<MeshData> sphere = test::loadMeshForTest(test::sharedMeshDir() + "sphere_ico4.stl");
    ASSERT_TRUE(sphere);
    ASSERT_EQ(sphere->triangleCount(), 1280u);
    // Icosphere (subdivision 4) of radius 1: vertices on the unit sphere; its faces stay beyond
    // radius 0.99, so r < 0.98 is inside and r > 1.0 outside, whatever the facetting.
    const glm::mat4 place = glm::scale(translation(10, -5, 2), glm::vec3(2.0f));  // centre (10,-5,2), radius 2
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<glm::dvec3> points;
    std::vector<uint8_t> expected;
    while (points.size() < 5000) {
        const glm::dvec3 d(u(rng), u(rng), u(rng));
        const double r = glm::length(d) * 1.2;  // radius in sphere units, 0 .. 2.08
        if (r > 0.98 && r < 1.0) continue;
        points.push_back(glm::dvec3(10, -5, 2) + 2.0 * 1.2 * d);
        expected.push_back(r < 0.98 ? 1 : 0);
    }
    Result<std::vector<uint8_t>> inside = pointsInside(*sphere, place, points);
    ASSERT_TRUE(inside.ok()) << inside.status().describe();
    EXPECT_EQ(*inside, expected);
    size_t insideCount = 0;
    for (uint8_t v : expected) insideCount += v;
    EXPECT_GT(insideCount, 1000u);
    EXPECT_LT(insideCount, 4000u);
}

TEST(PointClassifier, OpenMeshIsRejectedWithItsName) {
    std::optional<MeshData> env = test::loadMeshForTest(test::sharedMeshDir() + "open-or-broken/fcl_env.obj");
    ASSERT_TRUE(env);
    Result<PointClassifier> c = PointClassifier::create(*env, glm::mat4(1.0f));
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.status().code, ErrorCode::InvalidMesh);
    EXPECT_NE(c.status().message.find("fcl_env.obj"), std::string::npos);

    MeshData openCube = makeUnitCube("open cube");
    openCube.indices.resize(openCube.indices.size() - 6);  // drop one face
    Result<bool> r = pointInside(openCube, glm::mat4(1.0f), {0.5, 0.5, 0.5});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message.find("not closed"), std::string::npos);
}

}  // namespace
}  // namespace vkc::reference
