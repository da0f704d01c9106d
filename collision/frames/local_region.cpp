// The local coordinates of an image-space frame; see local_region.h.
#include "collision/frames/local_region.h"

#include "collision/scene/object_transform.h"

#include <glm/common.hpp>

#include <cmath>

namespace vkc {

LocalRegion localRegion(std::span<const Aabb> worldBounds, std::span<const uint32_t> drawn) {
    LocalRegion region;
    if (!drawn.empty()) {
        glm::dvec3 lo(INFINITY), hi(-INFINITY);
        for (uint32_t object : drawn) {
            lo = glm::min(lo, glm::dvec3(worldBounds[object].min));
            hi = glm::max(hi, glm::dvec3(worldBounds[object].max));
        }
        region.origin = 0.5 * (lo + hi);
    }
    region.bounds.reserve(worldBounds.size());
    for (const Aabb& box : worldBounds) {
        Aabb local;
        for (int axis = 0; axis < 3; ++axis) {
            local.min[axis] = floatAtMost(double(box.min[axis]) - region.origin[axis]);
            local.max[axis] = floatAtLeast(double(box.max[axis]) - region.origin[axis]);
        }
        region.bounds.push_back(local);
    }
    return region;
}

glm::vec3 toWorld(const LocalRegion& region, glm::vec3 local) { return glm::vec3(glm::dvec3(local) + region.origin); }

}  // namespace vkc
