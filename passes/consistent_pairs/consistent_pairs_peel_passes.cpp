// Consistent pairs, front-face depth peeling with object ids (paper 3, section 4.1). Reads: geometry,
// the previous front layer. Writes: one front layer per peel (depth bits, object + 1, normal),
// one occlusion query per peel (fragments that passed: the paper's section-5 test).
// Each peel renders into a colour target, then a copy puts it into the layer array. Where the
// paper kept three layers in the channels of three MRT textures, the layers here are the slots of
// one 2D array image indexed per pixel by the later passes: any number of layers per iteration,
// and no descriptor-array indexing of images (an attachment cannot also be a bound storage image).
// The peel's clear is a draw and its copy a dispatch, both indirect with the iteration's own
// commands, so that an iteration the GPU skips clears and copies nothing.
#include "passes/consistent_pairs/consistent_pairs_passes.h"

#include <volk.h>

#include <cstddef>

namespace vkc {

void beginConsistentPairsRendering(VkCommandBuffer cmd, const PassResources& r, const ConsistentPairsPassInputs& in,
                                   ImageHandle depth, bool readOnlyDepth, ImageHandle color) {
    VkRenderingAttachmentInfo depthInfo = {VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    depthInfo.imageView = r.imageView(depth);
    depthInfo.imageLayout = readOnlyDepth ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL
                                          : VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    depthInfo.loadOp = readOnlyDepth ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    // A read-only attachment must not be stored (a write the graph did not declare); STORE_OP_NONE
    // is core in Vulkan 1.3.
    depthInfo.storeOp = readOnlyDepth && in.storeOpNone ? VK_ATTACHMENT_STORE_OP_NONE : VK_ATTACHMENT_STORE_OP_STORE;

    VkRenderingAttachmentInfo colorInfo = {VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    if (color.valid()) {
        colorInfo.imageView = r.imageView(color);
        colorInfo.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        colorInfo.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
        colorInfo.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    }
    VkRenderingInfo info = {VK_STRUCTURE_TYPE_RENDERING_INFO};
    info.renderArea = {{0, 0}, {in.resolution, in.resolution}};
    info.layerCount = 1;
    info.colorAttachmentCount = color.valid() ? 1 : 0;
    info.pColorAttachments = color.valid() ? &colorInfo : nullptr;
    info.pDepthAttachment = &depthInfo;
    r.device().vkCmdBeginRendering(cmd, &info);
    VkViewport viewport = {0.0f, 0.0f, float(in.resolution), float(in.resolution), 0.0f, 1.0f};
    VkRect2D scissor = {{0, 0}, {in.resolution, in.resolution}};
    r.device().vkCmdSetViewport(cmd, 0, 1, &viewport);
    r.device().vkCmdSetScissor(cmd, 0, 1, &scissor);
}

void readConsistentPairsGeometry(PassBuilder& pass, const ConsistentPairsPassInputs& in,
                                 const ConsistentPairsGraphState& state) {
    pass.read(state.draws, Access::IndirectRead);
    pass.read(in.indices, Access::VertexRead);
    pass.read(in.objects, Access::VertexShaderRead);
    pass.read(in.frame, Access::VertexShaderRead);
    pass.read(in.frame, Access::FragmentRead);
    pass.read(state.view, Access::VertexShaderRead);
    pass.read(state.view, Access::FragmentRead);
    for (BufferHandle vertices : in.meshVertices) pass.read(vertices, Access::VertexShaderRead);
}

void drawConsistentPairsObjects(VkCommandBuffer cmd, const PassResources& r, const ConsistentPairsPassInputs& in,
                                const Pipeline& pipeline, BufferHandle draws, uint32_t iteration,
                                uint32_t windowBase, bool firstLayer) {
    r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.pipeline);
    const VkDescriptorSet sets[2] = {in.geometrySet, in.windowSet};
    r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.layout, 0, 2, sets, 0, nullptr);
    r.device().vkCmdBindIndexBuffer(cmd, r.buffer(in.indices), r.bufferOffset(in.indices), VK_INDEX_TYPE_UINT32);
    // Every object's draw of the iteration at once (in object order, which the peel's ties rely on).
    const gpu::ConsistentPairsDrawPush push = {windowBase, firstLayer ? 1u : 0u, 0u, 0u};
    r.device().vkCmdPushConstants(cmd, pipeline.layout, pipeline.stages, 0, sizeof(push), &push);
    const VkDeviceSize offset = r.bufferOffset(draws) + imageFrameDrawOffset(iteration, 0, in.objectCount);
    r.device().vkCmdDrawIndexedIndirect(cmd, r.buffer(draws), offset, in.objectCount, sizeof(VkDrawIndexedIndirectCommand));
}

void dispatchConsistentPairsImages(VkCommandBuffer cmd, const PassResources& r, const ConsistentPairsPassInputs& in,
                                   const Pipeline& pipeline, BufferHandle iterationCommands, uint32_t iteration,
                                   const gpu::ConsistentPairsImagesPush& push) {
    r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &in.imagesSet, 0,
                                       nullptr);
    r.device().vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    r.device().vkCmdDispatchIndirect(cmd, r.buffer(iterationCommands),
                                     r.bufferOffset(iterationCommands) + iteration * sizeof(gpu::ConsistentPairsIterationGpu) +
                                         offsetof(gpu::ConsistentPairsIterationGpu, groupsX));
}

void addConsistentPairsPeelPasses(Graph& graph, const ConsistentPairsPassInputs& in, uint32_t iteration,
                                  ConsistentPairsGraphState& state) {
    const uint32_t layers = in.layersPerIteration;
    const uint32_t base = consistentPairsWindowBase(layers, iteration);
    // Later iterations start from the previous one's last layer, already in the array.
    for (uint32_t k = iteration == 0 ? 0 : 1; k < layers; ++k) {
        const uint32_t layer = base + k;
        PassBuilder peel = graph.addPass("consistent-pairs-peel");
        readConsistentPairsGeometry(peel, in, state);
        // The frame's first peel reads nothing, but its set still names the array (kept valid).
        if (layer == 0) peel.bind(state.layers, Access::FragmentRead);
        else peel.read(state.layers, Access::FragmentRead);
        state.depth = peel.write(state.depth, Access::DepthStencilAttachment);
        state.peelTarget = peel.write(state.peelTarget, Access::ColorAttachment);
        peel.read(state.iterationCommands, Access::IndirectRead);
        const ImageHandle depth = state.depth, target = state.peelTarget;
        const BufferHandle draws = state.draws, commands = state.iterationCommands;
        peel.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            beginConsistentPairsRendering(cmd, r, in, depth, false, target);
            // The clear: depth 1 and the background texel (depth 1, no object), if the iteration runs.
            r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, in.pipelines.clear->pipeline);
            r.device().vkCmdDrawIndirect(cmd, r.buffer(commands),
                                         r.bufferOffset(commands) + iteration * sizeof(gpu::ConsistentPairsIterationGpu),
                                         1, sizeof(VkDrawIndirectCommand));
            r.device().vkCmdBeginQuery(cmd, in.occlusion, layer, VK_QUERY_CONTROL_PRECISE_BIT);
            drawConsistentPairsObjects(cmd, r, in, *in.pipelines.peel, draws, iteration, layer, layer == 0);
            r.device().vkCmdEndQuery(cmd, in.occlusion, layer);
            r.device().vkCmdEndRendering(cmd);
        });

        PassBuilder copy = graph.addPass("consistent-pairs-peel-copy");
        copy.read(state.peelTarget, Access::ComputeRead);
        copy.read(state.iterationCommands, Access::IndirectRead);
        // Writes one slot; the others keep the layers peeled before (no barrier discards contents).
        state.layers = copy.write(state.layers, Access::ComputeWrite);
        const BufferHandle copyCommands = state.iterationCommands;
        copy.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            dispatchConsistentPairsImages(cmd, r, in, *in.pipelines.layerCopy, copyCommands, iteration,
                                          {layer % layers, in.resolution, layers, 0u});
        });
    }
}

}  // namespace vkc
