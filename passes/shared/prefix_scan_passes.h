// A GPU exclusive prefix scan of uints in place (prefix_scan_{reduce,blocks,apply}.comp), as graph
// passes spread over one workgroup per block of 4,096 values: the broadphase's pair offsets and
// the radix sort's histogram. (A single workgroup walking a million values had taken 8.5 ms on
// an H200, latency-bound; the three steps make it bandwidth-bound.)
// Reads/writes: the data buffer in place, and a block-sums buffer of prefixScanBlockSumsBytes.
#pragma once

#include "passes/graph/graph.h"
#include "shaders_glsl/shared/prefix_scan.h"
#include "vk/pipeline.h"

#include <algorithm>
#include <string>

namespace vkc {

struct PrefixScanPipelines {
    Pipeline reduce;
    Pipeline blocks;
    Pipeline apply;
};

// The one layout of the three pipelines (a set made for it binds to each of them).
extern const PipelineLayoutDesc kPrefixScanLayout;

Result<PrefixScanPipelines> createPrefixScanPipelines(VulkanContext& ctx);
// Safe on a default-constructed one; resets it.
void destroyPrefixScanPipelines(VulkanContext& ctx, PrefixScanPipelines& pipelines);

inline uint32_t prefixScanBlocks(uint32_t count) { return (count + gpu::kScanBlockSize - 1) / gpu::kScanBlockSize; }
inline VkDeviceSize prefixScanBlockSumsBytes(uint32_t count) {
    return std::max<VkDeviceSize>(16, VkDeviceSize(prefixScanBlocks(count)) * 4);
}

struct PrefixScanInputs {
    const PrefixScanPipelines* pipelines = nullptr;
    VkDescriptorSet set = VK_NULL_HANDLE;  // kPrefixScanLayout: data, blockSums
    uint32_t count = 0;
    BufferHandle data;       // count uints, scanned in place
    BufferHandle blockSums;  // prefixScanBlockSumsBytes(count)
    std::string label;       // the passes' names: "<label>-reduce", "<label>-blocks", "<label>-apply"
};

// The versions later passes use.
struct ScannedBuffers {
    BufferHandle data;
    BufferHandle blockSums;
};

// Records the scan.
ScannedBuffers addPrefixScanPasses(Graph& graph, const PrefixScanInputs& inputs);

}  // namespace vkc
