// The candidates' index and flag compaction passes; see pair_compact_pass.h.
#include "passes/shared/pair_compact_pass.h"

#include "shaders_glsl/shared/image_frame.h"
#include "shaders_glsl/shared/stencil.h"
#include "vk/descriptors.h"

#include <volk.h>

namespace vkc {

// The image-frame setup writes the indirect dispatch in groups of its own size.
static_assert(gpu::kStencilCompactGroupSize == gpu::kImageFrameSetupGroupSize);

void writePairCompactDescriptors(const VulkanContext& ctx, VkDescriptorSet set, VkBuffer candidates,
                                 VkBuffer candidateSlots, VkBuffer pairFlags, VkBuffer pairs, VkBuffer unfound) {
    const VkDescriptorType sb = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writeBufferDescriptor(ctx, set, gpu::kStencilBindingCandidates, sb, candidates);
    writeBufferDescriptor(ctx, set, gpu::kStencilBindingCandidateSlots, sb, candidateSlots);
    writeBufferDescriptor(ctx, set, gpu::kStencilBindingPairFlags, sb, pairFlags);
    writeBufferDescriptor(ctx, set, gpu::kStencilBindingPairs, sb, pairs);
    writeBufferDescriptor(ctx, set, gpu::kStencilBindingUnfound, sb, unfound);
}

namespace {

// One thread per stored candidate, from the setup's indirect dispatch when there is one.
void recordOverCandidates(PassBuilder& pass, const PairCompactInputs& in) {
    const Pipeline* pipeline = in.pipeline;
    const VkDescriptorSet set = in.set;
    const BufferHandle dispatch = in.dispatch;
    const gpu::StencilCompactPush push = {in.candidateCapacity, candidateSlotCount(in.candidateCapacity) - 1,
                                          in.pairCapacity, in.unfoundCapacity};
    pass.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        if (push.candidateCapacity == 0) return;
        r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->pipeline);
        r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->layout, 0, 1, &set, 0, nullptr);
        r.device().vkCmdPushConstants(cmd, pipeline->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
        if (dispatch.valid())
            r.device().vkCmdDispatchIndirect(cmd, r.buffer(dispatch), r.bufferOffset(dispatch));
        else
            r.device().vkCmdDispatch(
                cmd, (push.candidateCapacity + gpu::kStencilCompactGroupSize - 1) / gpu::kStencilCompactGroupSize, 1, 1);
    });
}

}  // namespace

BufferHandle addCandidateIndexPass(Graph& graph, const PairCompactInputs& in, BufferHandle candidateSlots) {
    PassBuilder index = graph.addPass(in.name);
    index.read(in.candidates, Access::ComputeRead);
    if (in.dispatch.valid()) index.read(in.dispatch, Access::IndirectRead);
    const BufferHandle out = index.write(candidateSlots, Access::ComputeReadWrite);
    recordOverCandidates(index, in);
    return out;
}

CompactedPairs addPairCompactPass(Graph& graph, const PairCompactInputs& in, BufferHandle pairFlags, BufferHandle pairs,
                                  BufferHandle unfound) {
    PassBuilder compact = graph.addPass(in.name);
    compact.read(in.candidates, Access::ComputeRead);
    compact.read(pairFlags, Access::ComputeRead);
    if (in.dispatch.valid()) compact.read(in.dispatch, Access::IndirectRead);
    CompactedPairs out{compact.write(pairs, Access::ComputeReadWrite), compact.write(unfound, Access::ComputeReadWrite)};
    recordOverCandidates(compact, in);
    return out;
}

}  // namespace vkc
