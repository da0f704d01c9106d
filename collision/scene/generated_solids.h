// Generated solids for scenes and tests: an axis-aligned box, an icosphere and a torus, centred at
// the origin. Each is closed, edge-manifold and outward oriented (counter-clockwise seen from
// outside), with welded vertices, so checkMesh() passes it for every method.
#pragma once

#include "vkcollide/mesh.h"

#include <glm/vec3.hpp>

#include <cstdint>

namespace vkc::solids {

// Box with edge lengths `size` (all > 0): 8 vertices, 12 triangles. Volume = size.x*size.y*size.z.
MeshData box(glm::vec3 size);

// Icosphere of `radius` (> 0): an icosahedron split 1-to-4 `subdivisions` times (0..kMaxSphereSubdivisions,
// clamped), vertices projected onto the sphere after each split: 20 * 4^subdivisions triangles.
// It is inscribed, so its volume is slightly below 4/3 pi r^3 (-0.86% at 3, -0.054% at 5).
inline constexpr uint32_t kMaxSphereSubdivisions = 8;  // 1.3M triangles; more is a typo, not a request
MeshData sphere(float radius, uint32_t subdivisions);

// Torus around the z axis: ring radius `major`, tube radius `minor` (0 < minor < major), with
// `segments` (>= 3, clamped) quads around the ring and around the tube: 2 * segments^2 triangles.
// Inscribed, volume slightly below 2 pi^2 major minor^2.
MeshData torus(float major, float minor, uint32_t segments);

}  // namespace vkc::solids
