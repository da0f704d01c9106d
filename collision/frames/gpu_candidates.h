// A frame's candidate pairs and world boxes on the GPU, in the broadphase's layout
// (shaders_glsl/shared/broadphase.h: per object an ordered-float box relative to an origin, then a
// pair list whose count is exact past its capacity). The aabb-tree detector's frame reads one (the
// other detectors still take a host CandidateSet directly), from either source:
//   - GPU-driven (the default): the same frame's broadphase buffers, read in place after its passes
//     earlier in the same command buffer, so no box is stale and the CPU never sees them;
//   - host candidates (a CandidateSet): checked, then uploaded in the same layout.
// Invariant: a detector's passes depend only on this layout, never on which source filled it.
#pragma once

#include "collision/frames/candidate_pairs.h"
#include "collision/frames/vulkan_graph.h"
#include "passes/graph/graph.h"

#include <glm/common.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include <cmath>
#include <span>
#include <string>
#include <vector>

namespace vkc {

struct SceneImpl;

// The broadphase's buffers of one recorded frame (broadphase_candidates.h hands them out).
struct GpuCandidates {
    VkBuffer bounds = VK_NULL_HANDLE;  // 6 uints per object: mins, then maxes (broadphase.h)
    VkDeviceSize boundsBytes = 0;
    VkBuffer pairs = VK_NULL_HANDLE;   // PairListHeader, then uvec2 (a < b) per stored pair
    VkDeviceSize pairsBytes = 0;
    glm::dvec3 origin{0.0};            // boxes are world minus this
    uint32_t objectCount = 0;          // objects the boxes were computed for
    uint32_t pairCapacity = 0;         // pairs the list stores at most
};

// The candidates as a detector's graph sees them.
struct CandidateBuffers {
    BufferHandle bounds;
    BufferHandle pairs;
    glm::dvec3 origin{0.0};
    uint32_t objectCount = 0;
    uint32_t pairCapacity = 0;
};

// Imports the broadphase's buffers into `graph`: its passes (compute writes, then a copy out) ran
// earlier in the same command buffer, so the first reader waits for them.
CandidateBuffers importCandidates(Graph& graph, const std::string& method, const GpuCandidates& candidates);

// Host candidates in the same layout, in host-written buffers of `graph`; fill after compile.
struct HostCandidates {
    CandidateBuffers buffers;
    std::vector<uint32_t> bounds;  // encoded as the broadphase writes them
    std::vector<uint32_t> pairs;   // header, then a, b per pair
    std::vector<ObjectPair> checked;  // the host's pairs as frameCandidatePairs returned them; none imported
};

// What a detector's record() was given: the host's candidates, or a broadphase's recorded frame.
struct CandidateSource {
    const CandidateSet* host = nullptr;
    const GpuCandidates* gpu = nullptr;
};

// The frame's candidates in `graph`: the host's checked (frameCandidatePairs' errors) and added
// in host-written buffers, or the broadphase's imported (InvalidArgument when it boxed another
// object count than the scene has, or the scene has more objects than maxObjects).
Result<HostCandidates> addFrameCandidates(Graph& graph, const CandidateLimits& limits, const SceneImpl& scene,
                                          const CandidateSource& source);

// `pairs` as frameCandidatePairs returned them (checked, sorted, unique) and every object's world
// box, relative to the scene's origin (candidateOrigin), rounded outward.
HostCandidates addHostCandidates(Graph& graph, const std::string& method, const SceneImpl& scene,
                                 std::span<const ObjectPair> pairs, std::span<const Aabb> worldBounds);
// `pairs` as a candidate list in the broadphase's layout (header: count, capacity; then a, b per pair).
std::vector<uint32_t> candidateListWords(std::span<const ObjectPair> pairs);

// Nothing for imported candidates.
Status fillHostCandidates(VulkanGraphAllocator& allocator, const Graph& graph, const HostCandidates& candidates);

// The origin the broadphase's boxes are relative to: the centre of the objects' translations, so
// the boxes' precision follows the scene's extent, not its distance from the world origin.
glm::dvec3 candidateOrigin(const SceneImpl& scene);

// candidateOrigin gathered one object at a time, for a loop that visits every object anyway (at
// a million objects a pass of its own over the scene was a tenth of the broadphase's host time).
class CandidateOrigin {
public:
    void add(const glm::dmat4& objectToWorld) {
        const glm::dvec3 translation(objectToWorld[3]);
        lo_ = glm::min(lo_, translation);
        hi_ = glm::max(hi_, translation);
    }
    // (0, 0, 0) when no object was added.
    glm::dvec3 centre() const { return lo_.x <= hi_.x ? 0.5 * (lo_ + hi_) : glm::dvec3(0.0); }

private:
    glm::dvec3 lo_{INFINITY}, hi_{-INFINITY};
};

}  // namespace vkc
