// checkMesh() on small synthetic meshes, one defect each, and the messages requireMesh() builds.
// Every defect is checked both ways: the count it should raise, and the validity it should lose.
#include "vkcollide/mesh_checks.h"

#include "collision/scene/generated_solids.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>

namespace vkc {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;

// Unit right tetrahedron, outward counter-clockwise faces; volume 1/6.
MeshData tetrahedron(glm::vec3 offset = glm::vec3(0.0f)) {
    MeshData mesh;
    mesh.name = "tetra";
    mesh.positions = {offset + glm::vec3(0, 0, 0), offset + glm::vec3(1, 0, 0), offset + glm::vec3(0, 1, 0),
                      offset + glm::vec3(0, 0, 1)};
    mesh.indices = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    return mesh;
}

// Appends `b` to `a` as a separate set of vertices.
void append(MeshData& a, const MeshData& b) {
    const uint32_t base = uint32_t(a.positions.size());
    a.positions.insert(a.positions.end(), b.positions.begin(), b.positions.end());
    for (uint32_t i : b.indices) a.indices.push_back(base + i);
}

TEST(MeshChecks, CleanTetrahedronPassesEverything) {
    const MeshCheckReport r = checkMesh(tetrahedron());
    EXPECT_EQ(r.vertexCount, 4u);
    EXPECT_EQ(r.triangleCount, 4u);
    EXPECT_EQ(r.boundaryEdges, 0u);
    EXPECT_EQ(r.nonManifoldEdges, 0u);
    EXPECT_EQ(r.inconsistentEdges, 0u);
    EXPECT_EQ(r.nonManifoldVertices, 0u);
    EXPECT_EQ(r.components, 1u);
    EXPECT_EQ(r.duplicatePositionVertices, 0u);
    EXPECT_FALSE(r.triangleSoup);
    EXPECT_NEAR(r.signedVolume, 1.0 / 6.0, 1e-12);
    EXPECT_TRUE(r.closed() && r.manifold() && r.oriented());
    EXPECT_TRUE(r.validForVolumeMethods());
    EXPECT_TRUE(r.validForObjectSpaceMethods());
    EXPECT_TRUE(r.describe().empty());
    EXPECT_TRUE(requireVolumeMethods(r, "tetra").ok());
    EXPECT_EQ(r.boundsMin, glm::vec3(0.0f));
    EXPECT_EQ(r.boundsMax, glm::vec3(1.0f));
}

TEST(MeshChecks, NaNAndInfCoordinates) {
    MeshData mesh = tetrahedron();
    mesh.positions[2].y = std::numeric_limits<float>::quiet_NaN();
    mesh.positions[3].z = std::numeric_limits<float>::infinity();
    const MeshCheckReport r = checkMesh(mesh);
    EXPECT_EQ(r.nonFiniteVertices, 2u);
    EXPECT_EQ(r.firstNonFiniteVertex, 2u);
    EXPECT_FALSE(r.finite());
    EXPECT_FALSE(r.validForObjectSpaceMethods());
    EXPECT_FALSE(r.validForVolumeMethods());
    const Status s = requireObjectSpaceMethods(r, "spiky");
    EXPECT_EQ(s.code, ErrorCode::InvalidMesh);
    EXPECT_THAT(s.message, HasSubstr("mesh \"spiky\""));
    EXPECT_THAT(s.message, HasSubstr("NaN or Inf coordinates in 2 vertices (first: vertex 2)"));
}

// Finite coordinates beyond kMaxMeshCoordinate (issue 15: a tetrahedron at 3e38 passed as a clean
// solid, and the image-space methods then answered "no pair" for two overlapping copies); the
// limit itself is accepted.
TEST(MeshChecks, CoordinatesBeyondTheSupportedRange) {
    MeshData mesh = tetrahedron();
    for (glm::vec3& p : mesh.positions) p *= float(kMaxMeshCoordinate);
    EXPECT_TRUE(checkMesh(mesh).validForVolumeMethods()) << "the limit itself is in range";
    mesh.positions[1].x = 3e38f;
    mesh.positions[3].z = -std::nextafter(float(kMaxMeshCoordinate), INFINITY);
    const MeshCheckReport r = checkMesh(mesh);
    EXPECT_EQ(r.outOfRangeVertices, 2u);
    EXPECT_EQ(r.firstOutOfRangeVertex, 1u);
    EXPECT_TRUE(r.finite());
    EXPECT_FALSE(r.coordinatesInRange());
    EXPECT_FALSE(r.validForObjectSpaceMethods());
    EXPECT_FALSE(r.validForVolumeMethods());
    EXPECT_THAT(r.describe(), Contains(HasSubstr("2 vertices beyond the supported 1e+08 per coordinate (first: vertex 1)")));
    const Status s = requireObjectSpaceMethods(r, "far");
    EXPECT_EQ(s.code, ErrorCode::InvalidMesh);
    EXPECT_THAT(s.message, HasSubstr("mesh \"far\": 2 vertices beyond the supported 1e+08"));
}

TEST(MeshChecks, IndexOutOfRange) {
    MeshData mesh = tetrahedron();
    mesh.indices[4] = 99;  // triangle 1
    const MeshCheckReport r = checkMesh(mesh);
    EXPECT_EQ(r.outOfRangeIndices, 1u);
    EXPECT_EQ(r.firstOutOfRangeTriangle, 1u);
    EXPECT_EQ(r.firstOutOfRangeIndex, 99u);
    EXPECT_FALSE(r.indicesInRange());
    EXPECT_FALSE(r.validForObjectSpaceMethods());
    EXPECT_GT(r.boundaryEdges, 0u);  // the bad triangle is left out of the topology, leaving a hole
    const Status s = requireObjectSpaceMethods(r, "broken");
    EXPECT_THAT(s.message, HasSubstr("1 index out of range (first: triangle 1 has index 99 >= vertex count 4)"));
}

TEST(MeshChecks, TrailingIndices) {
    MeshData mesh = tetrahedron();
    mesh.indices.push_back(0);
    const MeshCheckReport r = checkMesh(mesh);
    EXPECT_EQ(r.trailingIndices, 1u);
    EXPECT_EQ(r.triangleCount, 4u);
    EXPECT_FALSE(r.validForObjectSpaceMethods());
    EXPECT_THAT(requireObjectSpaceMethods(r, "t").message, HasSubstr("index count 13 is not a multiple of 3"));
}

TEST(MeshChecks, DegenerateTriangles) {
    MeshData mesh = tetrahedron();
    mesh.positions.push_back({0.5f, 0.0f, 0.0f});  // on edge 0-1: collinear with both
    mesh.indices.insert(mesh.indices.end(), {0, 0, 1});  // repeated index (triangle 4)
    mesh.indices.insert(mesh.indices.end(), {0, 4, 1});  // zero area (triangle 5)
    const MeshCheckReport r = checkMesh(mesh);
    EXPECT_EQ(r.repeatedIndexTriangles, 1u);
    EXPECT_EQ(r.zeroAreaTriangles, 1u);
    EXPECT_EQ(r.degenerateTriangles(), 2u);
    EXPECT_EQ(r.firstDegenerateTriangle, 4u);
    EXPECT_TRUE(r.validForObjectSpaceMethods());  // degenerate triangles are a warning, not an error
    bool described = false;
    for (const std::string& line : r.describe()) described |= line.find("2 degenerate triangles") != std::string::npos;
    EXPECT_TRUE(described);
}

TEST(MeshChecks, FlippedTriangle) {
    MeshData mesh = tetrahedron();
    std::swap(mesh.indices[1], mesh.indices[2]);  // flip triangle 0: all three of its edges clash
    const MeshCheckReport r = checkMesh(mesh);
    EXPECT_EQ(r.inconsistentEdges, 3u);
    EXPECT_TRUE(r.closed());
    EXPECT_TRUE(r.manifold());
    EXPECT_FALSE(r.oriented());
    EXPECT_FALSE(r.validForVolumeMethods());
    EXPECT_TRUE(r.validForObjectSpaceMethods());
    EXPECT_THAT(requireVolumeMethods(r, "flip").message,
                HasSubstr("mesh \"flip\": inconsistently oriented (3 edges used twice in the same direction)"));
}

TEST(MeshChecks, InsideOut) {
    MeshData mesh = tetrahedron();
    for (size_t t = 0; t < 4; ++t) std::swap(mesh.indices[3 * t + 1], mesh.indices[3 * t + 2]);
    const MeshCheckReport r = checkMesh(mesh);
    EXPECT_TRUE(r.oriented());
    EXPECT_NEAR(r.signedVolume, -1.0 / 6.0, 1e-12);
    EXPECT_TRUE(r.insideOut());
    EXPECT_FALSE(r.validForVolumeMethods());
    EXPECT_THAT(requireVolumeMethods(r, "inv").message, HasSubstr("inside out (signed volume -0.166667)"));
}

TEST(MeshChecks, UnreferencedVertex) {
    MeshData mesh = tetrahedron();
    mesh.positions.push_back({5, 5, 5});
    const MeshCheckReport r = checkMesh(mesh);
    EXPECT_EQ(r.unreferencedVertices, 1u);
    EXPECT_EQ(r.firstUnreferencedVertex, 4u);
    EXPECT_EQ(r.boundsMax, glm::vec3(1.0f));  // bounds ignore the stray vertex
    EXPECT_TRUE(r.validForVolumeMethods());   // a hint, not a defect
    ASSERT_EQ(r.describe().size(), 1u);
    EXPECT_EQ(r.describe()[0], "1 unreferenced vertex (first: vertex 4)");
}

TEST(MeshChecks, OpenMesh) {
    MeshData mesh = tetrahedron();
    mesh.indices.resize(9);  // drop one face
    const MeshCheckReport r = checkMesh(mesh);
    EXPECT_EQ(r.boundaryEdges, 3u);
    EXPECT_FALSE(r.closed());
    EXPECT_FALSE(r.validForVolumeMethods());
    EXPECT_TRUE(r.validForObjectSpaceMethods());  // aabb-tree and exact take open meshes
    EXPECT_TRUE(requireObjectSpaceMethods(r, "open").ok());
    const Status s = requireClosed(r, "open");
    EXPECT_EQ(s.code, ErrorCode::InvalidMesh);
    EXPECT_EQ(s.message, "mesh \"open\": open (3 boundary edges)");
}

TEST(MeshChecks, NonManifoldEdgeMessageListsEveryProblem) {
    MeshData mesh = tetrahedron();
    mesh.indices.resize(9);                                  // open: edges 1-2, 2-3, 3-1 are boundary
    mesh.positions.push_back({0.5f, -1.0f, 0.5f});
    mesh.indices.insert(mesh.indices.end(), {0, 1, 4});      // a fin on edge 0-1: three triangles
    const MeshCheckReport r = checkMesh(mesh);
    EXPECT_EQ(r.nonManifoldEdges, 1u);
    EXPECT_FALSE(r.manifold());
    EXPECT_EQ(requireVolumeMethods(r, "teapot").message,
              "mesh \"teapot\": open (5 boundary edges), not edge-manifold (1 edge shared by more than two triangles)");
}

TEST(MeshChecks, BowTieVertex) {
    MeshData mesh = tetrahedron();
    MeshData other = tetrahedron(glm::vec3(-1.0f, -1.0f, -1.0f));
    append(mesh, other);
    // Weld the second tetrahedron's vertex 3 (at 0,0,0) onto the first's vertex 0: one shared point.
    for (uint32_t& i : mesh.indices) if (i == 4 + 3) i = 0;
    const MeshCheckReport r = checkMesh(mesh);
    EXPECT_TRUE(r.closed());
    EXPECT_EQ(r.nonManifoldEdges, 0u);
    EXPECT_EQ(r.nonManifoldVertices, 1u);
    EXPECT_EQ(r.components, 1u);
    EXPECT_FALSE(r.manifold());
    EXPECT_THAT(requireVolumeMethods(r, "pinch").message, HasSubstr("not vertex-manifold (1 vertex"));
}

TEST(MeshChecks, ComponentsCounted) {
    MeshData mesh = tetrahedron();
    append(mesh, tetrahedron(glm::vec3(3.0f, 0.0f, 0.0f)));
    append(mesh, tetrahedron(glm::vec3(6.0f, 0.0f, 0.0f)));
    const MeshCheckReport r = checkMesh(mesh);
    EXPECT_EQ(r.components, 3u);
    EXPECT_NEAR(r.signedVolume, 0.5, 1e-12);
    EXPECT_TRUE(r.validForVolumeMethods());
}

TEST(MeshChecks, TriangleSoupHint) {
    const MeshData indexed = tetrahedron();
    MeshData soup;
    soup.name = "soup";
    for (uint32_t i : indexed.indices) {
        soup.indices.push_back(uint32_t(soup.positions.size()));
        soup.positions.push_back(indexed.positions[i]);
    }
    const MeshCheckReport r = checkMesh(soup);
    EXPECT_TRUE(r.triangleSoup);
    EXPECT_EQ(r.boundaryEdges, 12u);
    EXPECT_EQ(r.duplicatePositionVertices, 8u);  // 12 corners, 4 distinct points
    EXPECT_EQ(r.components, 4u);
    const Status s = requireVolumeMethods(r, "soup");
    EXPECT_THAT(s.message, HasSubstr("open (12 boundary edges)"));
    EXPECT_THAT(s.message, HasSubstr("triangle soup: no triangle shares a vertex index with another"));
    EXPECT_FALSE(checkMesh(indexed).triangleSoup);
}

TEST(MeshChecks, EmptyMesh) {
    const MeshCheckReport r = checkMesh(MeshData{});
    EXPECT_TRUE(r.empty());
    EXPECT_FALSE(r.closed());
    EXPECT_FALSE(r.validForObjectSpaceMethods());
    EXPECT_THAT(requireObjectSpaceMethods(r, "nothing").message, HasSubstr("mesh \"nothing\": empty (no triangles)"));
}

// The README asks for ~1.4M triangles in well under the time a test may take; the bound is loose
// (debug builds, shared CI machines) but catches an accidental quadratic step.
TEST(MeshChecks, FastOnMillionsOfTriangles) {
    const MeshData big = solids::sphere(1.0f, 8);  // 1,310,720 triangles
    const auto start = std::chrono::steady_clock::now();
    const MeshCheckReport r = checkMesh(big);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.triangleCount, 1310720u);
    EXPECT_TRUE(r.validForVolumeMethods());
    EXPECT_LT(seconds, 30.0);
    RecordProperty("check_seconds", std::to_string(seconds));
    std::printf("checkMesh on %zu triangles: %.3f s\n", r.triangleCount, seconds);
}

}  // namespace
}  // namespace vkc
