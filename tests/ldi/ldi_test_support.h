// Helpers of the ldi-method tests: shared meshes and their reference intersection volumes, seeded
// random rigid motions and point-to-surface distances for judging the points the LDI classifies
// differently from the exact oracle.
#pragma once

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
#include <optional>
#include <random>

namespace vkc::ldi_test {

using test::distanceToTriangle;
using test::randomRigid;

inline glm::dvec3 world(const glm::mat4& m, const glm::vec3& p) {
    return glm::dvec3(glm::dmat4(m) * glm::dvec4(glm::dvec3(p), 1.0));
}

// A shared mesh as stored (no rescaling: the reference volumes are in the file's units).
inline std::optional<MeshData> sharedMesh(const char* file) {
    std::string dir = test::sharedDir();
    if (dir.empty()) return std::nullopt;
    auto mesh = io::loadMesh(std::filesystem::path(dir) / "meshes" / file);
    if (!mesh) return std::nullopt;
    return std::move(mesh.value());
}

// A pair of the shared meshes README's "Reference intersection volumes" table: b moved by `offset`.
struct ReferenceVolume {
    const char* a;
    const char* b;  // nullptr: a itself
    glm::vec3 offset;
    double volume;  // ../shared/meshes/README.md (tests/tools/scenes/reference_volumes.json)
};

// The README's volumes are of the double meshes; float MeshData moves them by up to 2e-8 relative.
inline constexpr ReferenceVolume kReferenceVolumes[] = {
    {"cube.stl", nullptr, {0.5f, 0.5f, 0.5f}, 0.125},
    {"sphere_ico4.stl", nullptr, {1, 0, 0}, 1.29100111077},
    {"torus.stl", nullptr, {1.5f, 0, 0}, 1.38331932222},
    {"knot.off", nullptr, {0.1f, 0, 0}, 0.0349967844596},
    {"ballA.off", "ballB.off", {0, 0, 0}, 324.549994167},
    {"pinion_gear.off", nullptr, {0, 0, 0.4f}, 0.213922950923},
};

inline glm::mat4 shift(glm::vec3 offset) { return glm::translate(glm::mat4(1.0f), offset); }
inline glm::mat4 shift(float x, float y, float z) { return shift(glm::vec3(x, y, z)); }

inline double distanceToSurface(const MeshData& mesh, const glm::mat4& transform, const glm::dvec3& p) {
    double best = INFINITY;
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3)
        best = std::min(best, distanceToTriangle(p, world(transform, mesh.positions[mesh.indices[t]]),
                                                 world(transform, mesh.positions[mesh.indices[t + 1]]),
                                                 world(transform, mesh.positions[mesh.indices[t + 2]])));
    return best;
}

}  // namespace vkc::ldi_test
