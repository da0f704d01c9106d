// A mesh placed in world space in double precision: the exact oracle's common input.
// Inputs: vkc::MeshData (float positions, uint32 indices) and a double glm::dmat4 object-to-world
// transform (a float matrix converts exactly). Output: world positions as glm::dvec3, computed by
// promoting every float coordinate to double and evaluating M * (x, y, z, 1) in double, in a fixed
// order, so the same inputs give bit-identical world points on every run and platform (IEEE-754
// double, no FMA contraction: see CMakeLists.txt). Integer and dyadic inputs (unit cubes shifted
// by 0.5) are transformed exactly; everything downstream (CGAL predicates, corefinement) is exact
// on these double points, so the oracle's answers are exact for the double-precision world mesh.
#pragma once

#include <vkcollide/mesh.h>
#include <vkcollide/status.h>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace vkc::reference {

struct WorldMesh {
    std::string name;                  // the MeshData's name, for messages
    std::vector<glm::dvec3> positions; // world-space positions, one per MeshData position
    std::vector<uint32_t> indices;     // three per triangle; same triangle order as the MeshData
    bool windingFlipped = false;       // the transform mirrors (det < 0): each triangle was
                                       // re-wound (v0, v2, v1) to keep outward orientation

    size_t triangleCount() const { return indices.size() / 3; }
};

// Transforms `mesh` to world space in double precision (see the file comment).
// `transform` is expected to be rigid with uniform scale, but any finite affine map works for the
// triangle-pair and point queries; a mirroring transform (negative determinant) re-winds triangles
// so volumes stay positive. Errors (InvalidMesh, naming the mesh): index count not a multiple of
// 3, an index out of range, a non-finite position. InvalidArgument: a non-finite or singular
// transform, or one whose last row is not (0, 0, 0, 1).
Result<WorldMesh> toWorld(const MeshData& mesh, const glm::dmat4& transform);

// The world-space point M * (p, 1) computed as toWorld() does (for callers building test points).
glm::dvec3 transformPoint(const glm::dmat4& transform, const glm::vec3& p);

// Axis-aligned bounds of the vertices referenced by triangles; empty (min > max) with no triangles.
struct WorldBounds {
    glm::dvec3 min{1.0, 1.0, 1.0};
    glm::dvec3 max{-1.0, -1.0, -1.0};
    bool empty() const { return min.x > max.x; }
    // Closed overlap test: boxes that only touch overlap (the oracle's touching policy).
    bool overlaps(const WorldBounds& other) const;
};
WorldBounds boundsOf(const WorldMesh& mesh);

}  // namespace vkc::reference
