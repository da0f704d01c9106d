// Helpers of the ldi-method tests: shared meshes and their reference intersection volumes, seeded
// random rigid motions and point-to-surface distances for judging the points the LDI classifies
// differently from the exact oracle.
#pragma once

#include "tests/ldi/ldi_inside_oracle.h"
#include "tests/support/test_geometry.h"
#include "tests/support/vulkan_test.h"
#include "tools/io/mesh_loader.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/mesh.h"

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include <cmath>
#include <filesystem>
#include <initializer_list>
#include <random>
#include <vector>

namespace vkc::ldi_test {

using test::distanceToTriangle;
using test::randomRigid;

// A shared mesh as stored (no rescaling: the reference volumes are in the file's units), or why it
// is not there: VKC_SHARED_DIR unset, or the loader's own error (which names the file).
inline Result<MeshData> sharedMesh(const char* file) {
    std::string dir = test::sharedDir();
    if (dir.empty())
        return makeError(ErrorCode::NotFound, std::string("shared mesh ") + file + ": VKC_SHARED_DIR is not set");
    return io::loadMesh(std::filesystem::path(dir) / "meshes" / file);
}

// Several shared meshes, in order, or the first one's failure.
inline Result<std::vector<MeshData>> sharedMeshes(std::initializer_list<const char*> files) {
    std::vector<MeshData> meshes;
    for (const char* file : files) {
        auto mesh = sharedMesh(file);
        if (!mesh) return mesh.status();
        meshes.push_back(std::move(mesh.value()));
    }
    return meshes;
}

// Ends the test when a sharedMesh() or sharedMeshes() result failed, giving the reason: a failure under
// VKC_REQUIRE_DEVICE=1 (CI has the meshes, so a missing or unparseable one is a regression, e.g.
// of the loader), a skip otherwise.
#define VKC_REQUIRE_SHARED_MESH(mesh)                                                             \
    do {                                                                                          \
        if (!(mesh)) {                                                                            \
            if (::vkc::test::deviceRequired()) FAIL() << "shared mesh: " << (mesh).status().describe(); \
            GTEST_SKIP() << "shared mesh: " << (mesh).status().describe();                        \
        }                                                                                         \
    } while (0)

// A pair of the shared meshes README's "Reference intersection volumes" table: b moved by `offset`.
struct ReferenceVolume {
    const char* a;
    const char* b;  // nullptr: a itself
    glm::vec3 offset;
    double volume;  // ../shared/meshes/README.md (tests/tools/scenes/reference_volumes.json)
    // The accuracy the method really has, |ldi - exact| / exact at 256² and 512², far inside the
    // stated bound (7-57% at 512²): 3-7x the larger error measured for the CPU reference LDI and
    // the GPU (lavapipe), so a volume that is merely within the bound does not pass.
    double accuracy256, accuracy512;
    double accuracy(uint32_t resolution) const { return resolution >= 512 ? accuracy512 : accuracy256; }
};

// The README's volumes are of the double meshes; float MeshData moves them by up to 2e-8 relative.
// Measured relative errors (CPU / GPU): cube 2.4e-7 / 2.2e-7 at both (float depth only: the faces
// lie on the pixel grid); sphere 9.7e-6 / 9.7e-6 and 3.0e-6 / 3.0e-6; torus 1.9e-5 / 1.9e-5 and
// 1.0e-7 / 1.5e-7; knot 5.3e-6 / 5.2e-6 and 4.9e-5 / 4.9e-5; balls 1.9e-5 / 1.3e-5 and
// 1.5e-5 / 4.3e-6; pinion 7.9e-6 / 1.0e-5 and 5.8e-6 / 6.2e-6 (256² and 512²).
inline constexpr ReferenceVolume kReferenceVolumes[] = {
    {"cube.stl", nullptr, {0.5f, 0.5f, 0.5f}, 0.125, 1e-6, 1e-6},
    {"sphere_ico4.stl", nullptr, {1, 0, 0}, 1.29100111077, 4e-5, 1.5e-5},
    {"torus.stl", nullptr, {1.5f, 0, 0}, 1.38331932222, 8e-5, 1e-6},
    {"knot.off", nullptr, {0.1f, 0, 0}, 0.0349967844596, 3e-5, 2e-4},
    {"ballA.off", "ballB.off", {0, 0, 0}, 324.549994167, 8e-5, 6e-5},
    {"pinion_gear.off", nullptr, {0, 0, 0.4f}, 0.213922950923, 4e-5, 3e-5},
};

inline glm::mat4 shift(glm::vec3 offset) { return glm::translate(glm::mat4(1.0f), offset); }
inline glm::mat4 shift(float x, float y, float z) { return shift(glm::vec3(x, y, z)); }

}  // namespace vkc::ldi_test
