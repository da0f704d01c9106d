// Places a MeshData in world space in double precision (see world_mesh.h for the contract).
#include "collision/reference/world_mesh.h"

#include <algorithm>
#include <cmath>

namespace vkc::reference {

glm::dvec3 transformPoint(const glm::dmat4& m, const glm::vec3& p) {
    // Explicit sums in a fixed order (glm's operator* could be vectorised differently per build).
    const double x = p.x, y = p.y, z = p.z;
    glm::dvec3 out;
    for (int r = 0; r < 3; ++r) {
        double acc = m[0][r] * x;
        acc += m[1][r] * y;
        acc += m[2][r] * z;
        acc += m[3][r];
        out[r] = acc;
    }
    return out;
}

Result<WorldMesh> toWorld(const MeshData& mesh, const glm::dmat4& transform) {
    const std::string name = mesh.name.empty() ? std::string("<unnamed mesh>") : mesh.name;
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!std::isfinite(transform[c][r]))
                return makeError(ErrorCode::InvalidArgument, "transform of mesh '" + name + "' has a non-finite entry");
    if (transform[0][3] != 0.0 || transform[1][3] != 0.0 || transform[2][3] != 0.0 || transform[3][3] != 1.0)
        return makeError(ErrorCode::InvalidArgument,
                         "transform of mesh '" + name + "' is not affine (last row must be 0 0 0 1)");
    const glm::dvec3 c0(transform[0]), c1(transform[1]), c2(transform[2]);
    const double det = glm::dot(c0, glm::cross(c1, c2));
    if (det == 0.0 || !std::isfinite(det))
        return makeError(ErrorCode::InvalidArgument, "transform of mesh '" + name + "' is singular");
    if (mesh.indices.size() % 3 != 0)
        return makeError(ErrorCode::InvalidMesh, "mesh '" + name + "': index count " +
                                                     std::to_string(mesh.indices.size()) + " is not a multiple of 3");

    WorldMesh world;
    world.name = name;
    world.positions.reserve(mesh.positions.size());
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
        const glm::vec3& p = mesh.positions[i];
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
            return makeError(ErrorCode::InvalidMesh,
                             "mesh '" + name + "': vertex " + std::to_string(i) + " has a non-finite coordinate");
        world.positions.push_back(transformPoint(transform, p));
    }
    world.indices = mesh.indices;
    for (size_t i = 0; i < world.indices.size(); ++i)
        if (world.indices[i] >= mesh.positions.size())
            return makeError(ErrorCode::InvalidMesh, "mesh '" + name + "': triangle " + std::to_string(i / 3) +
                                                         " has index " + std::to_string(world.indices[i]) +
                                                         " out of range (" + std::to_string(mesh.positions.size()) +
                                                         " vertices)");
    if (det < 0.0) {
        for (size_t t = 0; t + 2 < world.indices.size(); t += 3) std::swap(world.indices[t + 1], world.indices[t + 2]);
        world.windingFlipped = true;
    }
    return world;
}

bool WorldBounds::overlaps(const WorldBounds& o) const {
    if (empty() || o.empty()) return false;
    for (int k = 0; k < 3; ++k)
        if (max[k] < o.min[k] || o.max[k] < min[k]) return false;
    return true;
}

WorldBounds boundsOf(const WorldMesh& mesh) {
    WorldBounds b;
    if (mesh.indices.empty()) return b;
    b.min = b.max = mesh.positions[mesh.indices[0]];
    for (uint32_t i : mesh.indices) {
        b.min = glm::min(b.min, mesh.positions[i]);
        b.max = glm::max(b.max, mesh.positions[i]);
    }
    return b;
}

}  // namespace vkc::reference
