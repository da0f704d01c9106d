// Stencil-routed depth peeling into an atlas of LDI tiles (paper 2, §3.2/§4): see
// ldi_peel_passes.h for the passes, their resources and invariants. Where the paper read n_max
// back and looped on the CPU, the GPU writes the layer passes' indirect draws itself.
#include "passes/ldi/ldi_peel_passes.h"

#include "passes/shared/depth_stencil_rendering.h"
#include "passes/shared/stencil_copy_pass.h"

#include <volk.h>

#include <string>

namespace vkc {

const PipelineLayoutDesc kLdiDrawLayout = {
    {{0, gpu::kLdiBindingTiles, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingVertexBuffers, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kVariableDescriptorCount},
     {gpu::kLdiSetTileLayers, gpu::kLdiBindingTileLayers, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1}},
    sizeof(gpu::LdiDrawPush)};
const PipelineLayoutDesc kLdiComputeLayout = {
    {{0, gpu::kLdiBindingTiles, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingVertexBuffers, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kVariableDescriptorCount},
     {0, gpu::kLdiBindingLayers, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiBindingStencilCounts, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiBindingTileStats, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiBindingCommands, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiBindingPairResults, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiBindingDepthImage, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiBindingInsideList, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiBindingVolumePartials, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiBindingIndices, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiBindingPointTests, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiBindingVerticesAcross, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiBindingCornerValences, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}},
    sizeof(gpu::LdiComputePush)};

gpu::LdiComputePush ldiComputePush(uint32_t resolution, uint32_t layerCap, uint32_t tileCount, uint32_t atlasColumns) {
    gpu::LdiComputePush push = {};
    push.resolution = resolution;
    push.layerCap = layerCap;
    push.tileCount = tileCount;
    push.atlasColumns = atlasColumns;
    push.atlasWidth = ldiAtlasExtent(tileCount, atlasColumns, resolution).width;
    return push;
}

namespace {

void dispatchCompute(VkCommandBuffer cmd, const PassResources& r, const DepthPeelInputs& in, const Pipeline& pipeline,
                     const gpu::LdiComputePush& push, uint32_t threads) {
    r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &in.computeSet, 0,
                                       nullptr);
    r.device().vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    const VkExtent2D grid = ldiDispatchGrid(threads, gpu::kLdiGroupSize, in.maxGroupsX);
    if (threads != 0) r.device().vkCmdDispatch(cmd, grid.width, grid.height, 1);
}

// Every tile drawn with stencil reference `layer`, indirectly: from the first draws (layer 0, the
// count pass) or from the commands ldi-indirect wrote. Each draw binds only its (tile, layer) image of the layers
// (dynamic offset), so no two draws of a frame write the same memory, which is also what
// synchronization validation sees.
void drawTiles(VkCommandBuffer cmd, const PassResources& r, const DepthPeelInputs& in, BufferHandle commands,
               uint32_t layer) {
    const uint32_t tileCount = in.tileCount;
    const Pipeline& pipeline = *in.pipelines.peel;
    r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.pipeline);
    r.device().vkCmdBindIndexBuffer(cmd, r.buffer(in.indices), r.bufferOffset(in.indices), VK_INDEX_TYPE_UINT32);
    r.device().vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, layer);
    r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.layout, 0, 1, &in.drawSet, 0,
                                       nullptr);
    // Dynamic offsets are 32-bit: LdiDetector::create refuses settings whose layers pass 2^32 bytes.
    const uint32_t layerBytes = uint32_t(ldiLayerBytes(in.resolution));
    for (uint32_t t = 0; t < tileCount; ++t) {
        const uint32_t x = (t % in.atlasColumns) * in.resolution, y = (t / in.atlasColumns) * in.resolution;
        VkViewport viewport = {float(x), float(y), float(in.resolution), float(in.resolution), 0.0f, 1.0f};
        VkRect2D scissor = {{int32_t(x), int32_t(y)}, {in.resolution, in.resolution}};
        r.device().vkCmdSetViewport(cmd, 0, 1, &viewport);
        r.device().vkCmdSetScissor(cmd, 0, 1, &scissor);
        const uint32_t offset = (t * in.layerCap + layer) * layerBytes;
        r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.layout, gpu::kLdiSetTileLayers,
                                           1, &in.tileLayersSet, 1, &offset);
        gpu::LdiDrawPush push = {t, layer, in.resolution, in.layerCap};
        r.device().vkCmdPushConstants(cmd, pipeline.layout, pipeline.stages, 0, sizeof(push), &push);
        const BufferHandle source = layer == 0 ? in.firstDraws : commands;
        const VkDeviceSize command = layer == 0 ? t : ldiTileDrawCommand(tileCount, layer, t);
        r.device().vkCmdDrawIndexedIndirect(cmd, r.buffer(source),
                                            r.bufferOffset(source) + command * sizeof(VkDrawIndexedIndirectCommand), 1,
                                            sizeof(VkDrawIndexedIndirectCommand));
    }
}

// The atlas's stencil zeroed before layer `layer` by the GPU-written draw of in.pipelines.clear,
// not by a load op, so that a layer the scene does not have costs no clear (issue 14).
void clearStencil(VkCommandBuffer cmd, const PassResources& r, const DepthPeelInputs& in, BufferHandle commands,
                  const VkRect2D& atlas, uint32_t layer) {
    const uint32_t tileCount = in.tileCount;
    r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, in.pipelines.clear->pipeline);
    VkViewport viewport = {0.0f, 0.0f, float(atlas.extent.width), float(atlas.extent.height), 0.0f, 1.0f};
    r.device().vkCmdSetViewport(cmd, 0, 1, &viewport);
    r.device().vkCmdSetScissor(cmd, 0, 1, &atlas);
    const VkDeviceSize clear = ldiClearCommand(in.layerCap, tileCount, layer);
    r.device().vkCmdDrawIndirect(cmd, r.buffer(commands), r.bufferOffset(commands) + clear * sizeof(VkDrawIndexedIndirectCommand),
                                 1, sizeof(VkDrawIndexedIndirectCommand));
}

// The count pass (layer 0, stencil cleared by the load op), or every later layer in one render
// pass: rasterization order keeps each layer's clear after the previous layer's draws, so the
// layers need no barriers between them and a layer no tile has costs two empty draws per tile.
void recordPeel(VkCommandBuffer cmd, const PassResources& r, const DepthPeelInputs& in, ImageHandle depthStencil,
                BufferHandle commands, bool count) {
    DepthStencilRendering rendering;
    rendering.depthStencil = depthStencil;
    // Depth is neither tested nor written.
    rendering.depthLoad = count ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    rendering.stencilLoad = rendering.depthLoad;
    rendering.clear = {1.0f, 0u};
    rendering.area = {{0, 0}, ldiAtlasExtent(in.tileCount, in.atlasColumns, in.resolution)};
    beginDepthStencilRendering(cmd, r, rendering);
    if (count) {
        drawTiles(cmd, r, in, commands, 0);
    } else {
        for (uint32_t layer = 1; layer < in.layerCap; ++layer) {
            clearStencil(cmd, r, in, commands, rendering.area, layer);
            drawTiles(cmd, r, in, commands, layer);
        }
    }
    r.device().vkCmdEndRendering(cmd);
}

void readGeometry(PassBuilder& pass, const DepthPeelInputs& in) {
    pass.read(in.tileBuffer, Access::VertexShaderRead);
    pass.read(in.tileBuffer, Access::FragmentRead);
    pass.read(in.indices, Access::VertexRead);
    for (BufferHandle vertices : in.meshVertices) pass.read(vertices, Access::VertexShaderRead);
}

}  // namespace

void addDepthPeelPasses(Graph& graph, const DepthPeelInputs& in, DepthPeelState& state) {
    const uint32_t tileCount = in.tileCount;
    if (tileCount == 0) return;
    const gpu::LdiComputePush base = ldiComputePush(in.resolution, in.layerCap, tileCount, in.atlasColumns);

    PassBuilder setup = graph.addPass("ldi-peel-setup");
    state.stats = setup.write(state.stats, Access::TransferDst);
    const BufferHandle stats = state.stats;
    setup.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        // Bounds of the invalid region start empty (min = all ones, max = 0).
        std::vector<gpu::LdiTileStatsGpu> reset(tileCount, {0u, 0u, ~0u, ~0u, 0u, 0u, ~0u, 0u});
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(stats), r.bufferOffset(stats),
                                     reset.size() * sizeof(gpu::LdiTileStatsGpu), reset.data());
    });

    PassBuilder count = graph.addPass("ldi-count");
    readGeometry(count, in);
    count.read(in.firstDraws, Access::IndirectRead);
    state.layers = count.write(state.layers, Access::FragmentWrite);
    state.depthStencil = count.write(state.depthStencil, Access::DepthStencilAttachment);
    const ImageHandle countTarget = state.depthStencil;
    count.setRecord([=](VkCommandBuffer cmd, const PassResources& r) { recordPeel(cmd, r, in, countTarget, {}, true); });

    state.stencilCounts = addStencilCopyPass(graph, "ldi-stencil-copy", state.depthStencil, state.stencilCounts, 0,
                                             ldiAtlasExtent(tileCount, in.atlasColumns, in.resolution));

    PassBuilder layerCount = graph.addPass("ldi-layer-count");
    layerCount.read(state.stencilCounts, Access::ComputeRead);
    state.stats = layerCount.write(state.stats, Access::ComputeReadWrite);
    layerCount.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        dispatchCompute(cmd, r, in, *in.pipelines.layerCount, base, tileCount * in.resolution * in.resolution);
    });

    if (in.layerCap > 1) {
        PassBuilder indirect = graph.addPass("ldi-indirect");
        indirect.read(in.tileBuffer, Access::ComputeRead);
        indirect.read(state.stats, Access::ComputeRead);
        state.commands = indirect.write(state.commands, Access::ComputeWrite);
        indirect.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            dispatchCompute(cmd, r, in, *in.pipelines.indirect, base, uint32_t(ldiIndirectCommands(in.layerCap, tileCount)));
        });

        PassBuilder layers = graph.addPass("ldi-layers");
        readGeometry(layers, in);
        layers.read(state.commands, Access::IndirectRead);
        state.layers = layers.write(state.layers, Access::FragmentWrite);
        state.depthStencil = layers.write(state.depthStencil, Access::DepthStencilAttachment);
        const ImageHandle target = state.depthStencil;
        const BufferHandle commands = state.commands;
        layers.setRecord([=](VkCommandBuffer cmd, const PassResources& r) { recordPeel(cmd, r, in, target, commands, false); });
    }

    PassBuilder sort = graph.addPass("ldi-sort");
    sort.read(state.stencilCounts, Access::ComputeRead);
    state.layers = sort.write(state.layers, Access::ComputeReadWrite);
    state.stats = sort.write(state.stats, Access::ComputeReadWrite);
    sort.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        dispatchCompute(cmd, r, in, *in.pipelines.sort, base, tileCount * in.resolution * in.resolution);
    });
}

}  // namespace vkc
