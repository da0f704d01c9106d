#include "collision/ebpi/ebpi_ray_mesh.h"

#include <glm/geometric.hpp>

#include <cmath>

namespace vkc {

EbpiRayMesh toEbpiRayFrame(const MeshData& mesh, const glm::dvec3& direction) {
    const glm::dvec3 d = glm::normalize(direction);
    // Any axis not parallel to d gives the image plane; u x v = d keeps the basis right-handed.
    const glm::dvec3 helper = std::abs(d.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0);
    const glm::dvec3 u = glm::normalize(glm::cross(helper, d));
    const glm::dvec3 v = glm::cross(d, u);
    EbpiRayMesh out;
    out.positions.reserve(mesh.positions.size());
    for (const glm::vec3& p : mesh.positions) {
        const glm::dvec3 q(p);
        out.positions.emplace_back(glm::dot(u, q), glm::dot(v, q), glm::dot(d, q));
    }
    out.indices = mesh.indices;
    return out;
}

}  // namespace vkc
