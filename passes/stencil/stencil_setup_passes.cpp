// Stencil method, frame setup (paper 1): clears the pair-flag matrix, the list headers and the
// drawn flags, resets the frame's occlusion queries, then sets the frame up on the GPU from the
// candidates (stencil_frame_setup.comp: the views fitted where the pairs' boxes overlap, section
// 6.5, and every object's indirect draws) and recomputes every mesh's vertex normals (section 6.3
// offsets edges along them; recomputed per frame so deforming meshes work).
// Reads: candidates and their boxes, objects, topology, mesh vertices. Writes: pair flags, list
// headers, frame, drawn flags, indirect commands, normals.
// Invariant: all occlusion queries of the frame are reset here, outside any rendering.
#include "passes/stencil/stencil_passes.h"

#include <volk.h>

namespace vkc {

namespace {

// The frame's reductions start empty: mins at the largest encoding, maxes at the smallest.
gpu::StencilFrameGpu emptyFrame() {
    gpu::StencilFrameGpu frame = {};
    for (int axis = 0; axis < 3; ++axis) {
        frame.roiMin[axis] = frame.depthMin[axis] = 0xffffffffu;
        frame.roiMax[axis] = frame.depthMax[axis] = 0u;
    }
    return frame;
}

void addFrameSetupPass(Graph& graph, const StencilPassInputs& in, StencilGraphState& state, uint32_t phase) {
    PassBuilder pass = graph.addPass(phase == 0 ? "stencil-frame-candidates" : "stencil-frame-views");
    pass.read(in.objects, Access::ComputeRead);
    if (phase == 0) {
        pass.read(in.candidates, Access::ComputeRead);
        pass.read(in.bounds, Access::ComputeRead);
    } else {
        state.commands = pass.write(state.commands, Access::ComputeWrite);
    }
    state.frame = pass.write(state.frame, Access::ComputeReadWrite);
    state.drawn = pass.write(state.drawn, Access::ComputeReadWrite);
    const Pipeline* pipeline = phase == 0 ? in.pipelines.frameCandidates : in.pipelines.frameViews;
    const VkDescriptorSet set = in.setupSet;
    const gpu::StencilSetupPush push = {in.objectCount, in.candidateCount, in.views, in.resolution,
                                        in.paddingPixels, in.edgeOffsetPixels, 0u, 0u};
    const uint32_t threads = phase == 0 ? in.candidateCount : std::max(1u, in.objectCount);
    pass.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->pipeline);
        r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->layout, 0, 1, &set, 0, nullptr);
        r.device().vkCmdPushConstants(cmd, pipeline->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
        const uint32_t groups = (threads + gpu::kStencilSetupGroupSize - 1) / gpu::kStencilSetupGroupSize;
        if (groups != 0) r.device().vkCmdDispatch(cmd, groups, 1, 1);
    });
}

}  // namespace

void addStencilSetupPasses(Graph& graph, const StencilPassInputs& in, StencilGraphState& state) {
    PassBuilder clear = graph.addPass("stencil-setup");
    state.pairFlags = clear.write(state.pairFlags, Access::TransferDst);
    state.pairs = clear.write(state.pairs, Access::TransferDst);
    state.unfound = clear.write(state.unfound, Access::TransferDst);
    state.points = clear.write(state.points, Access::TransferDst);
    state.frame = clear.write(state.frame, Access::TransferDst);
    state.drawn = clear.write(state.drawn, Access::TransferDst);
    const BufferHandle flags = state.pairFlags, pairs = state.pairs, unfound = state.unfound, points = state.points,
                       frame = state.frame, drawn = state.drawn;
    const VkQueryPool occlusion = in.occlusion;
    const uint32_t objectCount = in.objectCount, pairCapacity = in.pairCapacity, pointCapacity = in.pointCapacity;
    const uint32_t queries = stencilRecordedQueries(in.views, in.objectCount);
    clear.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        const VkDeviceSize flagBytes = stencilPairFlagsBytes(objectCount);
        if (flagBytes != 0) r.device().vkCmdFillBuffer(cmd, r.buffer(flags), r.bufferOffset(flags), flagBytes, 0u);
        r.device().vkCmdFillBuffer(cmd, r.buffer(drawn), r.bufferOffset(drawn), 4 * VkDeviceSize(std::max(1u, objectCount)), 0u);
        const gpu::StencilListHeader pairHeader = {0u, pairCapacity, 0u, 0u};
        const gpu::StencilListHeader pointHeader = {0u, pointCapacity, 0u, 0u};
        const gpu::StencilFrameGpu empty = emptyFrame();
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(pairs), r.bufferOffset(pairs), sizeof(pairHeader), &pairHeader);
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(unfound), r.bufferOffset(unfound), sizeof(pairHeader), &pairHeader);
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(points), r.bufferOffset(points), sizeof(pointHeader), &pointHeader);
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(frame), r.bufferOffset(frame), sizeof(empty), &empty);
        if (queries != 0) r.device().vkCmdResetQueryPool(cmd, occlusion, 0, queries);
    });
    addFrameSetupPass(graph, in, state, 0);
    addFrameSetupPass(graph, in, state, 1);

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
    state.pairFlags = in.pairFlags;
    state.pairs = in.pairs;
    state.unfound = in.unfound;
    state.points = in.points;
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
