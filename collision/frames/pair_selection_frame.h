// A GPU-driven frame's pair selection (passes/shared/pair_selection_passes.h) as a detector holds
// it: the pipelines once, three descriptor sets per frame slot, the buffers and passes per frame.
// The detector's own pass writes a verdict per candidate between the buffers and the passes.
#pragma once

#include "collision/frames/frame_slot_resources.h"
#include "collision/frames/vulkan_graph.h"
#include "passes/shared/pair_selection_passes.h"

#include <string>

namespace vkc {

struct PairSelectionPrograms {
    PairSelectionPipelines selection;
    PrefixScanPipelines scan;
};

Result<PairSelectionPrograms> createPairSelectionPrograms(VulkanContext& ctx);
// Safe on a default-constructed one.
void destroyPairSelectionPrograms(VulkanContext& ctx, PairSelectionPrograms& programs);

// What a slot's sets take from its detector's descriptor pool.
inline constexpr uint32_t kPairSelectionSets = 3;
inline constexpr uint32_t kPairSelectionStorageBuffers = 6 + 2 * 2;

struct PairSelectionSlot {
    VkDescriptorSet set = VK_NULL_HANDLE, startsScanSet = VK_NULL_HANDLE, ranksScanSet = VK_NULL_HANDLE;
};

Status createPairSelectionSlot(const FrameSlotResources& make, VkDescriptorPool pool,
                               const PairSelectionPrograms& programs, const std::string& method,
                               PairSelectionSlot& slot);

// The frame's buffers; `verdicts` is the detector's to write (a uint per stored candidate,
// kPairRejected / kPairAccepted / kPairOpen).
PairSelectionInputs declarePairSelection(Graph& graph, const PairSelectionPrograms& programs,
                                         const PairSelectionSlot& slot, const std::string& method,
                                         BufferHandle candidates, uint32_t candidateCapacity, uint32_t objectCount,
                                         uint32_t maxPairs, uint32_t maxGroups);

// After compile: the slot's sets pointed at the frame's buffers.
void writePairSelectionDescriptors(const GraphDescriptors& d, const PairSelectionSlot& slot,
                                   const PairSelectionInputs& inputs);

}  // namespace vkc
