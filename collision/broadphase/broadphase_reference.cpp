// CPU reference broadphase: the same rules as broadphase_bounds.comp / broadphase_pairs.comp.
#include "collision/broadphase/broadphase_reference.h"

#include <glm/common.hpp>

namespace vkc {

Aabb worldBounds(const MeshData& mesh, const glm::dmat4& objectToWorld) {
    glm::dvec3 lo(INFINITY), hi(-INFINITY);
    for (const glm::vec3& p : mesh.positions) {
        const glm::dvec3 world(objectToWorld * glm::dvec4(glm::dvec3(p), 1.0));
        lo = glm::min(lo, world);
        hi = glm::max(hi, world);
    }
    return {glm::vec3(lo), glm::vec3(hi)};
}

static bool overlaps(const Aabb& x, const Aabb& y, float margin) {
    for (int axis = 0; axis < 3; ++axis) {
        if (x.min[axis] - margin > y.max[axis] + margin) return false;
        if (y.min[axis] - margin > x.max[axis] + margin) return false;
    }
    return true;
}

std::vector<ObjectPair> overlappingPairs(std::span<const Aabb> bounds, float margin) {
    std::vector<ObjectPair> pairs;
    for (uint32_t a = 0; a < bounds.size(); ++a)
        for (uint32_t b = a + 1; b < bounds.size(); ++b)
            if (overlaps(bounds[a], bounds[b], margin)) pairs.push_back({a, b});
    return pairs;
}

}  // namespace vkc
