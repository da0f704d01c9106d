// Stencil method, frame setup (paper 1): clears the pair-flag matrix and the list headers, resets
// the frame's occlusion queries, then recomputes every drawn mesh's vertex normals on the GPU
// (section 6.3 offsets edges along them; recomputed per frame so deforming meshes work).
// Reads: topology, mesh vertices. Writes: pair flags, pair/point headers, normals.
// Invariant: all occlusion queries of the frame are reset here, outside any rendering.
#include "passes/stencil/stencil_passes.h"

#include <volk.h>

namespace vkc {

void addStencilSetupPasses(Graph& graph, const StencilPassInputs& in, StencilGraphState& state) {
    PassBuilder clear = graph.addPass("stencil-setup");
    state.pairFlags = clear.write(state.pairFlags, Access::TransferDst);
    state.pairs = clear.write(state.pairs, Access::TransferDst);
    state.points = clear.write(state.points, Access::TransferDst);
    const BufferHandle flags = state.pairFlags, pairs = state.pairs, points = state.points;
    clear.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        const VkDeviceSize flagBytes = stencilPairFlagsBytes(in.objectCount);
        if (flagBytes != 0) r.device().vkCmdFillBuffer(cmd, r.buffer(flags), r.bufferOffset(flags), flagBytes, 0u);
        gpu::StencilListHeader pairHeader = {0u, in.pairCapacity, 0u, 0u};
        gpu::StencilListHeader pointHeader = {0u, in.pointCapacity, 0u, 0u};
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(pairs), r.bufferOffset(pairs), sizeof(pairHeader), &pairHeader);
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(points), r.bufferOffset(points), sizeof(pointHeader), &pointHeader);
        const uint32_t queries = stencilOcclusionQueries(uint32_t(in.views.size()), uint32_t(in.drawObjects.size()));
        if (queries != 0) r.device().vkCmdResetQueryPool(cmd, in.occlusion, 0, queries);
    });

    if (in.normalDispatches.empty()) return;
    PassBuilder normals = graph.addPass("stencil-normals");
    normals.read(in.topology, Access::ComputeRead);
    for (BufferHandle vertices : in.meshVertices) normals.read(vertices, Access::ComputeRead);
    state.normals = normals.write(state.normals, Access::ComputeWrite);
    normals.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        const Pipeline& pipeline = *in.pipelines.normals;
        r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
        r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &in.normalsSet,
                                           0, nullptr);
        for (const gpu::StencilNormalsPush& push : in.normalDispatches) {
            r.device().vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
            r.device().vkCmdDispatch(cmd, (push.vertices.count + gpu::kStencilNormalsGroupSize - 1) /
                                              gpu::kStencilNormalsGroupSize, 1, 1);
        }
    });
}

void addStencilPasses(Graph& graph, const StencilPassInputs& in) {
    StencilGraphState state;
    state.normals = in.normals;
    state.pairFlags = in.pairFlags;
    state.pairs = in.pairs;
    state.points = in.points;
    state.depthStencil = in.depthStencil;
    state.penetratingImage = in.penetratingImage;
    state.penetratedImage = in.penetratedImage;
    state.counts = in.counts;
    addStencilSetupPasses(graph, in, state);
    if (!in.drawObjects.empty()) {
        for (uint32_t view = 0; view < in.views.size(); ++view) {
            addStencilCountPasses(graph, in, view, state);
            addStencilIdentifyPasses(graph, in, view, state);
            addStencilScanPass(graph, in, view, state);
        }
    }
    addStencilCompactPasses(graph, in, state);
}

}  // namespace vkc
