// Loads shared meshes with their coordinates as the file spells them in double precision: the
// README's reference volumes were computed from those, and tools/io's float MeshData moves some
// volumes by up to 2e-8 relative. Text formats are parsed here in double: .obj via tinyobjloader's
// double build, .off by a few lines of parsing. Binary float formats (.stl, .ply) go through
// tools/io, which loses nothing for them. No error recovery beyond what the tests need.
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

// Loads `path` (.obj, .off, .stl, .ply); nullopt (and a message on stderr) on failure.
std::optional<TestMesh> loadTestMesh(const std::string& path);
inline std::optional<MeshData> loadMeshForTest(const std::string& path) {
    std::optional<TestMesh> m = loadTestMesh(path);
    if (!m) return std::nullopt;
    return std::move(m->mesh);
}

}  // namespace vkc::reference::test
