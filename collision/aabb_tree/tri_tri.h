// Triangle-triangle intersection on the CPU: the same Guigue-Devillers text the GPU compiles
// (shaders_glsl/shared/tri_tri.h), so CPU and GPU agree bit for bit on the same float inputs.
// Inputs: two triangles in one space. Output: whether the closed triangles share a point.
// Tolerance policy (see the shared header): each orientation determinant within
// kTriTriEpsilon of its magnitude bound counts as zero = touching, and touching intersects.
#pragma once

#include <glm/vec3.hpp>

namespace vkc {

// True when the closed triangles (p1, q1, r1) and (p2, q2, r2) intersect. Coplanar pairs use a
// closed 2D test; degenerate triangles (zero normal within tolerance) never intersect.
// Agrees with an exact test whenever no orientation determinant of four of the six points is
// within kTriTriEpsilon of zero relative to its terms (tests/aabb_tree checks this).
bool triTriIntersect(const glm::vec3& p1, const glm::vec3& q1, const glm::vec3& r1,
                     const glm::vec3& p2, const glm::vec3& q2, const glm::vec3& r2);

}  // namespace vkc
