// Compaction of the object-pair flag matrix into the unique colliding pairs, over the candidate
// pairs (pair_compact.comp; paper 1, section 6.2), shared by the stencil and consistent-pairs
// methods. Reads: candidate pairs (broadphase layout: PairListHeader, then uvec2), pair flags
// (objectCount^2 bits). Writes: the pair list (StencilListHeader + StencilPairGpu * pairCapacity)
// and the unfound list (the same, unfoundCapacity), whose headers the frame's setup cleared.
// Invariant: the lists' counts are exact; at most their capacities are stored.
#pragma once

#include "passes/graph/graph.h"
#include "vk/buffer.h"
#include "vk/pipeline.h"

namespace vkc {

// Sizes of a frame's flag matrix and its pair and point lists: a base of the stencil and
// consistent-pairs pass inputs, which share them.
struct PairListSizes {
    uint32_t objectCount = 0;     // scene objects: row length of the flag matrix
    uint32_t candidateCount = 0;  // unique candidate pairs
    uint32_t pairCapacity = 0;
    uint32_t pointCapacity = 0;
};

struct PairCompactInputs {
    const char* name = nullptr;               // pass label, e.g. "stencil-compact"
    const Pipeline* pipeline = nullptr;       // pair_compact.comp
    VkDescriptorSet set = VK_NULL_HANDLE;     // candidates, pair flags, pairs, unfound (stencil bindings)
    BufferHandle candidates;
    uint32_t candidateCapacity = 0;           // entries the candidate list stores at most; 0: nothing recorded
    uint32_t objectCount = 0;                 // row length of the flag matrix
    uint32_t pairCapacity = 0;
    uint32_t unfoundCapacity = 0;
    // Valid: the dispatch's group counts (VkDispatchIndirectCommand at offset 0), written on the GPU
    // from the candidates' count; invalid: groups for candidateCapacity.
    BufferHandle dispatch;
};

// Points the compaction's set (stencil bindings) at a frame slot's buffers.
void writePairCompactDescriptors(const VulkanContext& ctx, VkDescriptorSet set, VkBuffer candidates,
                                 VkBuffer pairFlags, VkBuffer pairs, VkBuffer unfound);

struct CompactedPairs {
    BufferHandle pairs, unfound;  // new versions
};
CompactedPairs addPairCompactPass(Graph& graph, const PairCompactInputs& in, BufferHandle pairFlags, BufferHandle pairs,
                                  BufferHandle unfound);

}  // namespace vkc
