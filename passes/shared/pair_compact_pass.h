// The candidates' flags, shared by the stencil and consistent-pairs methods: the hash slots that
// let an image pass find a pair's candidate (candidate_index.comp, before those passes; the slots
// cleared by the frame's setup), and the compaction of the flags, two bits per candidate, into the
// unique colliding pairs (pair_compact.comp; paper 1, section 6.2). Reads: candidate pairs
// (broadphase layout: PairListHeader, then uvec2), flags. Writes: the slots; the pair list
// (StencilListHeader + StencilPairGpu * pairCapacity) and the unfound list (the same,
// unfoundCapacity), whose headers the frame's setup cleared.
// Invariant: the lists' counts are exact; at most their capacities are stored.
#pragma once

#include "passes/graph/graph.h"
#include "vk/buffer.h"
#include "vk/pipeline.h"

#include <algorithm>
#include <bit>

namespace vkc {

// Hash slots for a candidate list of `capacity` entries: a power of two, at least twice as many.
inline uint32_t candidateSlotCount(uint32_t capacity) {
    return std::bit_ceil(std::max<uint32_t>(8, uint32_t(std::min<uint64_t>(2ull * capacity, 1ull << 31))));
}
inline VkDeviceSize candidateSlotsBytes(uint32_t capacity) { return VkDeviceSize(candidateSlotCount(capacity)) * 4; }
// Two bits per candidate.
inline VkDeviceSize candidateFlagsBytes(uint32_t capacity) { return std::max<VkDeviceSize>(16, (VkDeviceSize(capacity) * 2 + 31) / 32 * 4); }

// Sizes of a frame's candidates and its pair and point lists: a base of the stencil and
// consistent-pairs pass inputs, which share them.
struct PairListSizes {
    uint32_t objectCount = 0;     // scene objects
    uint32_t candidateCount = 0;  // entries the candidate list stores at most
    uint32_t pairCapacity = 0;
    uint32_t pointCapacity = 0;
};

struct PairCompactInputs {
    const char* name = nullptr;               // pass label, e.g. "stencil-compact"
    const Pipeline* pipeline = nullptr;       // pair_compact.comp, or candidate_index.comp (same layout)
    VkDescriptorSet set = VK_NULL_HANDLE;     // candidates, their slots and flags, pairs, unfound (stencil bindings)
    BufferHandle candidates;
    uint32_t candidateCapacity = 0;           // entries the candidate list stores at most; 0: nothing recorded
    uint32_t pairCapacity = 0;
    uint32_t unfoundCapacity = 0;
    // Valid: the dispatch's group counts (VkDispatchIndirectCommand at offset 0), written on the GPU
    // from the candidates' count; invalid: groups for candidateCapacity.
    BufferHandle dispatch;
};

// Points the compaction's set (stencil bindings) at a frame slot's buffers.
void writePairCompactDescriptors(const VulkanContext& ctx, VkDescriptorSet set, VkBuffer candidates,
                                 VkBuffer candidateSlots, VkBuffer pairFlags, VkBuffer pairs, VkBuffer unfound);

// Fills the candidates' slots (in.pipeline: candidate_index.comp); returns their new version.
BufferHandle addCandidateIndexPass(Graph& graph, const PairCompactInputs& in, BufferHandle candidateSlots);

struct CompactedPairs {
    BufferHandle pairs, unfound;  // new versions
};
CompactedPairs addPairCompactPass(Graph& graph, const PairCompactInputs& in, BufferHandle pairFlags, BufferHandle pairs,
                                  BufferHandle unfound);

}  // namespace vkc
