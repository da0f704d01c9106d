// Every mesh in ../shared/meshes/ loads with the README's triangle count, volume, components and
// genus, and passes the volume-method checks; each file in open-or-broken/ is reported with the
// problem the README gives it.
#include "tools/io/mesh_loader.h"
#include "tools/io/mesh_weld.h"
#include "vkcollide/mesh_checks.h"

#include "tests/io/test_paths.h"

#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace vkc {
namespace {

struct ClosedMesh {
    const char* file;
    size_t triangles;
    size_t components;
    long genus;
    double signedVolume;  // README, 6 significant digits
};

// The README table, rows 2-32 (the two DERIVED giants included: they load in ~0.5 s and ~2.5 s).
const ClosedMesh kClosedMeshes[] = {
    {"cube.stl", 12, 1, 0, 1.0},
    {"sphere_ico4.stl", 1280, 1, 0, 4.15274},
    {"pinion_gear.off", 1300, 1, 1, 0.821014},
    {"bunny_npm.obj", 3674, 1, 0, 194.288},
    {"couplingdown.off", 3714, 1, 9, 0.19066},
    {"ballA.off", 3796, 1, 0, 1401.11},
    {"ballB.off", 3796, 1, 0, 1401.1},
    {"knot.off", 4160, 1, 1, 0.0824209},
    {"hull-body.obj", 5460, 3, 0, 3.64606e+06},
    {"wingnut.obj", 6090, 1, 0, 22.0966},
    {"hull-mask.obj", 7980, 3, 0, 3.29957e+06},
    {"torus.stl", 8700, 1, 1, 4.91755},
    {"fandisk.obj", 12946, 1, 0, 20.2434},
    {"rocker-arm.obj", 20088, 1, 1, 0.0425136},
    {"armadillo_29k.obj", 29170, 1, 0, 0.0683229},
    {"bunny_60k.obj", 59664, 1, 0, 0.745451},
    {"dragon_vrip_welded.ply", 871306, 1, 55, 0.000478281},
    {"armadillo_86k_sub2.ply", 1383712, 1, 0, 0.0686187},
};

void PrintTo(const ClosedMesh& mesh, std::ostream* os) { *os << mesh.file; }

class SharedClosedMesh : public ::testing::TestWithParam<ClosedMesh> {};

TEST_P(SharedClosedMesh, LoadsAndPassesVolumeChecks) {
    const ClosedMesh& expected = GetParam();
    const auto start = std::chrono::steady_clock::now();
    Result<MeshData> mesh = io::loadMesh(test::meshPath(expected.file));
    const double loadSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(mesh.ok()) << mesh.status().message;
    const MeshCheckReport r = checkMesh(*mesh);
    std::printf("%s: load %.3f s, %zu vertices\n", expected.file, loadSeconds, r.vertexCount);

    EXPECT_EQ(r.triangleCount, expected.triangles);
    EXPECT_TRUE(r.validForVolumeMethods());
    EXPECT_TRUE(requireVolumeMethods(r, expected.file).ok()) << requireVolumeMethods(r, expected.file).message;
    // Clean as well as valid: no warnings either (the welded dragon must not regain degenerate faces).
    for (const std::string& line : r.describe()) ADD_FAILURE() << expected.file << ": " << line;
    EXPECT_NEAR(r.signedVolume, expected.signedVolume, 1e-5 * std::abs(expected.signedVolume) + 1e-12);
    EXPECT_EQ(r.components, expected.components);
    // Closed, manifold, no unreferenced vertices: V - E + F = 2 * components - 2 * genus, E = 3F / 2.
    const long eulerCharacteristic = long(r.vertexCount) - long(r.triangleCount) / 2;
    EXPECT_EQ(2 * long(r.components) - eulerCharacteristic, 2 * expected.genus);
}

INSTANTIATE_TEST_SUITE_P(Readme, SharedClosedMesh, ::testing::ValuesIn(kClosedMeshes),
                         [](const ::testing::TestParamInfo<ClosedMesh>& info) {
                             std::string name = info.param.file;
                             for (char& c : name) if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                             return name;
                         });

TEST(SharedMeshes, BallBIsBallAShiftedInX) {
    const MeshCheckReport a = checkMesh(io::loadMesh(test::meshPath("ballA.off")).value());
    const MeshCheckReport b = checkMesh(io::loadMesh(test::meshPath("ballB.off")).value());
    EXPECT_NEAR(b.boundsMin.x - a.boundsMin.x, 8.0, 1e-4);
    EXPECT_NEAR(b.boundsMax.y, a.boundsMax.y, 1e-4);
}

TEST(OpenOrBroken, StanfordBunnyWithHoles) {
    const MeshCheckReport r = checkMesh(io::loadMesh(test::meshPath("open-or-broken/bunny_stanford_original_holes.obj")).value());
    EXPECT_EQ(r.triangleCount, 69451u);
    EXPECT_EQ(r.boundaryEdges, 223u);
    EXPECT_EQ(r.unreferencedVertices, 1113u);
    EXPECT_FALSE(r.closed());
    EXPECT_TRUE(r.manifold());
    EXPECT_TRUE(r.oriented());
    EXPECT_FALSE(r.validForVolumeMethods());
    EXPECT_TRUE(r.validForObjectSpaceMethods());
    EXPECT_NEAR(r.signedVolume, 0.000770057, 1e-9);
    EXPECT_EQ(requireVolumeMethods(r, "bunny").message, "mesh \"bunny\": open (223 boundary edges)");
}

TEST(OpenOrBroken, FclEnvIsAnOpenSoup) {
    const MeshData mesh = io::loadMesh(test::meshPath("open-or-broken/fcl_env.obj")).value();
    const MeshCheckReport r = checkMesh(mesh);
    EXPECT_EQ(r.triangleCount, 2180u);  // the stray "6540 2180" first line is ignored
    EXPECT_EQ(r.vertexCount, 6540u);
    EXPECT_TRUE(r.triangleSoup);
    EXPECT_EQ(r.components, 2180u);
    EXPECT_EQ(r.boundaryEdges, 6540u);
    EXPECT_NEAR(r.signedVolume, 1.05831e+09, 1e4);
    EXPECT_TRUE(r.validForObjectSpaceMethods());
    EXPECT_NE(requireVolumeMethods(r, "env").message.find("triangle soup"), std::string::npos);
    // README: "even after welding exact duplicates env stays open".
    const MeshCheckReport welded = checkMesh(io::weldExactDuplicates(mesh));
    EXPECT_FALSE(welded.triangleSoup);
    EXPECT_GT(welded.boundaryEdges, 0u);
    EXPECT_LT(welded.vertexCount, r.vertexCount);
}

TEST(OpenOrBroken, FclRobIsASoupThatWeldsNonManifold) {
    const MeshData mesh = io::loadMesh(test::meshPath("open-or-broken/fcl_rob.obj")).value();
    const MeshCheckReport r = checkMesh(mesh);
    EXPECT_EQ(r.triangleCount, 216u);
    EXPECT_TRUE(r.triangleSoup);
    EXPECT_EQ(r.components, 216u);
    EXPECT_FALSE(r.closed());
    EXPECT_NEAR(r.signedVolume, 2.50508e+08, 1e3);
    // README: "rob becomes non-manifold" once exact duplicates are welded.
    const MeshCheckReport welded = checkMesh(io::weldExactDuplicates(mesh));
    EXPECT_FALSE(welded.manifold());
    EXPECT_GT(welded.nonManifoldEdges + welded.nonManifoldVertices, 0u);
}

TEST(OpenOrBroken, TeapotIsOpenAndNotManifold) {
    const MeshCheckReport r = checkMesh(io::loadMesh(test::meshPath("open-or-broken/teapot_open.obj")).value());
    EXPECT_EQ(r.triangleCount, 6320u);
    EXPECT_FALSE(r.closed());
    EXPECT_FALSE(r.manifold());
    EXPECT_GT(r.nonManifoldVertices, 0u);  // README: "open with non-manifold vertices"
    EXPECT_TRUE(r.oriented());
    EXPECT_EQ(r.components, 4u);
    EXPECT_NEAR(r.signedVolume, 25.7701, 1e-3);
    const Status s = requireVolumeMethods(r, "teapot");
    EXPECT_NE(s.message.find("mesh \"teapot\": open ("), std::string::npos) << s.message;
    EXPECT_NE(s.message.find("not vertex-manifold"), std::string::npos) << s.message;
}

// Self-intersection is the exact oracle's business (CGAL), not a topological check: the mesh is
// closed, manifold and oriented, so checkMesh passes it on purpose.
TEST(OpenOrBroken, SelfIntersectingButClosedPassesChecks) {
    const MeshCheckReport r = checkMesh(io::loadMesh(test::meshPath("open-or-broken/self_intersectA.obj")).value());
    EXPECT_EQ(r.triangleCount, 17160u);
    EXPECT_TRUE(r.validForVolumeMethods());
    EXPECT_NEAR(r.signedVolume, 0.147953, 1e-6);
}

}  // namespace
}  // namespace vkc
