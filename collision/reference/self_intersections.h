// Self-intersections of one mesh with exact predicates: pairs of triangles that are not
// neighbours in the mesh and yet intersect. A solid with any has no well-defined volume.
#pragma once

#include "vkcollide/mesh.h"
#include "vkcollide/status.h"

#include <cstddef>

namespace vkc::reference {

// Number of self-intersecting triangle pairs (CGAL PMP::self_intersections, box broad phase).
// Needs a closed manifold mesh (InvalidMesh otherwise, naming it).
Result<size_t> selfIntersectingTrianglePairs(const MeshData& mesh);

}  // namespace vkc::reference
