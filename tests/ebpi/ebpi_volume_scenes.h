// Objects of the ebpi volume tests: two overlapping axis-aligned boxes with dyadic coordinates
// (every ray parameter, length and tile area exact), the same with one triangle of the first box
// removed (an open mesh), and shared meshes (VKC_SHARED_DIR) under seeded random poses.
#pragma once

#include "tests/ebpi/ebpi_trace_scenes.h"
#include "tests/support/vulkan_test.h"
#include "tools/io/mesh_loader.h"

#include <filesystem>

namespace vkc::ebpi_test {

// B = [0.25, 1.25] x [-0.25, 0.75] x [-0.75, 0.25] against A = [-1, 1]^3: the overlap is
// [0.25, 1] x [-0.25, 0.75] x [-0.75, 0.25], volume 0.75. Translating B along +x shrinks it at
// rate 1 (the overlap's y-z section); along y or z it stays inside A's extent: rate 0.
inline constexpr double kBoxesOverlapVolume = 0.75;
inline glm::mat4 boxBPose() {
    return glm::scale(glm::translate(glm::mat4(1.0f), glm::vec3(0.75f, 0.25f, -0.25f)), glm::vec3(0.5f));
}

// The cube without triangle (4, 5, 7) of its z = +1 face: the part of the face with y < x. A ray
// along +z through it enters the solid and never leaves.
inline MeshData openCubeMesh() {
    MeshData mesh = cubeMesh();
    for (size_t t = 0; t < mesh.triangleCount(); ++t) {
        uint32_t* tri = &mesh.indices[3 * t];
        const bool removed = std::is_permutation(tri, tri + 3, std::array<uint32_t, 3>{4, 5, 7}.begin());
        if (removed) {
            mesh.indices.erase(mesh.indices.begin() + 3 * t, mesh.indices.begin() + 3 * t + 3);
            break;
        }
    }
    mesh.name = "open cube";
    return mesh;
}

inline Result<MeshData> sharedMesh(const char* file) {
    const std::string dir = test::sharedDir();
    if (dir.empty())
        return makeError(ErrorCode::NotFound, std::string("shared mesh ") + file + ": VKC_SHARED_DIR is not set");
    return io::loadMesh(std::filesystem::path(dir) / "meshes" / file);
}

}  // namespace vkc::ebpi_test
