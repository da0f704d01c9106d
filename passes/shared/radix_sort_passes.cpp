// GPU radix sort passes; see radix_sort_passes.h.
#include "passes/shared/radix_sort_passes.h"

#include "passes/graph/compute_binding.h"
#include "vk/assign_result.h"

#include "spirv/radix_sort_histogram.comp.h"
#include "spirv/radix_sort_scatter.comp.h"

#include <volk.h>

namespace vkc {

static_assert(gpu::kRadixGroupSize == gpu::kRadixDigits, "the histogram gives each digit one thread");
static_assert(gpu::kRadixBlockSize == gpu::kRadixGroupSize * gpu::kRadixRounds);
static_assert(sizeof(gpu::RadixSortPush) == 16);

const PipelineLayoutDesc kRadixSortLayout = {
    {{0, gpu::kRadixBindingSource, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kRadixBindingDestination, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kRadixBindingHistogram, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}},
    sizeof(gpu::RadixSortPush)};

Result<RadixSortPipelines> createRadixSortPipelines(VulkanContext& ctx) {
    if (ctx.subgroupSize == 0 || ctx.subgroupSize > gpu::kRadixMaxSubgroupSize)
        return makeError(ErrorCode::Unsupported, "the GPU radix sort needs subgroups of 1 to 128 lanes; this device's have " +
                                                     std::to_string(ctx.subgroupSize));
    RadixSortPipelines made;
    // The scatter's workgroup is one subgroup.
    const SpecConstant subgroup[] = {{0, ctx.subgroupSize}};
    auto create = [&](Pipeline& pipeline, std::span<const uint32_t> spirv, const char* name,
                      std::span<const SpecConstant> constants = {}) {
        return assignResult(pipeline, createComputePipeline(ctx, spirv, kRadixSortLayout, constants, name));
    };
    Status status = create(made.histogram, kSpirv_radix_sort_histogram_comp, "radix-sort-histogram");
    if (status.ok()) status = assignResult(made.scan, createPrefixScanPipelines(ctx));
    if (status.ok()) status = create(made.scatter, kSpirv_radix_sort_scatter_comp, "radix-sort-scatter", subgroup);
    if (!status.ok()) {
        destroyRadixSortPipelines(ctx, made);
        return status;
    }
    return made;
}

void destroyRadixSortPipelines(VulkanContext& ctx, RadixSortPipelines& pipelines) {
    destroyPipeline(ctx, pipelines.histogram);
    destroyPrefixScanPipelines(ctx, pipelines.scan);
    destroyPipeline(ctx, pipelines.scatter);
}

static void dispatch(VkCommandBuffer cmd, const PassResources& r, const Pipeline& pipeline, VkDescriptorSet set,
                     const gpu::RadixSortPush& push, uint32_t groups) {
    bindCompute(cmd, r, pipeline, set, push);
    r.device().vkCmdDispatch(cmd, groups, 1, 1);
}

BufferHandle addRadixSortPasses(Graph& graph, const RadixSortInputs& in) {
    BufferHandle buffers[2] = {in.keys, in.scratch};
    BufferHandle histogram = in.histogram;
    BufferHandle blockSums = in.histogramBlockSums;
    const uint32_t blocks = radixSortBlocks(in.count);
    const uint32_t digitPasses = ((in.keyBits + 15) / 16) * 2;
    for (uint32_t pass = 0; pass < digitPasses; ++pass) {
        const uint32_t from = pass % 2, to = 1 - from;
        const VkDescriptorSet set = from == 0 ? in.keysToScratch : in.scratchToKeys;
        const gpu::RadixSortPush push = {in.count, pass * 8, blocks, 0u};
        const std::string suffix = "-" + std::to_string(pass);

        PassBuilder count = graph.addPass(in.label + "-histogram" + suffix);
        count.read(buffers[from], Access::ComputeRead);
        histogram = count.write(histogram, Access::ComputeWrite);
        count.setRecord([=, p = in.pipelines](VkCommandBuffer cmd, const PassResources& r) {
            if (blocks != 0) dispatch(cmd, r, p->histogram, set, push, blocks);
        });

        const ScannedBuffers scanned =
            addPrefixScanPasses(graph, {&in.pipelines->scan, in.histogramScan, radixSortHistogramEntries(in.count),
                                        histogram, blockSums, in.label + "-scan" + suffix});
        histogram = scanned.data;
        blockSums = scanned.blockSums;

        PassBuilder scatter = graph.addPass(in.label + "-scatter" + suffix);
        scatter.read(buffers[from], Access::ComputeRead);
        scatter.read(histogram, Access::ComputeRead);
        buffers[to] = scatter.write(buffers[to], Access::ComputeWrite);
        scatter.setRecord([=, p = in.pipelines](VkCommandBuffer cmd, const PassResources& r) {
            if (blocks != 0) dispatch(cmd, r, p->scatter, set, push, blocks);
        });
    }
    return buffers[0];
}

}  // namespace vkc
