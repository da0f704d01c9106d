// loadMesh() and loadVertexFile() on small files written by the tests: the indexing each format
// keeps or rebuilds, glTF node transforms, and the errors (each naming the file).
#include "tools/io/mesh_loader.h"
#include "tools/io/mesh_weld.h"
#include "vkcollide/mesh_checks.h"

#include "tests/io/test_paths.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <fstream>
#include <string>

namespace vkc {
namespace {

using ::testing::HasSubstr;

std::filesystem::path writeFile(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

const char* kTetraObj =
    "# unit tetrahedron\n"
    "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
    "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";

TEST(MeshLoader, ObjKeepsFileIndexing) {
    const auto dir = test::scratchDir("obj_indexing");
    // An extra unreferenced vertex and a quad (split into a fan): both must stay visible.
    const auto path = writeFile(dir / "quad.obj",
                                "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 9 9 9\nmtllib missing.mtl\nf 1 2 3 4\n");
    Result<MeshData> mesh = io::loadMesh(path);
    ASSERT_TRUE(mesh.ok()) << mesh.status().message;
    EXPECT_EQ(mesh->positions.size(), 5u);
    EXPECT_EQ(mesh->indices, (std::vector<uint32_t>{0, 1, 2, 0, 2, 3}));
    EXPECT_EQ(mesh->name, path.string());
    EXPECT_EQ(checkMesh(*mesh).unreferencedVertices, 1u);
}

TEST(MeshLoader, ObjOutOfRangeFaceIndexReachesTheChecks) {
    const auto dir = test::scratchDir("obj_range");
    const auto path = writeFile(dir / "bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n");
    Result<MeshData> mesh = io::loadMesh(path);
    ASSERT_TRUE(mesh.ok()) << mesh.status().message;
    const MeshCheckReport r = checkMesh(*mesh);
    EXPECT_EQ(r.outOfRangeIndices, 1u);
    EXPECT_EQ(r.firstOutOfRangeIndex, 6u);
}

// tinyobjloader alone reads "nan" as 0; the loader must keep it a NaN for checkMesh to see.
TEST(MeshLoader, ObjNonFiniteCoordinatesSurvive) {
    const auto dir = test::scratchDir("obj_nan");
    const auto path = writeFile(dir / "nan.obj", "v 0 0 0\nv 1 nan 0\n  v 0 1 -inf\nv 1e999 0 0\nf 1 2 3\nf 1 3 4\n");
    Result<MeshData> mesh = io::loadMesh(path);
    ASSERT_TRUE(mesh.ok()) << mesh.status().message;
    ASSERT_EQ(mesh->positions.size(), 4u);
    EXPECT_TRUE(std::isnan(mesh->positions[1].y));
    EXPECT_EQ(mesh->positions[2].z, -std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isinf(mesh->positions[3].x));
    EXPECT_EQ(mesh->positions[1].x, 1.0f);
    const MeshCheckReport r = checkMesh(*mesh);
    EXPECT_EQ(r.nonFiniteVertices, 3u);
    EXPECT_EQ(r.firstNonFiniteVertex, 1u);
}

TEST(MeshLoader, ObjWithOnlyVerticesHasNoTriangles) {
    const auto dir = test::scratchDir("obj_empty");
    const auto path = writeFile(dir / "points.obj", "v 0 0 0\nv 1 0 0\n");
    Result<MeshData> mesh = io::loadMesh(path);
    ASSERT_FALSE(mesh.ok());
    EXPECT_EQ(mesh.status().code, ErrorCode::InvalidMesh);
    EXPECT_THAT(mesh.status().message, HasSubstr(path.string()));
    EXPECT_THAT(mesh.status().message, HasSubstr("no triangles"));
}

TEST(MeshLoader, MissingFileAndUnknownExtension) {
    Result<MeshData> missing = io::loadMesh("/nonexistent/dir/thing.obj");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.status().code, ErrorCode::NotFound);
    EXPECT_EQ(missing.status().message, "mesh file \"/nonexistent/dir/thing.obj\": not found");

    const auto dir = test::scratchDir("unknown_ext");
    const auto path = writeFile(dir / "thing.fbx", "whatever");
    Result<MeshData> unknown = io::loadMesh(path);
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.status().code, ErrorCode::Unsupported);
    EXPECT_THAT(unknown.status().message, HasSubstr("unknown extension \".fbx\""));
    EXPECT_THAT(unknown.status().message, HasSubstr(path.string()));
}

TEST(MeshLoader, ObjParseErrorNamesFileAndLine) {
    const auto dir = test::scratchDir("obj_parse");
    // A face index of 0 is one of the few things tinyobjloader rejects (OBJ indices start at 1).
    const auto path = writeFile(dir / "bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\nf 1 2 3\n");
    Result<MeshData> mesh = io::loadMesh(path);
    ASSERT_FALSE(mesh.ok());
    EXPECT_THAT(mesh.status().message, HasSubstr(path.string()));
    EXPECT_THAT(mesh.status().message, HasSubstr("line 4"));
}

TEST(MeshLoader, TruncatedOffIsAParseError) {
    const auto dir = test::scratchDir("off_parse");
    // Long enough for the counts' least size (6 bytes a vertex, 2 a face), yet cut short.
    const auto path = writeFile(dir / "short.off", "OFF\n# comment\n4 1 0\n0.000000 0.000000 0.000000\n1.000000 0 0\n");
    Result<MeshData> mesh = io::loadMesh(path);
    ASSERT_FALSE(mesh.ok());
    EXPECT_EQ(mesh.status().message, "mesh file \"" + path.string() + "\": unexpected end of file: after 2 of 4 vertices");
    const auto tiny = writeFile(dir / "tiny.off", "OFF\n# comment\n4 4 0\n0 0 0\n1 0 0\n");
    Result<MeshData> counts = io::loadMesh(tiny);
    ASSERT_FALSE(counts.ok());
    EXPECT_EQ(counts.status().message, "mesh file \"" + tiny.string() +
                                           "\": line 3: 4 vertices and 4 faces announced, but the 12 bytes left cannot hold them");

    const auto badFace = writeFile(dir / "face.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1\n");
    Result<MeshData> face = io::loadMesh(badFace);
    ASSERT_FALSE(face.ok());
    EXPECT_THAT(face.status().message, HasSubstr("line 6: face 0: 3 corners announced, 2 given"));
}

TEST(MeshLoader, OffKeepsIndexingAndDegenerateFaces) {
    const auto dir = test::scratchDir("off_degenerate");
    // Tetrahedron plus a zero-area face on edge 0-1: it must survive loading.
    const auto path = writeFile(dir / "tetra.off",
                                "OFF\n5 5 0\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n0.5 0 0\n"
                                "3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n3 0 4 1\n");
    Result<MeshData> mesh = io::loadMesh(path);
    ASSERT_TRUE(mesh.ok()) << mesh.status().message;
    EXPECT_EQ(mesh->positions.size(), 5u);
    const MeshCheckReport r = checkMesh(*mesh);
    EXPECT_EQ(r.triangleCount, 5u);
    EXPECT_EQ(r.zeroAreaTriangles, 1u);
}

TEST(MeshLoader, AsciiStlIsWeldedExactly) {
    const auto dir = test::scratchDir("stl_weld");
    const char* facets[4][3] = {{"0 0 0", "0 1 0", "1 0 0"}, {"0 0 0", "1 0 0", "0 0 1"},
                                {"0 0 0", "0 0 1", "0 1 0"}, {"1 0 0", "0 1 0", "0 0 1"}};
    std::string text = "solid tetra\n";
    for (const auto& facet : facets) {
        text += "facet normal 0 0 0\nouter loop\n";
        for (const char* v : facet) text += std::string("vertex ") + v + "\n";
        text += "endloop\nendfacet\n";
    }
    text += "endsolid tetra\n";
    Result<MeshData> mesh = io::loadMesh(writeFile(dir / "tetra.stl", text));
    ASSERT_TRUE(mesh.ok()) << mesh.status().message;
    EXPECT_EQ(mesh->positions.size(), 4u);
    const MeshCheckReport r = checkMesh(*mesh);
    EXPECT_TRUE(r.validForVolumeMethods());
    EXPECT_NEAR(r.signedVolume, 1.0 / 6.0, 1e-7);
}

std::string base64(const void* data, size_t size) {
    static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const auto* bytes = static_cast<const unsigned char*>(data);
    std::string out;
    for (size_t i = 0; i < size; i += 3) {
        const uint32_t chunk = (uint32_t(bytes[i]) << 16) | (i + 1 < size ? uint32_t(bytes[i + 1]) << 8 : 0) |
                               (i + 2 < size ? uint32_t(bytes[i + 2]) : 0);
        out += kAlphabet[(chunk >> 18) & 63];
        out += kAlphabet[(chunk >> 12) & 63];
        out += i + 1 < size ? kAlphabet[(chunk >> 6) & 63] : '=';
        out += i + 2 < size ? kAlphabet[chunk & 63] : '=';
    }
    return out;
}

// A glTF with one tetrahedron mesh placed by two nodes: one translated, one mirrored in x. Both
// instances must appear, transformed, and the mirrored one must still face outward.
TEST(MeshLoader, GltfAppliesNodeTransformsAndMergesInstances) {
    const float positions[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    const uint16_t indices[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    std::string buffer(sizeof positions + sizeof indices, '\0');
    std::memcpy(buffer.data(), positions, sizeof positions);
    std::memcpy(buffer.data() + sizeof positions, indices, sizeof indices);
    const std::string gltf = R"({
      "asset": {"version": "2.0"},
      "scene": 0,
      "scenes": [{"nodes": [0, 1]}],
      "nodes": [{"mesh": 0, "translation": [10, 0, 0]}, {"mesh": 0, "scale": [-1, 1, 1], "translation": [-10, 0, 0]}],
      "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
      "buffers": [{"byteLength": )" + std::to_string(buffer.size()) + R"(, "uri": "data:application/octet-stream;base64,)" +
                             base64(buffer.data(), buffer.size()) + R"("}],
      "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48},
                      {"buffer": 0, "byteOffset": 48, "byteLength": 24}],
      "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 1]},
                    {"bufferView": 1, "componentType": 5123, "count": 12, "type": "SCALAR"}]
    })";
    const auto dir = test::scratchDir("gltf");
    Result<MeshData> mesh = io::loadMesh(writeFile(dir / "two.gltf", gltf));
    ASSERT_TRUE(mesh.ok()) << mesh.status().message;
    const MeshCheckReport r = checkMesh(*mesh);
    EXPECT_EQ(r.triangleCount, 8u);
    EXPECT_EQ(r.components, 2u);
    EXPECT_TRUE(r.validForVolumeMethods()) << (r.describe().empty() ? "" : r.describe()[0]);
    EXPECT_NEAR(r.signedVolume, 2.0 / 6.0, 1e-6);
    EXPECT_FLOAT_EQ(r.boundsMin.x, -11.0f);
    EXPECT_FLOAT_EQ(r.boundsMax.x, 11.0f);
}

TEST(MeshLoader, VertexFileMustMatchTheCount) {
    const auto dir = test::scratchDir("vertex_file");
    const auto path = writeFile(dir / "frame.obj", "v 0 0 0\nv 2 0 0\nv 0 2 0\nv 0 0 2\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n");
    Result<std::vector<glm::vec3>> ok = io::loadVertexFile(path, 4);
    ASSERT_TRUE(ok.ok()) << ok.status().message;
    EXPECT_EQ((*ok)[1], glm::vec3(2, 0, 0));
    Result<std::vector<glm::vec3>> wrong = io::loadVertexFile(path, 5);
    ASSERT_FALSE(wrong.ok());
    EXPECT_EQ(wrong.status().code, ErrorCode::InvalidMesh);
    EXPECT_THAT(wrong.status().message, HasSubstr(path.string()));
    EXPECT_THAT(wrong.status().message, HasSubstr("4 vertices, but the mesh it deforms has 5"));
}

TEST(MeshWeld, MergesOnlyExactDuplicatesAndKeepsBadIndices) {
    MeshData mesh;
    mesh.positions = {{0, 0, 0}, {1, 0, 0}, {-0.0f, 0, 0}, {1, 0, 1e-7f}};
    mesh.indices = {0, 1, 2, 2, 3, 99};
    const MeshData welded = io::weldExactDuplicates(mesh);
    EXPECT_EQ(welded.positions.size(), 3u);  // -0 == +0 merges; 1e-7 apart does not
    EXPECT_EQ(welded.indices, (std::vector<uint32_t>{0, 1, 0, 0, 2, 0xFFFFFFFFu}));
}

}  // namespace
}  // namespace vkc
