// One frame's candidate pairs as every detector tests them: self-pairs dropped, each ordered
// a < b, sorted and unique, after checking them (and the frame's sizes) against the detector's
// settings, with the wording detector.h documents; and the objects they name (the objects an
// image-space frame draws).
#pragma once

#include "vk/buffer.h"
#include "vkcollide/detector.h"

#include <span>
#include <vector>

namespace vkc {

// What a frame is checked against: the common settings (defaults filled in) of the detector;
// messages start with `method` ("stencil") and name `settingsName`'s fields ("StencilSettings").
struct CandidateLimits {
    const char* method = nullptr;
    const char* settingsName = nullptr;
    const DetectorSettings& settings;
};

// InvalidArgument when the scene has more objects than maxObjects, fewer world bounds than
// objects, a pair names an unknown object, or more unique pairs than maxCandidatePairs.
Result<std::vector<ObjectPair>> frameCandidatePairs(const CandidateLimits& limits, uint32_t objectCount,
                                                    const CandidateSet& candidates);

// InvalidArgument, worded as frameCandidatePairs', when the scene has more objects than maxObjects.
Status checkObjectCount(const CandidateLimits& limits, uint32_t objectCount);
// InvalidArgument, worded as frameCandidatePairs', when `uniquePairs` exceeds maxCandidatePairs.
Status checkCandidateCount(const CandidateLimits& limits, size_t uniquePairs);

// Every object of `pairs`, sorted and unique.
std::vector<uint32_t> objectsOfPairs(std::span<const ObjectPair> pairs);

}  // namespace vkc
