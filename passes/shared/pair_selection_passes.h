// Of a frame's candidate pairs with a verdict each (the method's own test, written on the GPU),
// the first maxPairs accepted pairs in (a, b) order, as graph passes over many workgroups
// (pair_select_*.comp, steps in shaders_glsl/shared/pair_selection.h): what ldi's and ebpi's
// GPU-driven frames test. (One workgroup had walked the list in order: 9.6 and 18.5 ms of ldi's
// and ebpi's set-up for 137,422 candidates on lavapipe, one core of two idle.)
#pragma once

#include "passes/graph/graph.h"
#include "passes/shared/prefix_scan_passes.h"
#include "shaders_glsl/shared/pair_selection.h"
#include "vk/pipeline.h"

#include <algorithm>
#include <string>

namespace vkc {

struct PairSelectionPipelines {
    Pipeline count, cut, group, pick, sort;
};

// The one layout of the five pipelines.
extern const PipelineLayoutDesc kPairSelectionLayout;

Result<PairSelectionPipelines> createPairSelectionPipelines(VulkanContext& ctx);
// Safe on a default-constructed one; resets it.
void destroyPairSelectionPipelines(VulkanContext& ctx, PairSelectionPipelines& pipelines);

// Buffer sizes: per-object starts and ranks (objectCount uints each, with their scans' block
// sums), the state, and the selected pairs (unordered, then sorted at maxPairs).
inline VkDeviceSize pairSelectionObjectBytes(uint32_t objectCount) {
    return std::max<VkDeviceSize>(16, VkDeviceSize(objectCount) * 4);
}
inline VkDeviceSize pairSelectionSelectedBytes(uint32_t maxPairs) {
    return std::max<VkDeviceSize>(16, VkDeviceSize(maxPairs) * 2 * 2 * sizeof(uint32_t));
}
// Where the sorted pairs start in the selected buffer.
inline VkDeviceSize pairSelectionSortedOffset(uint32_t maxPairs) { return VkDeviceSize(maxPairs) * 2 * sizeof(uint32_t); }

struct PairSelectionInputs {
    const PairSelectionPipelines* pipelines = nullptr;
    const PrefixScanPipelines* scan = nullptr;
    VkDescriptorSet set = VK_NULL_HANDLE;            // kPairSelectionLayout, the buffers below
    VkDescriptorSet startsScanSet = VK_NULL_HANDLE;  // kPrefixScanLayout: starts, startSums
    VkDescriptorSet ranksScanSet = VK_NULL_HANDLE;   // kPrefixScanLayout: ranks, rankSums
    uint32_t candidateCapacity = 0;  // entries the candidate list and the verdicts hold
    uint32_t objectCount = 0;
    uint32_t maxPairs = 0;
    uint32_t maxGroups = 65535;  // maxComputeWorkGroupCount[0]: wider grids loop
    std::string label;           // the passes' names: "<label>-count", ...
    BufferHandle candidates, verdicts;  // read
    // Written: pairSelectionObjectBytes(objectCount) each, with prefixScanBlockSumsBytes sums;
    // the state (PairSelectionStateGpu); pairSelectionSelectedBytes(maxPairs).
    BufferHandle starts, startSums, ranks, rankSums, state, selected;
};

// The versions later passes read: the state, and the sorted pairs from
// pairSelectionSortedOffset(maxPairs) on (state.selected of them).
struct PairSelectionOutputs {
    BufferHandle state, selected;
};

PairSelectionOutputs addPairSelectionPasses(Graph& graph, const PairSelectionInputs& inputs);

}  // namespace vkc
