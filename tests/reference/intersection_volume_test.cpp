// intersectionVolume: analytic solids (exact answers), error reporting, and the reference
// volumes of ../shared/meshes/README.md to 1e-9 relative.
#include "collision/reference/intersection_volume.h"

#include "tests/reference/test_mesh_loader.h"
#include "tests/reference/test_shapes.h"

#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

#include <cmath>
#include <iomanip>

namespace vkc::reference {
namespace {

using test::makeBox;
using test::makeUnitCube;
using test::translation;

double volumeOf(const MeshData& a, const glm::mat4& ta, const MeshData& b, const glm::mat4& tb) {
    Result<double> v = intersectionVolume(a, ta, b, tb);
    EXPECT_TRUE(v.ok()) << v.status().describe();
    return v.ok() ? *v : NAN;
}

TEST(IntersectionVolume, ShiftedUnitCubesIsExactlyOneEighth) {
    const MeshData cube = makeUnitCube();
    EXPECT_EQ(volumeOf(cube, glm::mat4(1.0f), cube, translation(0.5f, 0.5f, 0.5f)), 0.125);
    EXPECT_EQ(volumeOf(cube, translation(0.5f, 0.5f, 0.5f), cube, glm::mat4(1.0f)), 0.125);
}

TEST(IntersectionVolume, DisjointIsZero) {
    const MeshData cube = makeUnitCube();
    EXPECT_EQ(volumeOf(cube, glm::mat4(1.0f), cube, translation(1.5f, 0, 0)), 0.0);
    EXPECT_EQ(volumeOf(cube, glm::mat4(1.0f), cube, translation(0.2f, 0.2f, 1.25f)), 0.0);
}

TEST(IntersectionVolume, ContainmentIsTheInnerVolume) {
    const MeshData outer = makeUnitCube("outer");
    const MeshData inner = makeBox(glm::vec3(0.25f), glm::vec3(0.75f), "inner");
    EXPECT_EQ(volumeOf(outer, glm::mat4(1.0f), inner, glm::mat4(1.0f)), 0.125);
    EXPECT_EQ(volumeOf(inner, glm::mat4(1.0f), outer, glm::mat4(1.0f)), 0.125);
}

TEST(IntersectionVolume, TouchingSolidsHaveZeroVolume) {
    const MeshData cube = makeUnitCube();
    EXPECT_EQ(volumeOf(cube, glm::mat4(1.0f), cube, translation(1, 0, 0)), 0.0);  // shared face
    EXPECT_EQ(volumeOf(cube, glm::mat4(1.0f), cube, translation(1, 1, 0)), 0.0);  // shared edge
    EXPECT_EQ(volumeOf(cube, glm::mat4(1.0f), cube, translation(1, 1, 1)), 0.0);  // shared corner
}

TEST(IntersectionVolume, IdenticalSolidsGiveTheirVolume) {
    const MeshData cube = makeBox(glm::vec3(-1), glm::vec3(1), "box2");
    EXPECT_EQ(volumeOf(cube, glm::mat4(1.0f), cube, glm::mat4(1.0f)), 8.0);
}

TEST(IntersectionVolume, RotatedCubeGivesOctagonalPrism) {
    // Unit squares with a common centre, one turned 45 degrees, overlap in a regular octagon of
    // area 2(sqrt 2 - 1). The float rotation matrix is not exact: compare to 1e-6.
    const MeshData cube = makeBox(glm::vec3(-0.5f), glm::vec3(0.5f), "centred cube");
    const glm::mat4 turned = glm::rotate(glm::mat4(1.0f), glm::radians(45.0f), glm::vec3(0, 0, 1));
    EXPECT_NEAR(volumeOf(cube, glm::mat4(1.0f), cube, turned), 2.0 * (std::sqrt(2.0) - 1.0), 1e-6);
    // Uniform scale 2 multiplies the volume by 8.
    const glm::mat4 big = glm::scale(glm::mat4(1.0f), glm::vec3(2.0f));
    EXPECT_NEAR(volumeOf(cube, big, cube, big * turned), 16.0 * (std::sqrt(2.0) - 1.0), 8e-6);
}

TEST(IntersectionVolume, OpenMeshIsAnErrorNamingIt) {
    MeshData open = makeUnitCube("open cube");
    open.indices.resize(open.indices.size() - 3);
    Result<double> v = intersectionVolume(makeUnitCube(), glm::mat4(1.0f), open, translation(0.5f, 0, 0));
    ASSERT_FALSE(v.ok());
    EXPECT_EQ(v.status().code, ErrorCode::InvalidMesh);
    EXPECT_NE(v.status().message.find("open cube"), std::string::npos);
    EXPECT_NE(v.status().message.find("not closed"), std::string::npos);
}

TEST(IntersectionVolume, InsideOutMeshIsAnError) {
    MeshData inverted = makeUnitCube("inverted cube");
    for (size_t t = 0; t < inverted.indices.size(); t += 3) std::swap(inverted.indices[t + 1], inverted.indices[t + 2]);
    Result<double> v = intersectionVolume(makeUnitCube(), glm::mat4(1.0f), inverted, translation(0.5f, 0, 0));
    ASSERT_FALSE(v.ok());
    EXPECT_EQ(v.status().code, ErrorCode::InvalidMesh);
    EXPECT_NE(v.status().message.find("inverted cube"), std::string::npos);
}

TEST(IntersectionVolume, SelfIntersectingMeshIsAnErrorNamingIt) {
    std::optional<MeshData> bad = test::loadMeshForTest(test::sharedMeshDir() + "open-or-broken/self_intersectA.obj");
    ASSERT_TRUE(bad);
    Result<double> v = intersectionVolume(*bad, glm::mat4(1.0f), *bad, translation(0.01f, 0, 0));
    ASSERT_FALSE(v.ok());
    EXPECT_EQ(v.status().code, ErrorCode::InvalidMesh);
    EXPECT_NE(v.status().message.find("self_intersectA"), std::string::npos);
    EXPECT_NE(v.status().message.find("self-intersects"), std::string::npos);
}

// ---- Reference volumes (../shared/meshes/README.md, "Reference intersection volumes") ----

// Each case runs twice. (1) On the files' coordinates parsed to double and a double shift, the
// way the README values were computed: must match to 1e-9 relative. (2) Through the MeshData API
// (float positions, float transform): float rounding of the inputs moves these volumes by up to
// ~2e-8 relative (fandisk), so that path is held to 1e-7 relative; GPU tests that compare with
// the README values inherit this floor unless they compare with the oracle on the same floats.
void expectReferenceVolume(const std::string& fileA, const std::string& fileB, glm::dvec3 shiftB, double expected) {
    std::optional<test::TestMesh> a = test::loadTestMesh(test::sharedMeshDir() + fileA);
    std::optional<test::TestMesh> b = fileA == fileB ? a : test::loadTestMesh(test::sharedMeshDir() + fileB);
    ASSERT_TRUE(a && b);
    WorldMesh wa{a->mesh.name, a->filePositions, a->mesh.indices};
    WorldMesh wb{b->mesh.name, b->filePositions, b->mesh.indices};
    for (glm::dvec3& p : wb.positions) p += shiftB;
    Result<double> exact = intersectionVolume(wa, wb);
    ASSERT_TRUE(exact.ok()) << exact.status().describe();
    EXPECT_NEAR(*exact, expected, 1e-9 * expected) << std::setprecision(15) << fileA << " vs " << fileB << ": " << *exact;

    const glm::mat4 shift = translation(float(shiftB.x), float(shiftB.y), float(shiftB.z));
    Result<double> viaFloat = intersectionVolume(a->mesh, glm::mat4(1.0f), b->mesh, shift);
    ASSERT_TRUE(viaFloat.ok()) << viaFloat.status().describe();
    EXPECT_NEAR(*viaFloat, expected, 1e-7 * expected) << std::setprecision(15) << "float path: " << *viaFloat;
}

TEST(ReferenceVolume, Cube) {
    std::optional<MeshData> cube = test::loadMeshForTest(test::sharedMeshDir() + "cube.stl");
    ASSERT_TRUE(cube);
    EXPECT_EQ(cube->triangleCount(), 12u);
    EXPECT_EQ(volumeOf(*cube, glm::mat4(1.0f), *cube, translation(0.5f, 0.5f, 0.5f)), 0.125);
}
TEST(ReferenceVolume, SphereIco4) { expectReferenceVolume("sphere_ico4.stl", "sphere_ico4.stl", {1, 0, 0}, 1.29100111077); }
TEST(ReferenceVolume, Torus) { expectReferenceVolume("torus.stl", "torus.stl", {1.5, 0, 0}, 1.38331932222); }
TEST(ReferenceVolume, Knot) { expectReferenceVolume("knot.off", "knot.off", {0.1, 0, 0}, 0.0349967844596); }
TEST(ReferenceVolume, BallAB) { expectReferenceVolume("ballA.off", "ballB.off", {0, 0, 0}, 324.549994167); }
TEST(ReferenceVolume, Pinion) { expectReferenceVolume("pinion_gear.off", "pinion_gear.off", {0, 0, 0.4}, 0.213922950923); }
TEST(ReferenceVolume, Bunny60k) { expectReferenceVolume("bunny_60k.obj", "bunny_60k.obj", {0.5, 0, 0}, 0.323436872305); }
TEST(ReferenceVolume, Fandisk) { expectReferenceVolume("fandisk.obj", "fandisk.obj", {1, 0, 0}, 12.0632932633); }
TEST(ReferenceVolume, RockerArm) { expectReferenceVolume("rocker-arm.obj", "rocker-arm.obj", {0.1, 0, 0}, 0.017582749187); }
// 1.38M triangles: about a minute and 1.3 GB on one core, so only the double-coordinate path runs
// (the float path would repeat the corefinement to learn only the float rounding of a 0.2 shift).
TEST(ReferenceVolume, Armadillo86kSub2) {
    std::optional<test::TestMesh> a = test::loadTestMesh(test::sharedMeshDir() + "armadillo_86k_sub2.ply");
    ASSERT_TRUE(a);
    EXPECT_EQ(a->mesh.triangleCount(), 1383712u);
    WorldMesh wa{a->mesh.name, a->filePositions, a->mesh.indices};
    WorldMesh wb = wa;
    for (glm::dvec3& p : wb.positions) p.x += 0.2;
    VolumeSettings settings;
    settings.check.checkSelfIntersections = false;  // the meshes README found none; saves half the time
    Result<double> exact = intersectionVolume(wa, wb, settings);
    ASSERT_TRUE(exact.ok()) << exact.status().describe();
    EXPECT_NEAR(*exact, 0.0174630523506, 1e-9 * 0.0174630523506) << std::setprecision(15) << *exact;
}
TEST(ReferenceVolume, HullBodyMask) { expectReferenceVolume("hull-body.obj", "hull-mask.obj", {0, 0, 0}, 3299571.401); }

}  // namespace
}  // namespace vkc::reference
