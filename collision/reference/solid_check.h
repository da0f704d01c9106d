// Checks that a placed mesh bounds a well-defined solid, so that volumes and containment are
// meaningful: oriented 2-manifold, closed, free of self-intersections, outward oriented.
#pragma once

#include "collision/reference/world_mesh.h"

#include <vkcollide/status.h>

namespace vkc::reference {

struct SolidCheckSettings {
    // PMP::does_self_intersect (exact predicates, box broad phase). Roughly 0.1 s per 60k triangles
    // on one core; without it a self-intersection is still caught, but only near the other mesh
    // during corefinement, and the error cannot say which mesh it was.
    bool checkSelfIntersections = true;
    // PMP::does_bound_a_volume: every component outward oriented and properly nested.
    // Needs checkSelfIntersections (CGAL precondition); ignored without it.
    bool checkOrientation = true;
};

// Ok, or InvalidMesh naming the mesh and the first failed check. Always checked: oriented
// 2-manifold, closed, positive signed volume (not inside out); the two settings add more.
Status checkSolid(const WorldMesh& world, const SolidCheckSettings& settings = {});

// Signed volume enclosed by a closed world mesh (double, compensated summation about the
// bounds centre); InvalidMesh when the mesh is not a closed oriented 2-manifold.
Result<double> solidVolume(const WorldMesh& world);

}  // namespace vkc::reference
