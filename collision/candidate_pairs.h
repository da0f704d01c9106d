// One frame's candidate pairs as an image-space detector tests them: self-pairs dropped, each
// ordered a < b, sorted and unique, after checking them (and the frame's sizes) against the
// detector's settings; and the objects they name, which are the objects the frame draws.
#pragma once

#include "vk/buffer.h"
#include "vkcollide/broadphase.h"

#include <span>
#include <vector>

namespace vkc {

// What a frame is checked against; messages start with `method` and name `settings`' fields.
struct CandidateLimits {
    const char* method = nullptr;    // "stencil"
    const char* settings = nullptr;  // "StencilSettings"
    uint32_t maxObjects = 0;         // 0: not limited
    uint32_t maxCandidatePairs = 0;  // 0: not limited
};

// InvalidArgument when the scene has too many objects, fewer world bounds than objects, a pair
// names an unknown object, or more unique pairs than the limit.
Result<std::vector<ObjectPair>> frameCandidatePairs(const CandidateLimits& limits, uint32_t objectCount,
                                                    std::span<const ObjectPair> candidates,
                                                    std::span<const Aabb> worldBounds);

// Every object of `pairs`, sorted and unique.
std::vector<uint32_t> objectsOfPairs(std::span<const ObjectPair> pairs);

}  // namespace vkc
