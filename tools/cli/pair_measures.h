// What the harness measures of a candidate pair from the broadphase's world boxes, to size a
// tolerance or a floor to the pair: the cube of its smaller object's size, its boxes' overlap.
#pragma once

#include "vkcollide/broadphase.h"

#include <algorithm>
#include <cstdint>

namespace vkc::tools {

// The larger side of the smaller of the pair's world boxes, cubed.
inline double smallerObjectSizeCubed(const BroadphaseResults& pcs, uint32_t a, uint32_t b) {
    auto largestSide = [&](uint32_t object) {
        const Aabb& box = pcs.worldBounds[object];
        return std::max({double(box.max.x) - box.min.x, double(box.max.y) - box.min.y, double(box.max.z) - box.min.z});
    };
    const double size = std::min(largestSide(a), largestSide(b));
    return size * size * size;
}

// The volume of the overlap of the pair's world boxes (0 when they only touch).
inline double boxOverlapVolume(const BroadphaseResults& pcs, const ObjectPair& pair) {
    const Aabb& x = pcs.worldBounds[pair.a];
    const Aabb& y = pcs.worldBounds[pair.b];
    double volume = 1.0;
    for (int axis = 0; axis < 3; ++axis)
        volume *= std::max(0.0, double(std::min(x.max[axis], y.max[axis])) - std::max(x.min[axis], y.min[axis]));
    return volume;
}

}  // namespace vkc::tools
