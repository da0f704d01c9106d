// CPU reference of the GPU broadphase: world AABBs from transformed vertices and every object pair
// whose boxes overlap. Tests compare the GPU passes with it; tools use it when no device is needed.
#pragma once

#include "vkcollide/broadphase.h"
#include "vkcollide/mesh.h"

#include <glm/mat4x4.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace vkc {

// World AABB of `mesh` under `objectToWorld`, from every vertex transformed in double and rounded
// to the nearest float.
Aabb worldBounds(const MeshData& mesh, const glm::dmat4& objectToWorld);

// Whether two boxes, each grown by `margin` world units, overlap (closed intervals); a box with
// min > max on some axis, or NaN (an object without vertices), overlaps nothing.
bool boxesOverlap(const Aabb& x, const Aabb& y, float margin);

// Every pair (a < b) whose boxes overlap by boxesOverlap's rule. Sorted by (a, b). A sweep along
// x, so the tests can check a GPU frame of 100,000 objects.
std::vector<ObjectPair> overlappingPairs(std::span<const Aabb> bounds, float margin);

}  // namespace vkc
