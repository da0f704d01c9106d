// TEST SCAFFOLDING (see test_mesh_loader.h): replace with tools/io once it is ready.
#include "tests/reference/test_mesh_loader.h"

#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
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

static std::optional<TestMesh> loadWithAssimp(const std::string& path) {
    aiPropertyStore* props = aiCreatePropertyStore();
    // Drop normals before welding: STL stores one normal per face, which would keep faces apart.
    aiSetImportPropertyInteger(props, AI_CONFIG_PP_RVC_FLAGS,
                               aiComponent_NORMALS | aiComponent_TANGENTS_AND_BITANGENTS | aiComponent_COLORS |
                                   aiComponent_TEXCOORDS);
    const aiScene* scene = aiImportFileExWithProperties(
        path.c_str(), aiProcess_RemoveComponent | aiProcess_Triangulate | aiProcess_JoinIdenticalVertices, nullptr,
        props);
    aiReleasePropertyStore(props);
    if (!scene) {
        std::cerr << "assimp: " << path << ": " << aiGetErrorString() << "\n";
        return std::nullopt;
    }
    TestMesh m;
    m.mesh.name = path;
    for (unsigned k = 0; k < scene->mNumMeshes; ++k) {
        const aiMesh* am = scene->mMeshes[k];
        const auto base = static_cast<uint32_t>(m.filePositions.size());
        for (unsigned i = 0; i < am->mNumVertices; ++i)
            m.filePositions.emplace_back(am->mVertices[i].x, am->mVertices[i].y, am->mVertices[i].z);
        for (unsigned f = 0; f < am->mNumFaces; ++f) {
            if (am->mFaces[f].mNumIndices != 3) continue;  // points and lines
            for (int c = 0; c < 3; ++c) m.mesh.indices.push_back(base + am->mFaces[f].mIndices[c]);
        }
    }
    aiReleaseImport(scene);
    finish(m);
    return m;
}

std::optional<TestMesh> loadTestMesh(const std::string& path) {
    const auto dot = path.rfind('.');
    const std::string ext = dot == std::string::npos ? "" : path.substr(dot + 1);
    if (ext == "obj") return loadObj(path);
    if (ext == "off") return loadOff(path);
    return loadWithAssimp(path);
}

}  // namespace vkc::reference::test
