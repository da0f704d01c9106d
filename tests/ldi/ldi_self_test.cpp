// Tier A (no device): self-collision from the order of front and back faces along each LDI ray
// (the paper's §7 idea): clean closed solids never break the front/back alternation; the shared
// closed-but-self-intersecting mesh does, in every view axis.
#include "collision/reference/ldi_cpu.h"
#include "collision/reference/self_intersections.h"
#include "collision/scene/generated_solids.h"
#include "collision/scene/mesh_self_intersections.h"
#include "tests/ldi/ldi_test_support.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace vkc {
namespace {

uint32_t invalidPixels(const MeshData& mesh, const glm::mat4& transform, uint32_t axis, uint32_t resolution) {
    Aabb box = placedMeshBounds(mesh, transform);
    auto voi = computeLdiVoi(box, box);
    EXPECT_TRUE(voi);
    if (!voi) return 0;
    voi->axis = axis;  // any axis: the object's own box is eligible from both sides
    uint32_t total = 0;
    for (bool forA : {true, false}) total += buildCpuLdi(mesh, transform, *voi, forA, resolution).invalidOrderPixels();
    return total;
}

TEST(LdiSelfCollision, CleanSolidsKeepTheFrontBackOrder) {
    const glm::mat4 turn = glm::rotate(glm::mat4(1.0f), 0.9f, glm::vec3(1, 2, 0.5f));
    for (const char* file : {"sphere_ico4.stl", "torus.stl", "knot.off", "bunny_60k.obj", "pinion_gear.off"}) {
        auto mesh = ldi_test::sharedMesh(file);
        VKC_REQUIRE_SHARED_MESH(mesh);
        for (uint32_t axis = 0; axis < 3; ++axis) EXPECT_EQ(invalidPixels(*mesh, turn, axis, 256), 0u) << file << " axis " << axis;
    }
}

TEST(LdiSelfCollision, SelfIntersectingMeshBreaksTheOrder) {
    auto mesh = ldi_test::sharedMesh("open-or-broken/self_intersectA.obj");
    VKC_REQUIRE_SHARED_MESH(mesh);
    for (uint32_t axis = 0; axis < 3; ++axis) {
        uint32_t invalid = invalidPixels(*mesh, glm::mat4(1.0f), axis, 256);
        std::printf("self_intersectA axis %u: %u of 2 x 65536 pixels with an invalid front/back order\n", axis, invalid);
        EXPECT_GT(invalid, 0u) << "axis " << axis;
    }
}

// Two copies of `mesh` in one mesh, the second moved by `offset`.
MeshData twoCopies(const MeshData& mesh, const glm::vec3& offset) {
    MeshData both = mesh;
    const uint32_t first = uint32_t(mesh.positions.size());
    for (const glm::vec3& p : mesh.positions) both.positions.push_back(p + offset);
    for (uint32_t index : mesh.indices) both.indices.push_back(first + index);
    return both;
}

// The library's own test, which ldi asks before it warns of a self-intersection, agrees with
// CGAL's exact one: on the shared closed meshes (self_intersectA's 338 crossing pairs, wingnut's 3,
// the rest none) and on two spheres in one mesh, crossing, touching-free and apart.
TEST(LdiSelfCollision, TheLibrarysMeshTestAgreesWithTheExactOracle) {
    for (const char* file : {"cube.stl", "sphere_ico4.stl", "pinion_gear.off", "bunny_npm.obj", "couplingdown.off",
                             "knot.off", "wingnut.obj", "torus.stl", "fandisk.obj", "rocker-arm.obj",
                             "open-or-broken/self_intersectA.obj"}) {
        auto mesh = ldi_test::sharedMesh(file);
        VKC_REQUIRE_SHARED_MESH(mesh);
        auto mine = meshSelfIntersects(*mesh);
        auto exact = reference::selfIntersectingTrianglePairs(*mesh);
        ASSERT_TRUE(mine && exact) << file;
        EXPECT_EQ(mine.value(), exact.value() > 0) << file << ": " << exact.value() << " crossing pairs";
    }
    const MeshData sphere = solids::sphere(0.5f, 3);
    for (float apart : {0.3f, 0.9f, 1.5f}) {
        const MeshData both = twoCopies(sphere, {apart, 0.1f * apart, 0.0f});
        auto mine = meshSelfIntersects(both);
        auto exact = reference::selfIntersectingTrianglePairs(both);
        ASSERT_TRUE(mine && exact) << apart;
        EXPECT_EQ(mine.value(), exact.value() > 0) << "spheres " << apart << " apart";
        EXPECT_EQ(mine.value(), apart < 1.0f) << "spheres " << apart << " apart";
    }
}

}  // namespace
}  // namespace vkc
