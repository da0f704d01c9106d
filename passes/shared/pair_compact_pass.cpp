// The flag-matrix compaction pass; see pair_compact_pass.h.
#include "passes/shared/pair_compact_pass.h"

#include "shaders_glsl/shared/stencil.h"
#include "vk/descriptors.h"

#include <volk.h>

namespace vkc {

void writePairCompactDescriptors(const VulkanContext& ctx, VkDescriptorSet set, VkBuffer candidates,
                                 VkBuffer pairFlags, VkBuffer pairs) {
    const VkDescriptorType sb = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writeBufferDescriptor(ctx, set, gpu::kStencilBindingCandidates, sb, candidates);
    writeBufferDescriptor(ctx, set, gpu::kStencilBindingPairFlags, sb, pairFlags);
    writeBufferDescriptor(ctx, set, gpu::kStencilBindingPairs, sb, pairs);
}

BufferHandle addPairCompactPass(Graph& graph, const PairCompactInputs& in, BufferHandle pairFlags, BufferHandle pairs) {
    PassBuilder compact = graph.addPass(in.name);
    compact.read(in.candidates, Access::ComputeRead);
    compact.read(pairFlags, Access::ComputeRead);
    BufferHandle compacted = compact.write(pairs, Access::ComputeReadWrite);
    compact.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        if (in.candidateCount == 0) return;
        const Pipeline& pipeline = *in.pipeline;
        gpu::StencilCompactPush push = {in.candidateCount, in.objectCount, in.pairCapacity, 0u};
        r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
        r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &in.set, 0,
                                           nullptr);
        r.device().vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
        r.device().vkCmdDispatch(
            cmd, (in.candidateCount + gpu::kStencilCompactGroupSize - 1) / gpu::kStencilCompactGroupSize, 1, 1);
    });
    return compacted;
}

}  // namespace vkc
