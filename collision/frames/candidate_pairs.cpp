// One frame's candidate pairs; see candidate_pairs.h.
#include "collision/frames/candidate_pairs.h"

#include <algorithm>
#include <string>

namespace vkc {

Result<std::vector<ObjectPair>> frameCandidatePairs(const CandidateLimits& limits, uint32_t objectCount,
                                                    const CandidateSet& candidates) {
    const std::string method = limits.method;
    VKC_TRY(checkObjectCount(limits, objectCount));
    if (candidates.worldBounds.size() < objectCount)
        return makeError(ErrorCode::InvalidArgument, method + ": " + std::to_string(candidates.worldBounds.size()) +
                                                         " world bounds for " + std::to_string(objectCount) + " objects");
    std::vector<ObjectPair> pairs;
    for (ObjectPair pair : candidates.pairs) {
        if (pair.a == pair.b) continue;
        if (pair.b < pair.a) std::swap(pair.a, pair.b);
        if (pair.b >= objectCount)
            return makeError(ErrorCode::InvalidArgument, method + ": candidate pair (" + std::to_string(pair.a) + ", " +
                                                             std::to_string(pair.b) + ") names an unknown object");
        pairs.push_back(pair);
    }
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    VKC_TRY(checkCandidateCount(limits, pairs.size()));
    return pairs;
}

Status checkObjectCount(const CandidateLimits& limits, uint32_t objectCount) {
    if (objectCount <= limits.settings.maxObjects) return Status::success();
    return makeError(ErrorCode::InvalidArgument, std::string(limits.method) + ": the scene has " +
                                                     std::to_string(objectCount) + " objects, more than " +
                                                     limits.settingsName + "::maxObjects (" +
                                                     std::to_string(limits.settings.maxObjects) + ")");
}

Status checkCandidateCount(const CandidateLimits& limits, size_t uniquePairs) {
    if (uniquePairs <= limits.settings.maxCandidatePairs) return Status::success();
    return makeError(ErrorCode::InvalidArgument, std::string(limits.method) + ": " + std::to_string(uniquePairs) +
                                                     " candidate pairs, more than " + limits.settingsName +
                                                     "::maxCandidatePairs (" +
                                                     std::to_string(limits.settings.maxCandidatePairs) + ")");
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
