// Generated solids must be clean closed solids for every method, with volumes that converge to
// the analytic ones as the tessellation gets finer (they are inscribed, so always from below).
#include "collision/scene/generated_solids.h"

#include "vkcollide/mesh_checks.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace vkc {
namespace {

constexpr double kPi = std::numbers::pi;

void expectCleanSolid(const MeshData& mesh) {
    const MeshCheckReport r = checkMesh(mesh);
    EXPECT_TRUE(r.validForVolumeMethods()) << mesh.name;
    EXPECT_EQ(r.components, 1u) << mesh.name;
    EXPECT_EQ(r.degenerateTriangles(), 0u) << mesh.name;
    EXPECT_EQ(r.unreferencedVertices, 0u) << mesh.name;
    EXPECT_EQ(r.nonManifoldVertices, 0u) << mesh.name;
    EXPECT_EQ(r.duplicatePositionVertices, 0u) << mesh.name;
    EXPECT_GT(r.signedVolume, 0.0) << mesh.name << ": outward orientation gives a positive volume";
    for (const std::string& line : r.describe()) ADD_FAILURE() << mesh.name << ": " << line;
}

TEST(GeneratedSolids, BoxIsExact) {
    const MeshData box = solids::box({1.0f, 2.0f, 3.0f});
    expectCleanSolid(box);
    EXPECT_EQ(box.triangleCount(), 12u);
    const MeshCheckReport r = checkMesh(box);
    EXPECT_NEAR(r.signedVolume, 6.0, 1e-9);
    EXPECT_EQ(r.boundsMin, glm::vec3(-0.5f, -1.0f, -1.5f));
    EXPECT_EQ(r.boundsMax, glm::vec3(0.5f, 1.0f, 1.5f));
}

TEST(GeneratedSolids, IcosphereConvergesFromBelow) {
    const double analytic = 4.0 / 3.0 * kPi * 8.0;  // radius 2
    double previousError = 1.0;
    for (uint32_t s = 0; s <= 5; ++s) {
        const MeshData sphere = solids::sphere(2.0f, s);
        expectCleanSolid(sphere);
        EXPECT_EQ(sphere.triangleCount(), size_t(20) << (2 * s));
        const double volume = checkMesh(sphere).signedVolume;
        const double error = (analytic - volume) / analytic;
        EXPECT_GT(error, 0.0) << "inscribed polyhedron, s=" << s;
        EXPECT_LT(error, previousError) << "s=" << s;
        previousError = error;
        if (s == 3) EXPECT_LT(error, 0.01);
        if (s == 5) EXPECT_LT(error, 0.001);
    }
    // Same construction as trimesh's icosphere(4) in ../shared/meshes/sphere_ico4.stl (volume 4.15274).
    EXPECT_NEAR(checkMesh(solids::sphere(1.0f, 3)).signedVolume, 4.15274, 1e-4);
}

TEST(GeneratedSolids, TorusConverges) {
    const double major = 1.0, minor = 0.25;
    const double analytic = 2.0 * kPi * kPi * major * minor * minor;
    for (uint32_t segments : {3u, 7u, 48u, 192u}) {
        const MeshData torus = solids::torus(float(major), float(minor), segments);
        expectCleanSolid(torus);
        EXPECT_EQ(torus.triangleCount(), size_t(2) * segments * segments);
        const double error = (analytic - checkMesh(torus).signedVolume) / analytic;
        EXPECT_GT(error, 0.0) << segments;
        if (segments == 48) EXPECT_LT(error, 0.01);
        if (segments == 192) EXPECT_LT(error, 0.001);
    }
    const MeshCheckReport r = checkMesh(solids::torus(1.0f, 0.25f, 48));
    EXPECT_NEAR(r.boundsMax.z, 0.25f, 1e-6f);  // the ring lies around the z axis
    EXPECT_NEAR(r.boundsMax.x, 1.25f, 1e-6f);
}

}  // namespace
}  // namespace vkc
