// Method `ebpi` (paper 5, Sec. 3-4): the exact error of sampling a tile with one ray at its centre,
// the quantity the EBPI bounds. In the ray frame a ray's inside length is the sum over the faces
// it meets of sign(n_z) x depth (exits minus entries), so the mesh's volume over a tile is the sum
// over faces of sign(n_z) x the integral of the face's (linear) depth over its projection clipped
// to the tile: area x depth at the clipped polygon's centroid, in closed form.
#pragma once

#include "collision/ebpi/ebpi_ray_mesh.h"
#include "collision/ebpi/ebpi_window.h"

#include <glm/vec2.hpp>

namespace vkc {

// Volume of the part of the closed `mesh` over `rect` (the prism rect x R).
double ebpiVolumeOverRect(const EbpiRayMesh& mesh, const EbpiRect& rect);

// Total inside length of the ray through `point` along +z. The point should not lie on a
// projected edge (there the faces on both sides would count).
double ebpiDepthSpan(const EbpiRayMesh& mesh, const glm::dvec2& point);

// Exact volume over `rect` minus the midpoint rule: area x depth span at the centre.
double ebpiMidpointError(const EbpiRayMesh& mesh, const EbpiRect& rect);

}  // namespace vkc
