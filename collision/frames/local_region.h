// The coordinates an image-space frame renders in: world minus an origin at the centre of the
// objects it draws. Transforms are rebased in double before they go to the GPU in float (as
// renderers rebase the camera), so a frame's precision follows the size of its region, not the
// region's distance from the world origin; decoded points get the origin back.
#pragma once

#include "vkcollide/broadphase.h"

#include <glm/vec3.hpp>

#include <span>
#include <vector>

namespace vkc {

struct LocalRegion {
    glm::dvec3 origin{0.0};
    std::vector<Aabb> bounds;  // every object's world box minus origin, rounded outward (same indices)
};

// Origin: the centre of the union of the boxes of `drawn`; (0, 0, 0) when nothing is drawn.
LocalRegion localRegion(std::span<const Aabb> worldBounds, std::span<const uint32_t> drawn);

// A point of the region back in world space.
glm::vec3 toWorld(const LocalRegion& region, glm::vec3 local);

}  // namespace vkc
