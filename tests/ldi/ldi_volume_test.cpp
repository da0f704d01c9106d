// Tier A (no device): intersection volumes of the CPU LDI (paper 2, §3.2-3.3a) against the exact
// CGAL oracle: the reference table of ../shared/meshes/README.md at 256² and 512² within the stated
// bound (ldiVolumeErrorBound), convergence from 128² to 512², containment through the VoI
// extension (Fig. 2b), and seeded random rigid motions.
#include "collision/scene/generated_solids.h"
#include "collision/reference/ldi_cpu.h"
#include "collision/reference/intersection_volume.h"
#include "tests/ldi/ldi_cube_bound.h"
#include "tests/ldi/ldi_test_support.h"

#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>

#include <chrono>
#include <cstdio>

namespace vkc {
namespace {

struct LdiVolume {
    double volume = 0.0;
    double bound = 0.0;
    uint32_t layers = 0;  // n_max over both LDIs
};

LdiVolume ldiVolume(const MeshData& a, const glm::mat4& ta, const MeshData& b, const glm::mat4& tb, uint32_t resolution) {
    auto voi = computeLdiVoi(placedMeshBounds(a, ta), placedMeshBounds(b, tb));
    if (!voi) return {};
    CpuLdi la = buildCpuLdi(a, ta, *voi, true, resolution);
    CpuLdi lb = buildCpuLdi(b, tb, *voi, false, resolution);
    return {cpuLdiIntersectionVolume(la, lb), ldiVolumeErrorBound(a, ta, b, tb, *voi, resolution),
            std::max(la.maxDepthComplexity, lb.maxDepthComplexity)};
}

using ldi_test::kReferenceVolumes;
using ldi_test::ReferenceVolume;
using ldi_test::shift;

TEST(LdiVolume, ReferenceVolumesWithinTheStatedBound) {
    for (const ReferenceVolume& r : kReferenceVolumes) {
        auto a = ldi_test::sharedMesh(r.a);
        auto b = ldi_test::sharedMesh(r.b ? r.b : r.a);
        VKC_REQUIRE_SHARED_MESH(a);
        VKC_REQUIRE_SHARED_MESH(b);
        for (uint32_t resolution : {256u, 512u}) {
            auto start = std::chrono::steady_clock::now();
            LdiVolume v = ldiVolume(*a, glm::mat4(1.0f), *b, shift(r.offset), resolution);
            double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            double error = std::abs(v.volume - r.volume);
            std::printf("%-16s %3u^2: volume %.9g exact %.9g error %.3g (%.3g%%) bound %.3g, n_max %u, %.0f ms\n", r.a,
                        resolution, v.volume, r.volume, error, 100.0 * error / r.volume, v.bound, v.layers, ms);
            EXPECT_LE(error, v.bound + 2e-8 * r.volume) << r.a << " at " << resolution;
            // Separately, the accuracy the method has (a volume of 0 is within the bound of most pairs).
            EXPECT_LE(error, r.accuracy(resolution) * r.volume) << r.a << " at " << resolution;
        }
    }
}

TEST(LdiVolume, UnitCubeBoundMatchesTheHandDerivation) {
    // The stated bound itself, against tests/ldi/ldi_cube_bound.h's derivation from the formula.
    auto cube = ldi_test::sharedMesh("cube.stl");
    VKC_REQUIRE_SHARED_MESH(cube);
    ASSERT_EQ(cube->indices.size(), 36u);
    for (uint32_t resolution : {256u, 512u}) {
        LdiVolume v = ldiVolume(*cube, glm::mat4(1.0f), *cube, shift(0.5f, 0.5f, 0.5f), resolution);
        const double hand = resolution == 256 ? ldi_test::kUnitCubePairBound256 : ldi_test::kUnitCubePairBound512;
        EXPECT_NEAR(v.bound, hand, 1e-10 * hand) << resolution;
    }
}

TEST(LdiVolume, ErrorShrinksWithResolution) {
    for (const ReferenceVolume& r : {kReferenceVolumes[1], kReferenceVolumes[2]}) {
        auto a = ldi_test::sharedMesh(r.a);
        VKC_REQUIRE_SHARED_MESH(a);
        glm::mat4 tb = shift(r.offset);
        LdiVolume coarse = ldiVolume(*a, glm::mat4(1.0f), *a, tb, 128);
        LdiVolume fine = ldiVolume(*a, glm::mat4(1.0f), *a, tb, 512);
        EXPECT_LT(std::abs(fine.volume - r.volume), std::abs(coarse.volume - r.volume)) << r.a;
        EXPECT_LT(fine.bound, coarse.bound / 3.5) << r.a;  // the bound is O(pixel size)
    }
}

TEST(LdiVolume, BoxInsideBoxThroughTheVoiExtension) {
    // Fig. 2b: every face of the overlap is the inner box's, so its outside face pairs with an
    // extended opposite face on the outer box. Boxes align with the pixel grid: the volume is exact.
    MeshData outer = solids::box({4, 3, 5}), inner = solids::box({1, 1.5f, 2});
    glm::mat4 to = shift(0.25f, 0, 0), ti = shift(0.5f, 0.25f, -0.5f);
    auto voi = computeLdiVoi(placedMeshBounds(outer, to), placedMeshBounds(inner, ti));
    ASSERT_TRUE(voi);
    EXPECT_TRUE(voi->extended);
    for (bool outerFirst : {true, false}) {
        LdiVolume v = outerFirst ? ldiVolume(outer, to, inner, ti, 256) : ldiVolume(inner, ti, outer, to, 256);
        EXPECT_NEAR(v.volume, 3.0, 1e-4) << (outerFirst ? "outer, inner" : "inner, outer");
    }
    // A rotated inner solid inside the outer box: still contained, the oracle gives its volume.
    MeshData ball = solids::sphere(0.7f, 3);
    glm::mat4 tr = glm::rotate(shift(0.2f, -0.1f, 0.3f), 0.7f, glm::vec3(1, 2, 3));
    auto exact = reference::intersectionVolume(outer, to, ball, tr);
    ASSERT_TRUE(exact) << exact.status().describe();
    LdiVolume v = ldiVolume(outer, to, ball, tr, 256);
    EXPECT_LE(std::abs(v.volume - exact.value()), v.bound);
}

TEST(LdiVolume, RandomRigidMotionsAgainstTheOracle) {
    std::mt19937 rng(20261122);
    struct Shape {
        const char* name;
        MeshData mesh;
    };
    // The bunny is one of the shapes, not an optional extra: without it the trials would change.
    auto bunny = ldi_test::sharedMesh("bunny_npm.obj");
    VKC_REQUIRE_SHARED_MESH(bunny);
    // Scaled to about one unit, like the generated solids.
    Aabb box = placedMeshBounds(*bunny, glm::mat4(1.0f));
    float scale = 1.2f / std::max({box.max.x - box.min.x, box.max.y - box.min.y, box.max.z - box.min.z});
    glm::vec3 centre = (box.min + box.max) * 0.5f;
    for (glm::vec3& p : bunny->positions) p = (p - centre) * scale;
    std::vector<Shape> shapes = {{"sphere", solids::sphere(0.6f, 3)},
                                 {"torus", solids::torus(0.6f, 0.25f, 24)},
                                 {"box", solids::box({1.2f, 0.5f, 0.8f})},
                                 {"bunny_npm", std::move(*bunny)}};
    int tested = 0;
    for (int trial = 0; trial < 12; ++trial) {
        const Shape& a = shapes[trial % shapes.size()];
        const Shape& b = shapes[(trial / shapes.size() + trial + 1) % shapes.size()];
        glm::mat4 ta = ldi_test::randomRigid(rng, 0.6f), tb = ldi_test::randomRigid(rng, 0.6f);
        auto exact = reference::intersectionVolume(a.mesh, ta, b.mesh, tb);
        ASSERT_TRUE(exact) << exact.status().describe();
        LdiVolume v = ldiVolume(a.mesh, ta, b.mesh, tb, 256);
        double error = std::abs(v.volume - exact.value());
        std::printf("trial %2d %-9s x %-9s: exact %.6f ldi %.6f error %.2g bound %.2g n_max %u\n", trial, a.name, b.name,
                    exact.value(), v.volume, error, v.bound, v.layers);
        EXPECT_LE(error, v.bound) << "trial " << trial << ": " << a.name << " x " << b.name;
        // The accuracy the method has: measured at most 6.7e-6 (bounds 0.025-0.06) over these trials.
        EXPECT_LE(error, 3e-5) << "trial " << trial << ": " << a.name << " x " << b.name;
        tested += exact.value() > 0;
    }
    EXPECT_GE(tested, 8);  // the motions must actually overlap most of the time
}

// A face a rounding error away from parallel to the rays is not steep, so its edges get crease
// terms, and those have no limit: the demo's ring (tools/scenes/demo.json), turned a quarter about
// x, with the peg pushed into its tube (frame 1), stated a bound of 1.2e10.
// Capped per pixel at the column's volume, the bound holds against the oracle and says something.
TEST(LdiVolume, FacesNearlyParallelToTheRaysKeepAUsefulBound) {
    auto ring = ldi_test::sharedMesh("torus.stl");
    VKC_REQUIRE_SHARED_MESH(ring);
    // As the scene file makes it: the quaternion normalized and the matrix built in double, then
    // stored in float, which leaves the tube's outer faces 1e-16 off parallel to the y rays.
    const glm::dquat quarter = glm::normalize(glm::dquat(0.70710678, 0.70710678, 0.0, 0.0));
    const glm::mat4 ringPose(glm::translate(glm::dmat4(1.0), {4.0, 0.0, 0.0}) * glm::mat4_cast(quarter));
    const MeshData peg = solids::box({0.3f, 3.0f, 0.3f});
    const glm::mat4 pegPose = glm::translate(glm::mat4(1.0f), {4.6f, 0.0f, 0.0f});
    auto exact = reference::intersectionVolume(*ring, ringPose, peg, pegPose);
    ASSERT_TRUE(exact) << exact.status().describe();
    for (uint32_t resolution : {128u, 256u}) {
        LdiVolume v = ldiVolume(*ring, ringPose, peg, pegPose, resolution);
        const double error = std::abs(v.volume - exact.value());
        std::printf("%u^2: exact %.6f ldi %.6f error %.2g bound %.3g\n", resolution, exact.value(), v.volume, error,
                    v.bound);
        EXPECT_LE(error, v.bound) << resolution;
        EXPECT_LE(v.bound, 0.2 * exact.value()) << resolution;  // useful: issue 12's 20% (1.2e10 before)
    }
}

}  // namespace
}  // namespace vkc
