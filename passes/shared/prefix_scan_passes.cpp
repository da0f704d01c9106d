// GPU prefix scan passes; see prefix_scan_passes.h.
#include "passes/shared/prefix_scan_passes.h"

#include "passes/graph/compute_binding.h"

#include "spirv/prefix_scan_apply.comp.h"
#include "spirv/prefix_scan_blocks.comp.h"
#include "spirv/prefix_scan_reduce.comp.h"

namespace vkc {

static_assert(gpu::kScanBlockSize == gpu::kScanGroupSize * gpu::kScanPerThread);
static_assert(sizeof(gpu::PrefixScanPush) == 16);

const PipelineLayoutDesc kPrefixScanLayout = {
    {{0, gpu::kScanBindingData, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kScanBindingBlockSums, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}},
    sizeof(gpu::PrefixScanPush)};

Result<PrefixScanPipelines> createPrefixScanPipelines(VulkanContext& ctx) {
    PrefixScanPipelines made;
    const ComputePipelineStep steps[] = {{&made.reduce, kSpirv_prefix_scan_reduce_comp, "prefix-scan-reduce"},
                                         {&made.blocks, kSpirv_prefix_scan_blocks_comp, "prefix-scan-blocks"},
                                         {&made.apply, kSpirv_prefix_scan_apply_comp, "prefix-scan-apply"}};
    VKC_TRY(createComputePipelines(ctx, steps, kPrefixScanLayout));
    return made;
}

void destroyPrefixScanPipelines(VulkanContext& ctx, PrefixScanPipelines& pipelines) {
    destroyPipeline(ctx, pipelines.reduce);
    destroyPipeline(ctx, pipelines.blocks);
    destroyPipeline(ctx, pipelines.apply);
}

ScannedBuffers addPrefixScanPasses(Graph& graph, const PrefixScanInputs& in) {
    const uint32_t blocks = prefixScanBlocks(in.count);
    const gpu::PrefixScanPush push = {in.count, blocks, 0u, 0u};
    // The pipelines are looked at only when the pass records.
    auto step = [&](const char* name, Pipeline PrefixScanPipelines::*pipeline, uint32_t groups) {
        PassBuilder pass = graph.addPass(in.label + name);
        pass.setRecord([pipelines = in.pipelines, pipeline, set = in.set, push, groups](VkCommandBuffer cmd,
                                                                                       const PassResources& r) {
            if (groups == 0) return;
            bindCompute(cmd, r, pipelines->*pipeline, set, push);
            r.device().vkCmdDispatch(cmd, groups, 1, 1);
        });
        return pass;
    };
    BufferHandle sums = in.blockSums;
    if (blocks > 1) {
        PassBuilder reduce = step("-reduce", &PrefixScanPipelines::reduce, blocks);
        reduce.read(in.data, Access::ComputeRead);
        sums = reduce.write(sums, Access::ComputeWrite);
        PassBuilder offsets = step("-blocks", &PrefixScanPipelines::blocks, 1);
        sums = offsets.write(sums, Access::ComputeReadWrite);
    }
    PassBuilder apply = step("-apply", &PrefixScanPipelines::apply, blocks);
    if (blocks > 1) apply.read(sums, Access::ComputeRead);
    return {apply.write(in.data, Access::ComputeReadWrite), sums};
}

}  // namespace vkc
