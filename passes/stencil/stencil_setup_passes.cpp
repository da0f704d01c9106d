// Stencil method, frame setup (paper 1): clears the candidates' slots and flags, the object flags
// and the list headers, resets the frame's occlusion queries, then sets the frame up on the GPU
// from the candidates (image_frame_setup_pass.h: the views fitted where the pairs' boxes overlap,
// section 6.5, and every object's indirect draws), fills the candidates' hash slots
// (pair_compact_pass.h) and recomputes every mesh's vertex normals (section 6.3 offsets edges
// along them; recomputed per frame so deforming meshes work).
// Reads: candidates and their boxes, draw ranges, topology, mesh vertices. Writes: candidate slots
// and flags, list headers, frame, drawn flags, indirect commands, normals.
// Invariant: all occlusion queries of the frame are reset here, outside any rendering.
#include "passes/stencil/stencil_passes.h"

#include <volk.h>

namespace vkc {

void addStencilSetupPasses(Graph& graph, const StencilPassInputs& in, StencilGraphState& state) {
    PassBuilder clear = graph.addPass("stencil-setup");
    state.candidateSlots = clear.write(state.candidateSlots, Access::TransferDst);
    state.pairFlags = clear.write(state.pairFlags, Access::TransferDst);
    state.pairs = clear.write(state.pairs, Access::TransferDst);
    state.unfound = clear.write(state.unfound, Access::TransferDst);
    state.points = clear.write(state.points, Access::TransferDst);
    state.objectFlags = clear.write(state.objectFlags, Access::TransferDst);
    const BufferHandle slots = state.candidateSlots, flags = state.pairFlags, pairs = state.pairs,
                       unfound = state.unfound, points = state.points, objectFlags = state.objectFlags;
    const VkQueryPool occlusion = in.occlusion;
    const uint32_t objectCount = in.objectCount, candidateCount = in.candidateCount, pairCapacity = in.pairCapacity,
                   pointCapacity = in.pointCapacity;
    const uint32_t queries = stencilRecordedQueries(in.views, in.objectCount);
    clear.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        r.device().vkCmdFillBuffer(cmd, r.buffer(slots), r.bufferOffset(slots), candidateSlotsBytes(candidateCount), 0u);
        r.device().vkCmdFillBuffer(cmd, r.buffer(flags), r.bufferOffset(flags), candidateFlagsBytes(candidateCount), 0u);
        if (objectCount != 0)
            r.device().vkCmdFillBuffer(cmd, r.buffer(objectFlags), r.bufferOffset(objectFlags), VkDeviceSize(objectCount) * 4, 0u);
        const gpu::StencilListHeader pairHeader = {0u, pairCapacity, 0u, 0u};
        const gpu::StencilListHeader pointHeader = {0u, pointCapacity, 0u, 0u};
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(pairs), r.bufferOffset(pairs), sizeof(pairHeader), &pairHeader);
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(unfound), r.bufferOffset(unfound), sizeof(pairHeader), &pairHeader);
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(points), r.bufferOffset(points), sizeof(pointHeader), &pointHeader);
        if (queries != 0) r.device().vkCmdResetQueryPool(cmd, occlusion, 0, queries);
    });
    ImageFrameSetupInputs setup;
    setup.method = "stencil";
    setup.pipelines = in.pipelines.frameSetup;
    setup.set = in.setupSet;
    setup.push = {in.objectCount, in.candidateCount, in.views, in.resolution, in.paddingPixels,
                  kStencilDrawsPerObject, /*edgeDraws*/ 1, 0u};
    setup.candidates = in.candidates;
    setup.bounds = in.bounds;
    setup.draws = in.draws;
    ImageFrameBuffers frame = {state.frame, state.drawn, state.commands};
    addImageFrameSetupPasses(graph, setup, frame);
    state.frame = frame.frame;
    state.drawn = frame.drawn;
    state.commands = frame.commands;
    // The compaction's dispatch, which the frame setup wrote first in the commands, serves here too.
    state.candidateSlots = addCandidateIndexPass(
        graph, {"stencil-candidate-index", in.pipelines.candidateIndex, in.compactSet, in.candidates, in.candidateCount,
                in.pairCapacity, in.pairCapacity, state.commands},
        state.candidateSlots);

    if (in.normalDispatches.empty()) return;
    PassBuilder normals = graph.addPass("stencil-normals");
    normals.read(in.topology, Access::ComputeRead);
    for (BufferHandle vertices : in.meshVertices) normals.read(vertices, Access::ComputeRead);
    state.normals = normals.write(state.normals, Access::ComputeWrite);
    const Pipeline* pipeline = in.pipelines.normals;
    const VkDescriptorSet set = in.normalsSet;
    const std::vector<gpu::StencilNormalsPush> dispatches = in.normalDispatches;
    normals.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->pipeline);
        r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->layout, 0, 1, &set, 0, nullptr);
        for (const gpu::StencilNormalsPush& push : dispatches) {
            r.device().vkCmdPushConstants(cmd, pipeline->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
            r.device().vkCmdDispatch(cmd, (push.vertices.count + gpu::kStencilNormalsGroupSize - 1) /
                                              gpu::kStencilNormalsGroupSize, 1, 1);
        }
    });
}

void addStencilPasses(Graph& graph, const StencilPassInputs& in) {
    StencilGraphState state;
    state.frame = in.frame;
    state.drawn = in.drawn;
    state.commands = in.commands;
    state.normals = in.normals;
    state.candidateSlots = in.candidateSlots;
    state.pairFlags = in.pairFlags;
    state.pairs = in.pairs;
    state.unfound = in.unfound;
    state.points = in.points;
    state.objectFlags = in.objectFlags;
    state.depthStencil = in.depthStencil;
    state.penetratingImage = in.penetratingImage;
    state.penetratedImage = in.penetratedImage;
    state.counts = in.counts;
    addStencilSetupPasses(graph, in, state);
    if (in.objectCount != 0) {
        for (uint32_t view = 0; view < in.views; ++view) {
            addStencilCountPasses(graph, in, view, state);
            addStencilIdentifyPasses(graph, in, view, state);
            addStencilScanPass(graph, in, view, state);
        }
    }
    addStencilCompactPasses(graph, in, state);
}

}  // namespace vkc
