// Exact vertex welding: merges vertices whose positions are bit-for-bit equal (after -0 → +0).
// Used for STL, which stores every triangle with its own three corners, and offered to tools
// that want to repair soups; never moves a vertex, so no new self-intersections appear.
#pragma once

#include "vkcollide/mesh.h"

namespace vkc::io {

// Returns `mesh` with exact duplicate positions merged into the first vertex that has them,
// vertices kept in order of first appearance. NaN/Inf vertices are never merged. Triangles are
// kept as they are, even those that become degenerate (checkMesh reports them).
MeshData weldExactDuplicates(const MeshData& mesh);

}  // namespace vkc::io
