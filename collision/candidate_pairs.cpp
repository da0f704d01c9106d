// One frame's candidate pairs; see candidate_pairs.h.
#include "collision/candidate_pairs.h"

#include <algorithm>
#include <string>

namespace vkc {

Result<std::vector<ObjectPair>> frameCandidatePairs(const CandidateLimits& limits, uint32_t objectCount,
                                                    std::span<const ObjectPair> candidates,
                                                    std::span<const Aabb> worldBounds) {
    const std::string method = limits.method;
    if (limits.maxObjects != 0 && objectCount > limits.maxObjects)
        return makeError(ErrorCode::InvalidArgument, method + ": the scene has " + std::to_string(objectCount) +
                                                         " objects, more than " + limits.settings + "::maxObjects (" +
                                                         std::to_string(limits.maxObjects) + ")");
    if (worldBounds.size() < objectCount)
        return makeError(ErrorCode::InvalidArgument, method + ": " + std::to_string(worldBounds.size()) +
                                                         " world bounds for " + std::to_string(objectCount) + " objects");
    std::vector<ObjectPair> pairs;
    for (ObjectPair pair : candidates) {
        if (pair.a == pair.b) continue;
        if (pair.b < pair.a) std::swap(pair.a, pair.b);
        if (pair.b >= objectCount)
            return makeError(ErrorCode::InvalidArgument, method + ": candidate pair (" + std::to_string(pair.a) + ", " +
                                                             std::to_string(pair.b) + ") names an unknown object");
        pairs.push_back(pair);
    }
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    if (limits.maxCandidatePairs != 0 && pairs.size() > limits.maxCandidatePairs)
        return makeError(ErrorCode::InvalidArgument, method + ": " + std::to_string(pairs.size()) +
                                                         " candidate pairs, more than " + limits.settings +
                                                         "::maxCandidatePairs (" +
                                                         std::to_string(limits.maxCandidatePairs) + ")");
    return pairs;
}

std::vector<uint32_t> objectsOfPairs(std::span<const ObjectPair> pairs) {
    std::vector<uint32_t> objects;
    for (const ObjectPair& pair : pairs) {
        objects.push_back(pair.a);
        objects.push_back(pair.b);
    }
    std::sort(objects.begin(), objects.end());
    objects.erase(std::unique(objects.begin(), objects.end()), objects.end());
    return objects;
}

}  // namespace vkc
