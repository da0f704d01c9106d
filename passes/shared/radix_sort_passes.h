// A stable GPU radix sort of 32-bit keys carrying 32-bit values (radix_sort_{histogram,scatter}.comp
// and the prefix scan), as graph passes: per 8-bit digit a block histogram, its exclusive scan
// (prefix_scan_passes.h) and a stable scatter, ping-ponging between the keys' buffer and a
// scratch buffer of the same size.
// Reads/writes: a sort buffer holds keys[0, count) then values[count, 2 count) (radix_sort.h).
// Invariant: an even number of digit passes, so the sorted keys end where they started.
#pragma once

#include "passes/graph/graph.h"
#include "passes/shared/prefix_scan_passes.h"
#include "shaders_glsl/shared/radix_sort.h"
#include "vk/pipeline.h"

#include <string>

namespace vkc {

struct RadixSortPipelines {
    Pipeline histogram;
    PrefixScanPipelines scan;  // its own layout, kPrefixScanLayout
    Pipeline scatter;
};

// The one layout of the histogram and scatter pipelines (a set made for it binds to both).
extern const PipelineLayoutDesc kRadixSortLayout;

// The scatter's workgroup is one subgroup of the device's reported size, so devices that may run a
// compute shader at another width (Intel's 8/16/32) are outside what it is checked on; Unsupported
// on subgroups of more than 128 lanes (a ballot's).
Result<RadixSortPipelines> createRadixSortPipelines(VulkanContext& ctx);
// Safe on a default-constructed one; resets it.
void destroyRadixSortPipelines(VulkanContext& ctx, RadixSortPipelines& pipelines);

inline uint32_t radixSortBlocks(uint32_t count) { return (count + gpu::kRadixBlockSize - 1) / gpu::kRadixBlockSize; }
inline VkDeviceSize radixSortBufferBytes(uint32_t count) { return std::max<VkDeviceSize>(16, VkDeviceSize(count) * 8); }
inline uint32_t radixSortHistogramEntries(uint32_t count) { return radixSortBlocks(count) * gpu::kRadixDigits; }
inline VkDeviceSize radixSortHistogramBytes(uint32_t count) {
    return std::max<VkDeviceSize>(16, VkDeviceSize(radixSortHistogramEntries(count)) * 4);
}
inline VkDeviceSize radixSortHistogramBlockSumsBytes(uint32_t count) {
    return prefixScanBlockSumsBytes(radixSortHistogramEntries(count));
}

struct RadixSortInputs {
    const RadixSortPipelines* pipelines = nullptr;
    // Sets of kRadixSortLayout: source = keys, destination = scratch; and the other way round.
    VkDescriptorSet keysToScratch = VK_NULL_HANDLE;
    VkDescriptorSet scratchToKeys = VK_NULL_HANDLE;
    VkDescriptorSet histogramScan = VK_NULL_HANDLE;  // kPrefixScanLayout: histogram, histogramBlockSums
    uint32_t count = 0;
    uint32_t keyBits = 32;     // the keys' width: fewer bits, fewer passes (two digits at a time)
    BufferHandle keys;         // radixSortBufferBytes(count)
    BufferHandle scratch;      // radixSortBufferBytes(count)
    BufferHandle histogram;    // radixSortHistogramBytes(count)
    BufferHandle histogramBlockSums;  // radixSortHistogramBlockSumsBytes(count)
    std::string label;         // the passes' names: "<label>-histogram-0", ...
};

// Records the sort; returns the sorted keys' handle (the version later passes read).
BufferHandle addRadixSortPasses(Graph& graph, const RadixSortInputs& inputs);

}  // namespace vkc
