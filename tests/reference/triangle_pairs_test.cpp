// intersectingTrianglePairs: hand-checked cases, the touching policy, degenerate triangles, and
// the box broad phase against a brute-force all-pairs loop (closed solids and FCL's open soups).
#include "collision/reference/triangle_pairs.h"

#include "tests/reference/brute_force.h"
#include "tests/reference/test_mesh_loader.h"
#include "tests/reference/test_shapes.h"

#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

#include <random>

namespace vkc::reference {
namespace {

using test::makeBox;
using test::makeUnitCube;
using test::translation;

MeshData singleTriangle(glm::vec3 a, glm::vec3 b, glm::vec3 c, std::string name) {
    MeshData m;
    m.name = std::move(name);
    m.positions = {a, b, c};
    m.indices = {0, 1, 2};
    return m;
}

size_t pairCount(const MeshData& a, const MeshData& b, const glm::mat4& tb = glm::mat4(1.0f)) {
    Result<TrianglePairsResult> r = intersectingTrianglePairs(a, glm::mat4(1.0f), b, tb);
    EXPECT_TRUE(r.ok()) << r.status().describe();
    return r.ok() ? r->pairs.size() : SIZE_MAX;
}

TEST(TrianglePairs, SingleTrianglesCrossingAndApart) {
    const MeshData flat = singleTriangle({0, 0, 0}, {2, 0, 0}, {0, 2, 0}, "flat");
    const MeshData crossing = singleTriangle({0.5f, 0.5f, -1}, {0.5f, 0.5f, 1}, {1.5f, -1, 0}, "crossing");
    EXPECT_EQ(pairCount(flat, crossing), 1u);
    EXPECT_EQ(pairCount(flat, crossing, translation(0, 0, 1.5f)), 0u);  // lifted clear of the plane
    EXPECT_EQ(pairCount(flat, crossing, translation(3, 3, 0)), 0u);     // beside it, in the plane's height
}

TEST(TrianglePairs, TouchingCountsAsIntersecting) {
    const MeshData flat = singleTriangle({0, 0, 0}, {2, 0, 0}, {0, 2, 0}, "flat");
    // Apex exactly on the plane inside the triangle: touching.
    const MeshData apexDown = singleTriangle({0.5f, 0.5f, 0}, {0.5f, 0.5f, 1}, {1, 0.25f, 1}, "apex");
    EXPECT_EQ(pairCount(flat, apexDown), 1u);
    // Shared vertex only.
    const MeshData corner = singleTriangle({2, 0, 0}, {3, 0, 0}, {3, 1, 1}, "corner");
    EXPECT_EQ(pairCount(flat, corner), 1u);
    // Coplanar overlap.
    const MeshData coplanar = singleTriangle({0.25f, 0.25f, 0}, {3, 0.25f, 0}, {0.25f, 3, 0}, "coplanar");
    EXPECT_EQ(pairCount(flat, coplanar), 1u);
    // A hair above: 2^-20 is exact in float and double, so this is strictly apart.
    EXPECT_EQ(pairCount(flat, apexDown, translation(0, 0, 1.0f / 1048576.0f)), 0u);
}

TEST(TrianglePairs, DegenerateTrianglesAreSkippedAndCounted) {
    MeshData a = singleTriangle({0, 0, 0}, {2, 0, 0}, {0, 2, 0}, "with degenerate");
    // Collinear triangle lying across the first one, and a repeated-index triangle.
    a.positions.insert(a.positions.end(), {{0.1f, 0.1f, 0}, {0.2f, 0.2f, 0}, {0.4f, 0.4f, 0}});
    a.indices.insert(a.indices.end(), {3, 4, 5, 0, 0, 1});
    const MeshData crossing = singleTriangle({0.5f, 0.5f, -1}, {0.5f, 0.5f, 1}, {1.5f, -1, 0}, "crossing");
    Result<TrianglePairsResult> r = intersectingTrianglePairs(a, glm::mat4(1.0f), crossing, glm::mat4(1.0f));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->degenerateA, 2u);
    EXPECT_EQ(r->degenerateB, 0u);
    ASSERT_EQ(r->pairs.size(), 1u);
    EXPECT_EQ(r->pairs[0], (TrianglePair{0, 0}));
}

TEST(TrianglePairs, PostThroughCubeTopIsHandChecked) {
    // A post [0.2,0.4]x[0.6,0.8]x[0.5,1.5] pierces the cube's top face in the half y > x, i.e.
    // cube triangle 3 ((0,0,1),(1,1,1),(0,1,1)); only the post's 8 side triangles (4..11) cross z = 1.
    const MeshData cube = makeUnitCube();
    const MeshData post = makeBox({0.2f, 0.6f, 0.5f}, {0.4f, 0.8f, 1.5f}, "post");
    Result<TrianglePairsResult> r = intersectingTrianglePairs(cube, glm::mat4(1.0f), post, glm::mat4(1.0f));
    ASSERT_TRUE(r.ok());
    std::vector<TrianglePair> expected;
    for (uint32_t t = 4; t < 12; ++t) expected.push_back({3, t});
    EXPECT_EQ(r->pairs, expected);
}

TEST(TrianglePairs, ShiftedCubesMatchBruteForce) {
    const MeshData cube = makeUnitCube();
    const glm::mat4 rotated = glm::rotate(translation(0.5f, 0.3f, 0.2f), glm::radians(37.0f), glm::vec3(1, 2, 3));
    for (const glm::mat4& tb : {translation(0.5f, 0.5f, 0.5f), rotated}) {
        Result<WorldMesh> wa = toWorld(cube, glm::mat4(1.0f));
        Result<WorldMesh> wb = toWorld(cube, tb);
        ASSERT_TRUE(wa.ok() && wb.ok());
        Result<TrianglePairsResult> r = intersectingTrianglePairs(*wa, *wb);
        ASSERT_TRUE(r.ok());
        EXPECT_GT(r->pairs.size(), 0u);
        EXPECT_EQ(r->pairs, test::bruteForcePairs(*wa, *wb));
    }
}

TEST(TrianglePairs, FclSoupsMatchBruteForce) {
    // FCL's env/rob: open, unindexed triangle soups (env.obj starts with a stray "6540 2180"
    // line, which the OBJ parser ignores). Seeded random rigid placements of rob inside env.
    const std::string dir = test::sharedMeshDir() + "open-or-broken/";
    std::optional<MeshData> env = test::loadMeshForTest(dir + "fcl_env.obj");
    std::optional<MeshData> rob = test::loadMeshForTest(dir + "fcl_rob.obj");
    ASSERT_TRUE(env && rob);
    ASSERT_EQ(env->triangleCount(), 2180u);
    ASSERT_EQ(rob->triangleCount(), 216u);
    Result<WorldMesh> we = toWorld(*env, glm::mat4(1.0f));
    ASSERT_TRUE(we.ok());
    std::mt19937 rng(20240611);
    std::uniform_real_distribution<float> pos(-2000.0f, 2000.0f), unit(-1.0f, 1.0f), angle(0.0f, 6.2831853f);
    size_t total = 0;
    for (int i = 0; i < 6; ++i) {
        glm::mat4 t(1.0f);
        if (i > 0) {
            const glm::vec3 axis = glm::normalize(glm::vec3(unit(rng), unit(rng), unit(rng)) + glm::vec3(0, 0, 1e-3f));
            t = glm::rotate(translation(pos(rng), pos(rng), pos(rng)), angle(rng), axis);
        }
        Result<WorldMesh> wr = toWorld(*rob, t);
        ASSERT_TRUE(wr.ok());
        Result<TrianglePairsResult> r = intersectingTrianglePairs(*we, *wr);
        ASSERT_TRUE(r.ok()) << r.status().describe();
        EXPECT_EQ(r->pairs, test::bruteForcePairs(*we, *wr)) << "placement " << i;
        total += r->pairs.size();
    }
    EXPECT_GT(total, 0u);  // the placements must exercise real intersections
}

}  // namespace
}  // namespace vkc::reference
