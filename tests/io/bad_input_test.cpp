// Untrusted mesh and scene files (issue 15): every reproducer in ../shared/bad-input/ and
// generated variants of each class (truncated headers, huge counts, bad list lengths, deep
// nesting, out-of-range accessors) end as a one-line error naming the file and the place, within
// a time bound, never a crash, a hang or a huge allocation; and what the strict readers accept
// (PLY in all three encodings, STL ascii and binary, glTF and GLB) loads exactly.
#include "tools/io/gltf_reader.h"
#include "tools/io/json_depth.h"
#include "tools/io/mesh_loader.h"
#include "tools/io/scene_file.h"
#include "vkcollide/mesh_checks.h"

#include "tests/io/test_paths.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <future>
#include <limits>
#include <thread>
#include <array>
#include <algorithm>
#include <string>
#include <vector>

namespace vkc {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// Seconds any loader may take on a small damaged file (lavapipe-free, but CI shares 2 cores).
constexpr int kTimeBoundSeconds = 10;

std::filesystem::path writeFile(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

// Runs `load` on another thread; a hang fails the whole test binary at once instead of CI's
// timeout much later (the stuck thread cannot be stopped, so the process exits).
template <typename T>
T withinTimeBound(const std::string& what, std::function<T()> load) {
    std::packaged_task<T()> task(std::move(load));
    std::future<T> result = task.get_future();
    std::thread(std::move(task)).detach();
    if (result.wait_for(std::chrono::seconds(kTimeBoundSeconds)) != std::future_status::ready) {
        std::fprintf(stderr, "FAILED: %s did not return within %d s (a hang)\n", what.c_str(), kTimeBoundSeconds);
        std::_Exit(1);
    }
    return result.get();
}

Result<MeshData> load(const std::filesystem::path& path) {
    return withinTimeBound<Result<MeshData>>(path.string(), [path] { return io::loadMesh(path); });
}

Result<io::SceneDescription> loadScene(const std::filesystem::path& path) {
    return withinTimeBound<Result<io::SceneDescription>>(path.string(), [path] { return io::loadScene(path); });
}

// A clear error: names the file, fits on one short line.
void expectClearError(const Status& status, const std::filesystem::path& path) {
    EXPECT_FALSE(status.ok()) << path;
    EXPECT_THAT(status.message, HasSubstr("\"" + path.string() + "\": ")) << status.message;
    EXPECT_EQ(status.message.find('\n'), std::string::npos) << status.message;
    EXPECT_LT(status.message.size(), 200 + path.string().size()) << status.message;
}

void expectLoadError(const std::filesystem::path& path, const std::string& expected) {
    Result<MeshData> mesh = load(path);
    expectClearError(mesh.status(), path);
    EXPECT_THAT(mesh.status().message, HasSubstr(expected));
}

bool isMeshFile(const std::filesystem::path& path) {
    for (const char* ext : {".obj", ".off", ".stl", ".ply", ".gltf", ".glb"})
        if (path.extension() == ext) return true;
    return false;
}

// The issue's reproducers, and any others of their classes kept beside them: crash_ and hang_
// files must fail cleanly; every mesh file that loads must not pass checkMesh silently with
// damage (the silent_ class).
TEST(BadInput, SharedReproducersEndAsClearErrors) {
    const auto dir = test::sharedDir() / "bad-input";
    ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
    size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::filesystem::path path = entry.path();
        const std::string name = path.filename().string();
        const bool mustFail = name.rfind("crash_", 0) == 0 || name.rfind("hang_", 0) == 0 || name.rfind("silent_", 0) == 0;
        if (isMeshFile(path)) {
            ++files;
            Result<MeshData> mesh = load(path);
            if (mesh.ok()) {
                EXPECT_FALSE(mustFail && checkMesh(*mesh).describe().empty()) << name << " loads and passes checkMesh";
            } else {
                expectClearError(mesh.status(), path);
            }
        } else if (path.extension() == ".json") {
            ++files;
            Result<io::SceneDescription> scene = loadScene(path);
            if (mustFail) EXPECT_FALSE(scene.ok()) << name;
            if (!scene.ok()) {
                EXPECT_THAT(scene.status().message, StartsWith("scene \"" + path.string() + "\": "));
                EXPECT_EQ(scene.status().message.find('\n'), std::string::npos) << scene.status().message;
            }
        }
    }
    EXPECT_GE(files, 5u);
}

TEST(BadInput, SharedReproducersNameTheProblem) {
    const auto dir = test::sharedDir() / "bad-input";
    expectLoadError(dir / "crash_ply_binary_segv.ply", ": line 2: expected \"format ascii|");
    expectLoadError(dir / "hang_ply_ascii_no_end_header.ply", ": line 3: end of file before end_header");
    expectLoadError(dir / "crash_gltf_deep_node_chain_20000.gltf", ": nodes[256]: node hierarchy deeper than 256 levels");
    expectLoadError(dir / "silent_stl_facet_with_5_vertices.stl", ": line 7: in facet 0: a 4th vertex (a facet has exactly 3)");
    const auto scene = dir / "crash_scene_deep_json_120000.json";
    Result<io::SceneDescription> deep = loadScene(scene);
    ASSERT_FALSE(deep.ok());
    EXPECT_EQ(deep.status().message, "scene \"" + scene.string() + "\": line 1: JSON nested deeper than 64 levels");
}

// ---- PLY ----------------------------------------------------------------------------------

const char* kPlyTetraHeader =
    "element vertex 4\nproperty double x\nproperty float nx\nproperty float y\nproperty short z\nproperty uchar red\n"
    "element face 4\nproperty list uchar int vertex_indices\nproperty list ushort float texcoord\n"
    "element edge 1\nproperty int v1\nproperty int v2\nend_header\n";

// One tetrahedron with properties and an element to skip; z as short, so values are integers.
const double kTetra[4][3] = {{0, 0, 0}, {2.5, 0, 0}, {0, 1.25, 0}, {0, 0, 3}};
const int kTetraFaces[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};

template <typename T>
void put(std::string& out, T value, bool big) {
    char raw[sizeof(T)];
    std::memcpy(raw, &value, sizeof(T));
    if (big) std::reverse(raw, raw + sizeof(T));
    out.append(raw, sizeof(T));
}

std::string plyTetra(const std::string& format) {
    std::string out = "ply\nformat " + format + " 1.0\ncomment generated\n" + kPlyTetraHeader;
    const bool ascii = format == "ascii", big = format == "binary_big_endian";
    for (const auto& v : kTetra) {
        if (ascii) {
            out += std::to_string(v[0]) + " 0.5 " + std::to_string(v[1]) + " " + std::to_string(int(v[2])) + " 7\n";
        } else {
            put(out, v[0], big), put(out, 0.5f, big), put(out, float(v[1]), big), put(out, int16_t(v[2]), big);
            put(out, uint8_t(7), big);
        }
    }
    for (const auto& f : kTetraFaces) {
        if (ascii) {
            out += "3 " + std::to_string(f[0]) + " " + std::to_string(f[1]) + " " + std::to_string(f[2]) + " 2 0.5 0.25\n";
        } else {
            put(out, uint8_t(3), big);
            for (int i : f) put(out, int32_t(i), big);
            put(out, uint16_t(2), big), put(out, 0.5f, big), put(out, 0.25f, big);
        }
    }
    if (ascii) out += "0 1\n";
    else put(out, int32_t(0), big), put(out, int32_t(1), big);
    return out;
}

void expectTetra(Result<MeshData> mesh) {
    ASSERT_TRUE(mesh.ok()) << mesh.status().message;
    ASSERT_EQ(mesh->positions.size(), 4u);
    for (int v = 0; v < 4; ++v)
        EXPECT_EQ(mesh->positions[v], glm::vec3(kTetra[v][0], kTetra[v][1], kTetra[v][2])) << "vertex " << v;
    std::vector<uint32_t> indices;
    for (const auto& f : kTetraFaces) indices.insert(indices.end(), {uint32_t(f[0]), uint32_t(f[1]), uint32_t(f[2])});
    EXPECT_EQ(mesh->indices, indices);
    EXPECT_NEAR(checkMesh(*mesh).signedVolume, 2.5 * 1.25 * 3 / 6, 1e-6);
}

TEST(PlyReader, ReadsAllThreeEncodingsAlike) {
    const auto dir = test::scratchDir("ply_formats");
    for (const char* format : {"ascii", "binary_little_endian", "binary_big_endian"}) {
        SCOPED_TRACE(format);
        expectTetra(load(writeFile(dir / (std::string(format) + ".ply"), plyTetra(format))));
    }
    // Windows line ends in the header and the data.
    std::string crlf;
    for (char c : plyTetra("ascii")) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    expectTetra(load(writeFile(dir / "crlf.ply", crlf)));
}

TEST(PlyReader, HeaderErrorsNameTheLine) {
    const auto dir = test::scratchDir("ply_header");
    const std::string head = "ply\nformat ascii 1.0\n";
    struct Case {
        const char* name;
        std::string text;
        const char* error;
    } cases[] = {
        {"garbage", "not a ply file", ": line 1: not a PLY file"},
        {"cut", head + "element vertex 3\nproperty float x\nprop", ": line 5: unknown header keyword \"prop\""},
        {"no_end", head + "element vertex 0\n", ": line 4: end of file before end_header"},
        {"binary_no_end", "ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float x\n\x01\x02\x03\x04",
         ": line 5: unknown header keyword"},
        {"long", head + std::string(70000, ' ') + "\nend_header\n", "no end_header line in the first 65536 bytes"},
        {"type", head + "element vertex 1\nproperty float128 x\nend_header\n", ": line 4: unknown type \"float128\""},
        {"list_float_count", head + "element face 1\nproperty list float int vertex_indices\nend_header\n",
         ": line 4: a list's length type must be an integer type"},
        {"no_xyz", head + "element vertex 1\nproperty float x\nproperty float y\nend_header\n0 0\n",
         ": line 3: element vertex has no property z"},
        {"float_indices", head + "element vertex 0\nproperty float x\nproperty float y\nproperty float z\n"
                                 "element face 0\nproperty list uchar float vertex_indices\nend_header\n",
         ": line 7: face property \"vertex_indices\" must be a list of integers"},
        {"no_format", "ply\nelement vertex 0\nend_header\n", ": line 3: no format line before end_header"},
        {"control", "ply\nformat \x01\x02\x7f 1.0\nend_header\n", ": line 2: unknown format \"???\""},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        expectLoadError(writeFile(dir / (std::string(c.name) + ".ply"), c.text), c.error);
    }
}

// Counts are checked against the bytes after the header before anything is allocated: 2^31 to
// 2^64 items in a tiny file end as an error naming the element, never bad_alloc.
TEST(PlyReader, HugeCountsAreRefusedBeforeAllocating) {
    const auto dir = test::scratchDir("ply_counts");
    const std::string xyz = "property float x\nproperty float y\nproperty float z\n";
    for (const char* format : {"ascii", "binary_little_endian"}) {
        for (const char* count : {"2147483648", "4294967295", "18446744073709551615"}) {
            SCOPED_TRACE(std::string(format) + " " + count);
            const std::string header = std::string("ply\nformat ") + format + " 1.0\nelement vertex 3\n" + xyz +
                                        "element face " + count + "\nproperty list uchar int vertex_indices\nend_header\n";
            expectLoadError(writeFile(dir / "faces.ply", header + std::string(36, '0')),
                            std::string(": line 7: element \"face\" announces ") + count + " items");
        }
    }
    expectLoadError(writeFile(dir / "vertices.ply", "ply\nformat ascii 1.0\nelement vertex 4294967295\n" + xyz + "end_header\n"),
                    ": line 3: element \"vertex\" announces 4294967295 items of at least 6 bytes, but only 0 bytes are left");
    expectLoadError(writeFile(dir / "over64.ply", "ply\nformat ascii 1.0\nelement vertex 18446744073709551616\n"),
                    ": line 3: expected \"element <name> <count>\"");
    expectLoadError(writeFile(dir / "empty_element.ply", "ply\nformat ascii 1.0\nelement thing 1000000000000\nend_header\n"),
                    ": line 3: element \"thing\" has no properties");
}

TEST(PlyReader, BadListsAndValuesNameTheLineOrByte) {
    const auto dir = test::scratchDir("ply_lists");
    const std::string ascii = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
                              "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n";
    expectLoadError(writeFile(dir / "short_list.ply", ascii + "5 0 1 2\n"), ": line 13: face 0: list of 5 entries, 3 values left on the line");
    expectLoadError(writeFile(dir / "long_line.ply", ascii + "3 0 1 2 9\n"), ": line 13: face 0: 1 values more than the header declares");
    expectLoadError(writeFile(dir / "word.ply", ascii + "3 0 one 2\n"), ": line 13: face 0: property \"vertex_indices\": \"one\" is not a valid value");
    expectLoadError(writeFile(dir / "range.ply", ascii + "256 0 1 2\n"), ": line 13: face 0: property \"vertex_indices\": expected a list length");
    // Long enough for the counts' least size (2 bytes a value), yet a vertex short.
    expectLoadError(writeFile(dir / "missing.ply", ascii.substr(0, ascii.find("end_header\n") + 11) +
                                                   "0.00000000 0.00000000 0.00000000\n1.00000000 0 0\n"),
                    ": line 12: end of file in vertex 2 of 3");

    // Binary: a list length that runs past the end, and a negative one (signed char length).
    std::string binary = "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                         "property float z\nelement face 1\nproperty list char int vertex_indices\nend_header\n";
    const size_t data = binary.size();
    binary += std::string(36, '\0');
    expectLoadError(writeFile(dir / "past_end.ply", binary + std::string("\x7f\0\0\0\0", 5)),
                    ": byte " + std::to_string(data + 36) + ": face 0: list of 127 entries runs past the end of the file");
    expectLoadError(writeFile(dir / "negative.ply", binary + std::string("\xff\0\0\0\0", 5)),
                    ": byte " + std::to_string(data + 36) + ": face 0: negative list length");
}

// Out-of-range values: 1e39 in a float property is +inf, a negative index is out of range, and
// both reach checkMesh instead of being hidden.
TEST(PlyReader, NonFiniteValuesAndNegativeIndicesReachTheChecks) {
    const auto dir = test::scratchDir("ply_values");
    const std::string text = "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\n"
                             "element face 4\nproperty list uchar int vertex_indices\nend_header\n"
                             "0 0 0\n1e39 0 0\n0 nan 0\n0 0 1\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 -1\n";
    Result<MeshData> mesh = load(writeFile(dir / "values.ply", text));
    ASSERT_TRUE(mesh.ok()) << mesh.status().message;
    EXPECT_TRUE(std::isinf(mesh->positions[1].x));
    EXPECT_TRUE(std::isnan(mesh->positions[2].y));
    const MeshCheckReport r = checkMesh(*mesh);
    EXPECT_EQ(r.nonFiniteVertices, 2u);
    EXPECT_EQ(r.firstNonFiniteVertex, 1u);
    EXPECT_EQ(r.outOfRangeIndices, 1u);
    EXPECT_EQ(r.firstOutOfRangeTriangle, 3u);
}

// ---- STL ----------------------------------------------------------------------------------

std::string asciiStl(const std::vector<std::vector<std::string>>& facets) {
    std::string text = "solid t\n";
    for (const auto& facet : facets) {
        text += " facet normal 0 0 0\n  outer loop\n";
        for (const std::string& v : facet) text += "   vertex " + v + "\n";
        text += "  endloop\n endfacet\n";
    }
    return text + "endsolid t\n";
}

const std::vector<std::vector<std::string>> kStlTetra = {
    {"0 0 0", "0 1 0", "1 0 0"}, {"0 0 0", "1 0 0", "0 0 1"}, {"0 0 0", "0 0 1", "0 1 0"}, {"1 0 0", "0 1 0", "0 0 1"}};

std::string binaryStl(const std::vector<std::array<float, 9>>& facets, uint32_t announced) {
    std::string out(80, ' ');
    out.replace(0, 10, "solid head");  // binary files may start with "solid"
    put(out, announced, false);
    for (const auto& f : facets) {
        for (int i = 0; i < 3; ++i) put(out, 0.0f, false);
        for (float c : f) put(out, c, false);
        put(out, uint16_t(0), false);
    }
    return out;
}

const std::vector<std::array<float, 9>> kBinaryTetra = {
    {0, 0, 0, 0, 1, 0, 1, 0, 0}, {0, 0, 0, 1, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 1, 0, 1, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}};

TEST(StlReader, AsciiAndBinaryLoadWelded) {
    const auto dir = test::scratchDir("stl_ok");
    for (const auto& path : {writeFile(dir / "a.stl", asciiStl(kStlTetra)), writeFile(dir / "b.stl", binaryStl(kBinaryTetra, 4))}) {
        Result<MeshData> mesh = load(path);
        ASSERT_TRUE(mesh.ok()) << mesh.status().message;
        EXPECT_EQ(mesh->positions.size(), 4u) << path;
        const MeshCheckReport r = checkMesh(*mesh);
        EXPECT_TRUE(r.validForVolumeMethods()) << path;
        EXPECT_NEAR(r.signedVolume, 1.0 / 6.0, 1e-7);
    }
}

TEST(StlReader, StructureAndSizeErrors) {
    const auto dir = test::scratchDir("stl_bad");
    auto facets = kStlTetra;
    facets[1].push_back("1e39 0 0");
    expectLoadError(writeFile(dir / "four.stl", asciiStl(facets)), ": line 14: in facet 1: a 4th vertex (a facet has exactly 3)");
    facets = kStlTetra;
    facets[2].pop_back();
    expectLoadError(writeFile(dir / "two.stl", asciiStl(facets)),
                    ": line 20: expected \"vertex\" with 3 values in facet 2 (a facet has exactly 3 vertices), found \"endloop\"");
    facets = kStlTetra;
    facets[0][1] = "0 1";
    expectLoadError(writeFile(dir / "short_vertex.stl", asciiStl(facets)), ": line 5: expected \"vertex\" with 3 values");
    facets = kStlTetra;
    facets[3][2] = "0 0 1x";
    expectLoadError(writeFile(dir / "word.stl", asciiStl(facets)), ": line 27: in facet 3: \"1x\" is not a number");
    expectLoadError(writeFile(dir / "cut.stl", "solid x\nfacet normal 0 0 0\nouter loop\nvertex 0 0 0\n"), ": end of file in facet 0");
    expectLoadError(writeFile(dir / "no_end.stl", asciiStl(kStlTetra).substr(0, asciiStl(kStlTetra).size() - 11)),
                    ": end of file before \"endsolid\"");

    // Binary: the size must be exactly 84 + 50 n.
    std::string binary = binaryStl(kBinaryTetra, 4);
    expectLoadError(writeFile(dir / "extra.stl", binary + "x"), "binary STL: 4 facets announced, which take 84 + 50 x 4 = 284 bytes, but the file has 285");
    expectLoadError(writeFile(dir / "huge.stl", binaryStl(kBinaryTetra, 0xFFFFFFFFu)),
                    "binary STL: 4294967295 facets announced, which take 84 + 50 x 4294967295 = 214748364834 bytes, but the file has 284");
    expectLoadError(writeFile(dir / "header.stl", std::string(40, '\x01')), "binary STL: 40 bytes, shorter than the 84-byte header");
}

// "nan" and 1e39 are numbers to the reader (NaN, +inf), so checkMesh names them.
TEST(StlReader, NonFiniteCoordinatesReachTheChecks) {
    const auto dir = test::scratchDir("stl_nan");
    auto facets = kStlTetra;
    facets[3] = {"1e39 0 0", "0 nan 0", "0 0 1"};
    Result<MeshData> mesh = load(writeFile(dir / "nan.stl", asciiStl(facets)));
    ASSERT_TRUE(mesh.ok()) << mesh.status().message;
    const MeshCheckReport r = checkMesh(*mesh);
    EXPECT_EQ(r.nonFiniteVertices, 2u);
    const Status status = requireVolumeMethods(r, "nan.stl");
    EXPECT_THAT(status.message, HasSubstr("NaN or Inf coordinates in 2 vertices (first: vertex 4)"));
}

// ---- OFF ----------------------------------------------------------------------------------

TEST(OffReader, HugeCountsAreRefusedBeforeAllocating) {
    const auto dir = test::scratchDir("off_counts");
    // The issue's 22-byte file: 200,000,000 vertices announced.
    const auto path = writeFile(dir / "huge.off", "OFF\n200000000 1 0\n0 0\n");
    const auto start = std::chrono::steady_clock::now();
    expectLoadError(path, ": line 2: 200000000 vertices and 1 faces announced, but the 4 bytes left cannot hold them");
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 0.5);
    expectLoadError(writeFile(dir / "2e31.off", "OFF\n3 2147483648 0\n"), "announced, but the 0 bytes left");
    expectLoadError(writeFile(dir / "2e32.off", "OFF\n4294967296 1 0\n"), ": line 2: counts too large");
    expectLoadError(writeFile(dir / "2e64.off", "OFF\n18446744073709551616 1 0\n"), ": line 2: expected \"vertices faces [edges]\" counts");
}

// Coordinates beyond float range are +-inf, not a parse error, so checkMesh names the vertex.
TEST(OffReader, NonFiniteCoordinatesReachTheChecks) {
    const auto dir = test::scratchDir("off_values");
    Result<MeshData> mesh = load(writeFile(dir / "inf.off", "OFF\n4 4 0\n0 0 0\n+1 0 0\n0 -1e39 0\n0 0 nan\n"
                                                              "3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n"));
    ASSERT_TRUE(mesh.ok()) << mesh.status().message;
    EXPECT_EQ(mesh->positions[1].x, 1.0f);
    EXPECT_EQ(mesh->positions[2].y, -std::numeric_limits<float>::infinity());
    const MeshCheckReport r = checkMesh(*mesh);
    EXPECT_EQ(r.nonFiniteVertices, 2u);
    EXPECT_EQ(r.firstNonFiniteVertex, 2u);
}

// ---- glTF ---------------------------------------------------------------------------------

std::string base64(const std::string& bytes) {
    static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (size_t i = 0; i < bytes.size(); i += 3) {
        uint32_t chunk = uint32_t(uint8_t(bytes[i])) << 16;
        if (i + 1 < bytes.size()) chunk |= uint32_t(uint8_t(bytes[i + 1])) << 8;
        if (i + 2 < bytes.size()) chunk |= uint32_t(uint8_t(bytes[i + 2]));
        out += kAlphabet[(chunk >> 18) & 63];
        out += kAlphabet[(chunk >> 12) & 63];
        out += i + 1 < bytes.size() ? kAlphabet[(chunk >> 6) & 63] : '=';
        out += i + 2 < bytes.size() ? kAlphabet[chunk & 63] : '=';
    }
    return out;
}

// The unit tetrahedron: 48 bytes of positions, 12 ushort indices (24 bytes).
std::string tetraBuffer() {
    std::string out;
    for (float c : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f}) put(out, c, false);
    for (uint16_t i : {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3}) put(out, i, false);
    return out;
}

// A glTF whose parts the tests replace: `nodes`, `accessors`, `bufferViews`, and extra members.
std::string gltf(const std::string& nodes, const std::string& accessors = "", const std::string& views = "",
                 const std::string& extra = "") {
    const std::string buffer = tetraBuffer();
    return R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": )" + nodes +
           R"(, "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
           "buffers": [{"byteLength": 72, "uri": "data:application/octet-stream;base64,)" + base64(buffer) + R"("}],
           "bufferViews": )" + (views.empty() ? R"([{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 24}])" : views) +
           R"(, "accessors": )" +
           (accessors.empty() ? R"([{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"},
                                    {"bufferView": 1, "componentType": 5123, "count": 12, "type": "SCALAR"}])"
                              : accessors) +
           extra + "}";
}

// A chain of `depth` nodes, each translating by (1, 0, 0), the last one holding the mesh.
std::string chain(size_t depth) {
    std::string nodes = "[";
    for (size_t n = 0; n < depth; ++n) {
        nodes += n ? ", " : "";
        nodes += R"({"translation": [1, 0, 0], )" +
                 (n + 1 < depth ? R"("children": [)" + std::to_string(n + 1) + "]}" : std::string(R"("mesh": 0})"));
    }
    return nodes + "]";
}

TEST(GltfReader, NodeChainsUpToTheLimitLoadDeeperOnesAreRefused) {
    const auto dir = test::scratchDir("gltf_chain");
    Result<MeshData> ok = load(writeFile(dir / "ok.gltf", gltf(chain(io::kMaxGltfNodeDepth))));
    ASSERT_TRUE(ok.ok()) << ok.status().message;
    EXPECT_EQ(ok->positions[0], glm::vec3(float(io::kMaxGltfNodeDepth), 0, 0));
    EXPECT_NEAR(checkMesh(*ok).signedVolume, 1.0 / 6.0, 1e-6);
    expectLoadError(writeFile(dir / "deep.gltf", gltf(chain(io::kMaxGltfNodeDepth + 1))),
                    ": nodes[256]: node hierarchy deeper than 256 levels");
    // A cycle, and a node with two parents (which would also multiply the work).
    expectLoadError(writeFile(dir / "cycle.gltf", gltf(R"([{"children": [1]}, {"children": [0], "mesh": 0}])")),
                    ": nodes[0]: reached twice (a cycle, or a node with two parents)");
    expectLoadError(writeFile(dir / "shared.gltf", gltf(R"([{"children": [1, 2]}, {"children": [2]}, {"mesh": 0}])")),
                    ": nodes[2]: reached twice");
    expectLoadError(writeFile(dir / "child.gltf", gltf(R"([{"children": [7]}])")), ": nodes[0].children: 7 is out of range (1 entries)");
}

TEST(GltfReader, BufferFilesMustLieInsideTheGltfFilesFolder) {
    const auto dir = test::scratchDir("gltf_uris");
    std::filesystem::create_directories(dir / "sub");
    writeFile(dir / "tetra.bin", tetraBuffer());
    writeFile(dir / "sub" / "tetra.bin", tetraBuffer());
    writeFile(dir.parent_path() / "outside.bin", tetraBuffer());
    auto withUri = [](const std::string& uri) {
        const std::string text = gltf(R"([{"mesh": 0}])");
        const size_t start = text.find(R"("uri": ")") + 8;
        return text.substr(0, start) + uri + text.substr(text.find('"', start));
    };
    for (const char* uri : {"tetra.bin", "sub/tetra.bin", "sub/../tetra.bin", "%74etra.bin"}) {
        Result<MeshData> mesh = load(writeFile(dir / "ok.gltf", withUri(uri)));
        ASSERT_TRUE(mesh.ok()) << uri << ": " << mesh.status().message;
        EXPECT_NEAR(checkMesh(*mesh).signedVolume, 1.0 / 6.0, 1e-6) << uri;
    }
    // outside.bin exists and would load: each is refused for where it points, not for a missing file.
    for (const char* uri : {"../outside.bin", "sub/../../outside.bin", "%2e%2e/outside.bin", "/etc/hostname",
                            "file:///etc/hostname", "C:outside.bin"})
        expectLoadError(writeFile(dir / "escape.gltf", withUri(uri)),
                        ": buffers[0].uri: must be a relative path inside the glTF file's folder");
}

TEST(GltfReader, AccessorAndBufferViewRangesAreChecked) {
    const auto dir = test::scratchDir("gltf_ranges");
    const std::string node = R"([{"mesh": 0}])";
    auto accessors = [](const std::string& position, const std::string& index = R"({"bufferView": 1, "componentType": 5123, "count": 12, "type": "SCALAR"})") {
        return "[" + position + ", " + index + "]";
    };
    struct Case {
        const char* name;
        std::string text;
        const char* error;
    } cases[] = {
        {"count", gltf(node, accessors(R"({"bufferView": 0, "componentType": 5126, "count": 5, "type": "VEC3"})")),
         ": accessors[0]: 5 elements from byte 0 run past its bufferView's 48 bytes"},
        {"offset", gltf(node, accessors(R"({"bufferView": 0, "byteOffset": 18446744073709551615, "componentType": 5126, "count": 1, "type": "VEC3"})")),
         ": accessors[0]: 1 elements from byte 18446744073709551615 run past"},
        {"huge_count", gltf(node, accessors(R"({"bufferView": 0, "componentType": 5126, "count": 9007199254740993, "type": "VEC3"})")),
         "elements from byte 0 run past its bufferView's 48 bytes"},
        {"index_count", gltf(node, accessors(R"({"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"})",
                                             R"({"bufferView": 1, "componentType": 5125, "count": 12, "type": "SCALAR"})")),
         ": accessors[1]: 12 elements from byte 0 run past its bufferView's 24 bytes"},
        {"view", gltf(node, "", R"([{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 4000}])"),
         ": bufferViews[1]: bytes [48, +4000) run past its buffer's 72 bytes"},
        {"stride", gltf(node, "", R"([{"buffer": 0, "byteLength": 48, "byteStride": 4}, {"buffer": 0, "byteOffset": 48, "byteLength": 24}])"),
         ": bufferViews[0]: byteStride 4 is smaller than an element"},
        {"sparse", gltf(node, accessors(R"({"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
                                            "sparse": {"count": 1000000, "indices": {"bufferView": 1, "componentType": 5125},
                                                       "values": {"bufferView": 0}}})")),
         ": accessors[0]: sparse accessors are not supported"},
        {"no_accessor", gltf(node, R"([{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"}])"),
         ": accessors[1]: no such accessor (1 accessors)"},
        {"quantized", gltf(node, accessors(R"({"bufferView": 0, "componentType": 5123, "count": 4, "type": "VEC3"})")),
         ": accessors[0]: POSITION: component type 5123 is not supported"},
        {"buffer_length", gltf(node, "", "", R"(, "extensionsUsed": [])").replace(gltf(node).find("\"byteLength\": 72"), 16, "\"byteLength\": 99"),
         ": buffers[0]: byteLength 99 but only 72 bytes of data"},
        {"draco", gltf(node, "", "", R"(, "extensionsRequired": ["KHR_draco_mesh_compression"])"),
         ": extensionsRequired: \"KHR_draco_mesh_compression\" is not supported"},
        {"nested", gltf(node, "", "", R"(, "extras": )" + std::string(100000, '[') + std::string(100000, ']')),
         ": JSON: line 4: JSON nested deeper than 64 levels"},
        {"bad_json", gltf(node).substr(0, 40) + "\"" + std::string(100000, 'x'), ": JSON line 1, column "},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        expectLoadError(writeFile(dir / (std::string(c.name) + ".gltf"), c.text), c.error);
    }
}

// Strips and fans (glTF 2.0 section 3.7.2.1) without an index accessor; points are skipped.
TEST(GltfReader, StripsFansAndPointsFollowTheSpecification) {
    const auto dir = test::scratchDir("gltf_modes");
    const std::string strip = gltf(R"([{"mesh": 0}])");
    std::string text = strip;
    const std::string primitive = R"({"attributes": {"POSITION": 0}, "indices": 1})";
    text.replace(text.find(primitive), primitive.size(),
                 R"({"attributes": {"POSITION": 0}, "mode": 5}, {"attributes": {"POSITION": 0}, "mode": 6},
                    {"attributes": {"POSITION": 0}, "mode": 0})");
    Result<MeshData> mesh = load(writeFile(dir / "modes.gltf", text));
    ASSERT_TRUE(mesh.ok()) << mesh.status().message;
    EXPECT_EQ(mesh->positions.size(), 8u);  // the points primitive adds nothing
    EXPECT_EQ(mesh->indices, (std::vector<uint32_t>{0, 1, 2, 1, 3, 2, 5, 6, 4, 6, 7, 4}));
}

std::string glb(const std::string& json, const std::string& bin, int64_t lengthDelta = 0) {
    std::string j = json, b = bin;
    while (j.size() % 4) j += ' ';
    while (b.size() % 4) b += '\0';
    std::string out = "glTF";
    put(out, uint32_t(2), false);
    put(out, uint32_t(int64_t(12 + 8 + j.size() + 8 + b.size()) + lengthDelta), false);
    put(out, uint32_t(j.size()), false), put(out, uint32_t(0x4E4F534A), false);
    out += j;
    put(out, uint32_t(b.size()), false), put(out, uint32_t(0x004E4942), false);
    return out + b;
}

TEST(GltfReader, GlbLoadsAndItsChunksAreChecked) {
    const auto dir = test::scratchDir("glb");
    const std::string json = R"({"asset": {"version": "2.0"}, "nodes": [{"mesh": 0, "translation": [0, 0, 5]}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}], "buffers": [{"byteLength": 72}],
        "bufferViews": [{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 24}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"},
                      {"bufferView": 1, "componentType": 5123, "count": 12, "type": "SCALAR"}]})";
    Result<MeshData> mesh = load(writeFile(dir / "ok.glb", glb(json, tetraBuffer())));
    ASSERT_TRUE(mesh.ok()) << mesh.status().message;
    EXPECT_EQ(mesh->positions[3], glm::vec3(0, 0, 6));  // no scene: the root node places the mesh
    EXPECT_NEAR(checkMesh(*mesh).signedVolume, 1.0 / 6.0, 1e-6);
    expectLoadError(writeFile(dir / "length.glb", glb(json, tetraBuffer(), 4)), ": GLB: header says");
    std::string bad = glb(json, tetraBuffer());
    const uint32_t huge = 0x7FFFFFF0u;
    std::memcpy(bad.data() + 12, &huge, 4);
    expectLoadError(writeFile(dir / "chunk.glb", bad), ": GLB: the JSON chunk runs past the end of the file");
    expectLoadError(writeFile(dir / "short_bin.glb", glb(json, tetraBuffer().substr(0, 40))),
                    ": buffers[0]: byteLength 72 but only 40 bytes of data");
}

// ---- Scene JSON ---------------------------------------------------------------------------

TEST(SceneJson, NestingIsLimitedBeforeParsing) {
    const std::string head = R"({"meshes": {"b": {"box": {"size": [1, 1, 1]}}}, "objects": [{"name": "a", "mesh": "b", "comment": )";
    // 64 levels in all (root, objects, the object, then 61 in the comment) load; one more does not.
    const size_t allowed = io::kMaxJsonDepth - 3;
    Result<io::SceneDescription> ok =
        io::parseScene(head + std::string(allowed, '[') + std::string(allowed, ']') + "}]}", ".", "ok.json");
    EXPECT_TRUE(ok.ok()) << ok.status().message;
    const std::string deep = head + "\n\n" + std::string(allowed + 1, '[') + std::string(allowed + 1, ']') + "}]}";
    Result<io::SceneDescription> refused = io::parseScene(deep, ".", "deep.json");
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.status().message, "scene \"deep.json\": line 3: JSON nested deeper than 64 levels");
    // Brackets inside strings do not count.
    const std::string quoted = head + "\"" + std::string(1000, '[') + "\"}]}";
    EXPECT_TRUE(io::parseScene(quoted, ".", "quoted.json").ok());
    // An escaped quote does not end a string; an escaped backslash does not escape the quote after it.
    EXPECT_TRUE(io::checkJsonDepth(R"({"a": "\"[[[[", "b": [[1]]})", "x", ErrorCode::InvalidScene, 3).ok());
    EXPECT_FALSE(io::checkJsonDepth(R"({"a": "\\", "b": [[[1]]]})", "x", ErrorCode::InvalidScene, 3).ok());
}

// Devices and directories would be read forever or fail obscurely; both loaders refuse them.
TEST(SceneJson, NonRegularFilesAreRefused) {
    Result<io::SceneDescription> scene = loadScene("/dev/zero");
    ASSERT_FALSE(scene.ok());
    EXPECT_EQ(scene.status().message, "scene \"/dev/zero\": not a regular file");
    const auto dir = test::scratchDir("not_regular");
    std::filesystem::create_directories(dir / "mesh.ply");
    expectLoadError(dir / "mesh.ply", ": not a regular file");
}

TEST(SceneJson, ParseErrorsStayShort) {
    const std::string text = R"({"meshes": {"b": )" + std::string("\"") + std::string(100000, 'x');
    Result<io::SceneDescription> scene = io::parseScene(text, ".", "long.json");
    ASSERT_FALSE(scene.ok());
    EXPECT_THAT(scene.status().message, StartsWith("scene \"long.json\": line 1, column "));
    EXPECT_LT(scene.status().message.size(), 260u) << scene.status().message;
}

// Found by tests/fuzz's scene target: messages quote the file's keys and names, and a JSON "\n"
// escape put a line break into the one-line error. Control characters now print as '?'.
TEST(SceneJson, KeysAndNamesWithLineBreaksKeepErrorsOnOneLine) {
    const std::pair<const char*, const char*> cases[] = {
        {R"({"meshes": {"ball": {"sphere": {"r\n%adius": 0.5}}}, "objects": []})",
         R"(scene "fuzz.json": meshes.ball.sphere.r?%adius: unknown key)"},
        {R"({"meshes": {"b": {"box": {"size": [1, 1, 1]}}},
             "objects": [{"name": "a\r\nb", "mesh": "b"}, {"name": "a\r\nb", "mesh": "b"}]})",
         R"(scene "fuzz.json": objects[1] "a??b": duplicate object name (also objects[0]))"},
    };
    for (const auto& [text, expected] : cases) {
        Result<io::SceneDescription> scene = io::parseScene(text, test::scratchDir("line_breaks"), "fuzz.json");
        ASSERT_FALSE(scene.ok()) << text;
        EXPECT_THAT(scene.status().message, StartsWith(expected));
        EXPECT_EQ(scene.status().message.find_first_of("\r\n"), std::string::npos) << scene.status().message;
    }
}

// A name of a million characters is quoted in the error, which stays one short line (cut between
// UTF-8 characters, with how much was left out).
TEST(SceneJson, ErrorsQuotingHugeNamesStayShort) {
    std::string huge = "a";
    for (int i = 0; i < 500000; ++i) huge += "\xc3\xa9";  // é, two bytes each
    const std::string text = R"({"meshes": {"b": {"box": {"size": [1, 1, 1]}}}, "objects": [{"name": ")" + huge +
                             R"(", "mesh": "b"}, {"name": ")" + huge + R"(", "mesh": "b"}]})";
    Result<io::SceneDescription> scene = io::parseScene(text, test::scratchDir("huge_names"), "huge.json");
    ASSERT_FALSE(scene.ok());
    const std::string& message = scene.status().message;
    EXPECT_THAT(message, StartsWith("scene \"huge.json\": objects[1] \"a\xc3\xa9\xc3\xa9"));
    EXPECT_LT(message.size(), 600u);
    EXPECT_THAT(message, HasSubstr(" more bytes)"));
    const size_t cut = message.find("... (");
    ASSERT_NE(cut, std::string::npos);
    EXPECT_EQ(message.substr(cut - 2, 2), "\xc3\xa9") << "cut inside a character";
}

// OBJ vertex weights ("vw", a tinyobjloader extension) with joint ids beyond int's range or that
// read as infinite: tinyobjloader's float-to-int conversion was undefined (fuzz_mesh_obj; the
// sanitizer stage of run_tests.sh aborts on it), also on a line begun by a lone '\r'. Weights are
// not read, so the tetrahedron loads as written.
TEST(ObjReader, VertexWeightsAreIgnored) {
    std::string obj;
    for (const auto& v : kTetra) obj += "v " + std::to_string(v[0]) + " " + std::to_string(v[1]) + " " + std::to_string(v[2]) + "\n";
    for (const auto& f : kTetraFaces)
        obj += "f " + std::to_string(f[0] + 1) + " " + std::to_string(f[1] + 1) + " " + std::to_string(f[2] + 1) + "\n";
    const auto dir = test::scratchDir("obj_weights");
    for (const char* weights : {"vw 0 3 0.5 7 0.25\n", "vw 0 7485150042 0.5\n", " \tvw 1 2 0.5 -1e30 0.25\n",
                                "vw\tv 0.074122999e9003\n", "# x\rvw 0 6e12 0.5\n"})
        expectTetra(load(writeFile(dir / "weights.obj", obj + weights)));
}

}  // namespace
}  // namespace vkc
