// Double-precision mesh loading for the reference-volume tests; see test_mesh_loader.h.
#include "tests/reference/test_mesh_loader.h"

#include "tools/io/mesh_loader.h"

#include <tiny_obj_loader.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

namespace vkc::reference::test {

std::string sharedMeshDir() {
    const char* dir = std::getenv("VKC_SHARED_DIR");
    return std::string(dir ? dir : VKC_TEST_DEFAULT_SHARED_DIR) + "/meshes/";
}

static void finish(TestMesh& m) {
    for (const glm::dvec3& p : m.filePositions) m.mesh.positions.emplace_back(p);  // round to float
}

static std::optional<TestMesh> loadObj(const std::string& path) {
    tinyobj::ObjReaderConfig config;
    config.triangulate = true;
    config.vertex_color = false;
    tinyobj::ObjReader reader;
    if (!reader.ParseFromFile(path, config)) {
        std::cerr << "tinyobjloader: " << path << ": " << reader.Error() << "\n";
        return std::nullopt;
    }
    TestMesh m;
    m.mesh.name = path;
    const auto& v = reader.GetAttrib().vertices;  // double: the TINYOBJLOADER_USE_DOUBLE build
    for (size_t i = 0; i + 2 < v.size(); i += 3) m.filePositions.emplace_back(v[i], v[i + 1], v[i + 2]);
    for (const auto& shape : reader.GetShapes())
        for (const auto& index : shape.mesh.indices) m.mesh.indices.push_back(static_cast<uint32_t>(index.vertex_index));
    finish(m);
    return m;
}

// OFF: "OFF", "nv nf ne", nv lines "x y z", nf lines "n i0 i1 ... " (fans triangulated).
static std::optional<TestMesh> loadOff(const std::string& path) {
    std::ifstream in(path);
    std::string magic;
    size_t nv = 0, nf = 0, ne = 0;
    if (!(in >> magic >> nv >> nf >> ne) || magic != "OFF") {
        std::cerr << "OFF: " << path << ": bad header\n";
        return std::nullopt;
    }
    TestMesh m;
    m.mesh.name = path;
    for (size_t i = 0; i < nv; ++i) {
        glm::dvec3 p;
        in >> p.x >> p.y >> p.z;
        m.filePositions.push_back(p);
    }
    for (size_t f = 0; f < nf && in; ++f) {
        size_t n = 0;
        in >> n;
        std::vector<uint32_t> poly(n);
        for (auto& i : poly) in >> i;
        for (size_t k = 1; k + 1 < n; ++k) m.mesh.indices.insert(m.mesh.indices.end(), {poly[0], poly[k], poly[k + 1]});
        std::string rest;
        std::getline(in, rest);  // optional per-face colour
    }
    if (!in) {
        std::cerr << "OFF: " << path << ": truncated\n";
        return std::nullopt;
    }
    finish(m);
    return m;
}

// STL and PLY store float32 coordinates, so tools/io's float MeshData loses nothing.
static std::optional<TestMesh> loadBinaryFloatFormat(const std::string& path) {
    Result<MeshData> loaded = io::loadMesh(path);
    if (!loaded) {
        std::cerr << path << ": " << loaded.status().describe() << "\n";
        return std::nullopt;
    }
    TestMesh m;
    m.mesh = std::move(loaded.value());
    for (const glm::vec3& p : m.mesh.positions) m.filePositions.emplace_back(p);
    return m;
}

std::optional<TestMesh> loadTestMesh(const std::string& path) {
    const auto dot = path.rfind('.');
    const std::string ext = dot == std::string::npos ? "" : path.substr(dot + 1);
    if (ext == "obj") return loadObj(path);
    if (ext == "off") return loadOff(path);
    return loadBinaryFloatFormat(path);
}

}  // namespace vkc::reference::test
