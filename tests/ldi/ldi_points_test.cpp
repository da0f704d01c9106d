// Tier A (no device): vertex-in-volume against a CPU LDI (paper 2, §3.3b) on 100k random points,
// against the exact point-in-mesh oracle. The LDI classifies a point by its pixel-centre column,
// so a point it gets wrong lies within d (half the pixel diagonal, widened by the vertex snapping)
// of the surface; every disagreement is checked against that distance.
#include "collision/reference/ldi_cpu.h"
#include "collision/reference/point_classifier.h"
#include "tests/ldi/ldi_test_support.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

namespace vkc {
namespace {

void checkPoints(const MeshData& mesh, const glm::mat4& transform, uint32_t resolution, uint32_t seed) {
    Aabb box = placedMeshBounds(mesh, transform);
    auto voi = computeLdiVoi(box, box);  // the object's own box: an LDI of the whole object
    ASSERT_TRUE(voi);
    auto start = std::chrono::steady_clock::now();
    CpuLdi ldi = buildCpuLdi(mesh, transform, *voi, true, resolution);
    std::mt19937 rng(seed);
    std::vector<glm::dvec3> points(100000);
    for (glm::dvec3& p : points)
        for (int k = 0; k < 3; ++k) p[k] = std::uniform_real_distribution<double>(box.min[k], box.max[k])(rng);
    std::vector<uint8_t> ldiInside(points.size());
    for (size_t i = 0; i < points.size(); ++i) ldiInside[i] = ldi.contains(points[i]);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    auto exact = reference::pointsInside(mesh, transform, points);
    ASSERT_TRUE(exact) << exact.status().describe();
    double d = (0.5 + 2.0 / 256) * std::hypot(ldi.pixelU, ldi.pixelV);
    size_t inside = 0, wrong = 0;
    for (size_t i = 0; i < points.size(); ++i) {
        inside += exact.value()[i];
        if (ldiInside[i] == exact.value()[i]) continue;
        ++wrong;
        double distance = ldi_test::distanceToSurface(mesh, transform, points[i]);
        EXPECT_LE(distance, d) << mesh.name << ": point " << i << " misclassified " << distance / d
                               << " tolerances from the surface";
    }
    std::printf("%-16s %3u^2: %zu of 100000 inside, %zu within %.3g of the surface classified differently, "
                "n_max %u, LDI + points %.0f ms\n",
                mesh.name.c_str(), resolution, inside, wrong, d, ldi.maxDepthComplexity, ms);
    EXPECT_GT(inside, 1000u);
    EXPECT_LT(wrong, points.size() / 50);
}

TEST(LdiPoints, SphereAgreesWithTheOracleAwayFromTheSurface) {
    auto sphere = ldi_test::sharedMesh("sphere_ico4.stl");
    VKC_REQUIRE_SHARED_MESH(sphere);
    checkPoints(*sphere, glm::rotate(glm::mat4(1.0f), 0.4f, glm::vec3(1, 1, 0)), 256, 7);
}

TEST(LdiPoints, BunnyAgreesWithTheOracleAwayFromTheSurface) {
    auto bunny = ldi_test::sharedMesh("bunny_60k.obj");
    VKC_REQUIRE_SHARED_MESH(bunny);
    checkPoints(*bunny, glm::rotate(glm::mat4(1.0f), 1.1f, glm::vec3(0, 1, 0.3f)), 256, 11);
}

}  // namespace
}  // namespace vkc
