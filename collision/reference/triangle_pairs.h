// Exact list of intersecting triangle pairs between two placed meshes (the `exact` method's
// answer for paper 4's per-pair triangle lists). Works for open meshes and triangle soups.
#pragma once

#include "collision/reference/world_mesh.h"

#include <vkcollide/mesh.h>
#include <vkcollide/status.h>

#include <glm/mat4x4.hpp>

#include <compare>
#include <cstdint>
#include <vector>

namespace vkc::reference {

// One intersecting pair: triangle `a` of the first mesh and triangle `b` of the second, as
// triangle indices (position in MeshData::indices / 3).
struct TrianglePair {
    uint32_t a = 0;
    uint32_t b = 0;
    friend auto operator<=>(const TrianglePair&, const TrianglePair&) = default;
};

struct TrianglePairsResult {
    std::vector<TrianglePair> pairs; // sorted by (a, b), no duplicates
    size_t degenerateA = 0;          // triangles of A skipped as degenerate (collinear or repeated vertices)
    size_t degenerateB = 0;          // likewise for B
};

// All pairs (triangle of A, triangle of B) whose closed triangles share at least one point.
// Policy: triangles are closed sets, so touching (a shared vertex, an edge on a face, coplanar
// contact) counts as intersecting — CGAL::do_intersect(Triangle_3, Triangle_3) is closed.
// Degenerate triangles (three collinear world points, exactly tested) are skipped and counted,
// never reported. Exact: CGAL Epick predicates on the double world points of toWorld();
// broad phase: CGAL::box_intersection_d on closed double boxes (exact, so nothing is missed).
// Errors: those of toWorld() (naming the mesh); Unsupported if CGAL throws (message attached).
Result<TrianglePairsResult> intersectingTrianglePairs(const MeshData& meshA, const glm::dmat4& transformA,
                                                      const MeshData& meshB, const glm::dmat4& transformB);
// Same on meshes already in world space.
Result<TrianglePairsResult> intersectingTrianglePairs(const WorldMesh& a, const WorldMesh& b);

}  // namespace vkc::reference
