// CPU reference broadphase: the same rules as broadphase_bounds.comp / broadphase_pairs.comp.
#include "collision/broadphase/broadphase_reference.h"

#include <glm/common.hpp>

#include <algorithm>

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

static bool hasVolume(const Aabb& box) {
    return box.min.x <= box.max.x && box.min.y <= box.max.y && box.min.z <= box.max.z;  // false for NaN
}

// The test on boxes that have a volume.
static bool overlaps(const Aabb& x, const Aabb& y, float margin) {
    for (int axis = 0; axis < 3; ++axis) {
        if (x.min[axis] - margin > y.max[axis] + margin) return false;
        if (y.min[axis] - margin > x.max[axis] + margin) return false;
    }
    return true;
}

bool boxesOverlap(const Aabb& x, const Aabb& y, float margin) {
    return hasVolume(x) && hasVolume(y) && overlaps(x, y, margin);
}

// Sweep along x: with objects ordered by their grown minimum, the objects whose grown x interval
// meets object i's are the ones after it up to the first whose minimum passes i's grown maximum
// (each grown box has min <= max, so the other half of the x test holds); every pair the rule
// accepts is met once, from its object earlier in that order.
std::vector<ObjectPair> overlappingPairs(std::span<const Aabb> bounds, float margin) {
    std::vector<uint32_t> order;
    for (uint32_t i = 0; i < bounds.size(); ++i)
        if (hasVolume(bounds[i])) order.push_back(i);
    auto grownMinX = [&](uint32_t i) { return bounds[i].min.x - margin; };
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return grownMinX(a) < grownMinX(b); });
    std::vector<ObjectPair> pairs;
    for (size_t i = 0; i < order.size(); ++i) {
        const float grownMaxX = bounds[order[i]].max.x + margin;
        for (size_t j = i + 1; j < order.size() && grownMinX(order[j]) <= grownMaxX; ++j)
            if (overlaps(bounds[order[i]], bounds[order[j]], margin))
                pairs.push_back({std::min(order[i], order[j]), std::max(order[i], order[j])});
    }
    std::sort(pairs.begin(), pairs.end());
    return pairs;
}

}  // namespace vkc
