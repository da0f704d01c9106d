// Exact intersection volume of two closed solids (ground truth for the `ldi` and `ebpi` methods).
#pragma once

#include "collision/reference/solid_check.h"
#include "collision/reference/world_mesh.h"

#include <vkcollide/mesh.h>
#include <vkcollide/status.h>

#include <glm/mat4x4.hpp>

namespace vkc::reference {

struct VolumeSettings {
    SolidCheckSettings check; // validity checks run on both inputs first (see solid_check.h)
};

// volume(A ∩ B) for two closed, outward-oriented, non-self-intersecting meshes placed in world
// space by their transforms (see world_mesh.h). Method: CGAL exact corefinement
// (PMP::corefine_and_compute_intersection on Surface_mesh<Epeck::Point_3>, so the intersection
// surface is exact), then the enclosed volume of the result summed in double from the exact
// vertices rounded to nearest double (relative error ~1e-15 for well-scaled inputs). Containment
// (one solid inside the other) gives the inner volume; disjoint or only touching solids give 0.
// When the intersection is not a 2-manifold (solids touching along an edge), the volume is
// computed as vol(A) + vol(B) - vol(A ∪ B) instead.
// Errors: InvalidMesh naming the mesh (open, non-manifold, self-intersecting, inward-oriented,
// bad index, NaN); InvalidMesh naming both when corefinement meets a self-intersection;
// Unsupported when neither the intersection nor the union is a 2-manifold or CGAL fails.
Result<double> intersectionVolume(const MeshData& meshA, const glm::dmat4& transformA, const MeshData& meshB,
                                  const glm::dmat4& transformB, const VolumeSettings& settings = {});
Result<double> intersectionVolume(const WorldMesh& a, const WorldMesh& b, const VolumeSettings& settings = {});

// The surface of A ∩ B itself (exact corefinement, vertices rounded to nearest double), closed and
// outward oriented: the exact solid whose depth span ebpi's bound audit integrates. Errors as
// intersectionVolume; Unsupported when the intersection is empty or not a 2-manifold.
Result<WorldMesh> intersectionMesh(const WorldMesh& a, const WorldMesh& b, const VolumeSettings& settings = {});

}  // namespace vkc::reference
