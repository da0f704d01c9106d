// Helpers of the ldi-method tests: world boxes of placed meshes (rounded outward to float, as a
// broadphase must pad them), shared meshes, seeded random rigid motions and point-to-surface
// distances for judging the points the LDI classifies differently from the exact oracle.
#pragma once

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

inline glm::dvec3 world(const glm::mat4& m, const glm::vec3& p) {
    return glm::dvec3(glm::dmat4(m) * glm::dvec4(glm::dvec3(p), 1.0));
}

inline Aabb worldBox(const MeshData& mesh, const glm::mat4& transform) {
    glm::dvec3 lo(INFINITY), hi(-INFINITY);
    for (const glm::vec3& p : mesh.positions) {
        glm::dvec3 w = world(transform, p);
        lo = glm::min(lo, w);
        hi = glm::max(hi, w);
    }
    Aabb box;
    for (int k = 0; k < 3; ++k) {
        box.min[k] = std::nextafter(float(lo[k]), -INFINITY);
        box.max[k] = std::nextafter(float(hi[k]), INFINITY);
    }
    return box;
}

// A shared mesh as stored (no rescaling: the reference volumes are in the file's units).
inline std::optional<MeshData> sharedMesh(const char* file) {
    std::string dir = test::sharedDir();
    if (dir.empty()) return std::nullopt;
    auto mesh = io::loadMesh(std::filesystem::path(dir) / "meshes" / file);
    if (!mesh) return std::nullopt;
    return std::move(mesh.value());
}

inline glm::mat4 randomRigid(std::mt19937& rng, float spread) {
    std::uniform_real_distribution<float> position(-spread / 2, spread / 2), unit(-1.0f, 1.0f);
    glm::quat rotation = glm::normalize(glm::quat(unit(rng), unit(rng), unit(rng), unit(rng)));
    return glm::translate(glm::mat4(1.0f), {position(rng), position(rng), position(rng)}) * glm::mat4_cast(rotation);
}

// Ericson, Real-Time Collision Detection, 5.1.5: distance from p to triangle abc.
inline double distanceToTriangle(glm::dvec3 p, glm::dvec3 a, glm::dvec3 b, glm::dvec3 c) {
    glm::dvec3 ab = b - a, ac = c - a, ap = p - a;
    double d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return glm::length(p - a);
    glm::dvec3 bp = p - b;
    double d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return glm::length(p - b);
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return glm::length(p - (a + ab * (d1 / (d1 - d3))));
    glm::dvec3 cp = p - c;
    double d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return glm::length(p - c);
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return glm::length(p - (a + ac * (d2 / (d2 - d6))));
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0)
        return glm::length(p - (b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)))));
    double denom = 1.0 / (va + vb + vc);
    return glm::length(p - (a + ab * (vb * denom) + ac * (vc * denom)));
}

inline double distanceToSurface(const MeshData& mesh, const glm::mat4& transform, const glm::dvec3& p) {
    double best = INFINITY;
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3)
        best = std::min(best, distanceToTriangle(p, world(transform, mesh.positions[mesh.indices[t]]),
                                                 world(transform, mesh.positions[mesh.indices[t + 1]]),
                                                 world(transform, mesh.positions[mesh.indices[t + 2]])));
    return best;
}

}  // namespace vkc::ldi_test
