// TEST SCAFFOLDING, to be replaced by tools/io's mesh loader when it lands: the smallest loader
// the reference tests need. .obj via tinyobjloader (double build; indices kept as in the file, no
// welding); .stl via assimp with normals removed first, then JoinIdenticalVertices, so STL faces
// weld into a closed mesh; .off by a few lines of parsing here, because assimp stores float
// (ai_real) and the README's reference volumes were computed from the files' double coordinates.
// No error recovery beyond what the tests need.
#pragma once

#include <vkcollide/mesh.h>

#include <glm/vec3.hpp>

#include <optional>
#include <string>
#include <vector>

namespace vkc::reference::test {

// `VKC_SHARED_DIR`/meshes/, or ../shared/meshes/ relative to the source tree when unset.
std::string sharedMeshDir();

struct TestMesh {
    MeshData mesh;                         // float positions: what MeshData users (and the GPU) see
    std::vector<glm::dvec3> filePositions; // the file's coordinates as parsed to double (float for STL)
};

// Loads `path` (.obj, .stl, .off); nullopt (and a message on stderr) on failure.
std::optional<TestMesh> loadTestMesh(const std::string& path);
inline std::optional<MeshData> loadMeshForTest(const std::string& path) {
    std::optional<TestMesh> m = loadTestMesh(path);
    if (!m) return std::nullopt;
    return std::move(m->mesh);
}

}  // namespace vkc::reference::test
