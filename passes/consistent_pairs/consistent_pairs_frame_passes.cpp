// Consistent pairs, the frame around the iterations (paper 3, section 5): setup (clear the
// candidates' slots and flags, list headers and stats, with keepImages the per-pixel image; reset
// the peels' occlusion queries; the view and the draws set up on the GPU from the candidates; the
// candidates' hash slots filled), the GPU decision before each iteration (from the second on, copy the previous one's last peel's query result; write the
// iteration's indirect draws and commands), then the compaction of the candidates' flags into unique pairs and
// one copy into the ring slot (the peels' query results included).
// Reads: queries, candidates, flags. Writes: stats, indirect draws, pairs, the ring slot.
// Invariant: list counts are exact; at most `capacity` entries are stored.
#include "passes/consistent_pairs/consistent_pairs_passes.h"
#include "passes/stencil/stencil_passes.h"


#include <volk.h>

#include <algorithm>

namespace vkc {

const PipelineLayoutDesc kConsistentPairsDrawLayout = {
    {{0, gpu::kConsistentPairsBindingObjects, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kConsistentPairsBindingFrame, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kConsistentPairsBindingView, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingVertexBuffers, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kVariableDescriptorCount},
     {1, gpu::kConsistentPairsBindingLayers, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1},
     {1, gpu::kConsistentPairsBindingBackDepth, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1},
     {1, gpu::kConsistentPairsBindingBackId, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1},
     {1, gpu::kConsistentPairsBindingPairFlags, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {1, gpu::kConsistentPairsBindingStats, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {1, gpu::kConsistentPairsBindingPoints, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {1, gpu::kConsistentPairsBindingInconsistentImage, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {1, gpu::kConsistentPairsBindingCandidates, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {1, gpu::kConsistentPairsBindingCandidateSlots, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}},
    sizeof(gpu::ConsistentPairsDrawPush)};
const PipelineLayoutDesc kConsistentPairsDecideLayout = {
    {{0, gpu::kConsistentPairsBindingDecideStats, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kConsistentPairsBindingDraws, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kConsistentPairsBindingDecideView, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kConsistentPairsBindingDecideDrawn, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kConsistentPairsBindingIterations, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}},
    sizeof(gpu::ConsistentPairsDecidePush)};
const PipelineLayoutDesc kConsistentPairsImagesLayout = {
    {{0, gpu::kConsistentPairsBindingPeelTarget, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1},
     {0, gpu::kConsistentPairsBindingLayerArray, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1},
     {0, gpu::kConsistentPairsBindingBackDepthArray, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1},
     {0, gpu::kConsistentPairsBindingBackIdArray, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1}},
    sizeof(gpu::ConsistentPairsImagesPush)};
const PipelineLayoutDesc kConsistentPairsClearLayout = {{}, 0};

static void addSetupPass(Graph& graph, const ConsistentPairsPassInputs& in, ConsistentPairsGraphState& state) {
    PassBuilder setup = graph.addPass("consistent-pairs-setup");
    state.candidateSlots = setup.write(state.candidateSlots, Access::TransferDst);
    state.pairFlags = setup.write(state.pairFlags, Access::TransferDst);
    state.stats = setup.write(state.stats, Access::TransferDst);
    state.pairs = setup.write(state.pairs, Access::TransferDst);
    state.points = setup.write(state.points, Access::TransferDst);
    state.unfound = setup.write(state.unfound, Access::TransferDst);
    const BufferHandle slots = state.candidateSlots, flags = state.pairFlags, stats = state.stats, pairs = state.pairs, points = state.points,
                       unfound = state.unfound;
    setup.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        r.device().vkCmdFillBuffer(cmd, r.buffer(slots), r.bufferOffset(slots), candidateSlotsBytes(in.candidateCount), 0u);
        r.device().vkCmdFillBuffer(cmd, r.buffer(flags), r.bufferOffset(flags), candidateFlagsBytes(in.candidateCount), 0u);
        const gpu::ConsistentPairsStatsGpu initial = {};
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(stats), r.bufferOffset(stats), sizeof(initial), &initial);
        gpu::StencilListHeader pairHeader = {0u, in.pairCapacity, 0u, 0u};
        gpu::StencilListHeader pointHeader = {0u, in.pointCapacity, 0u, 0u};
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(pairs), r.bufferOffset(pairs), sizeof(pairHeader), &pairHeader);
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(points), r.bufferOffset(points), sizeof(pointHeader), &pointHeader);
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(unfound), r.bufferOffset(unfound), sizeof(pairHeader), &pairHeader);
        const uint32_t queries = consistentPairsPeelCount(in.layersPerIteration, in.iterations);
        if (queries != 0) r.device().vkCmdResetQueryPool(cmd, in.occlusion, 0, queries);
    });

    ImageFrameSetupInputs frameSetup;
    frameSetup.method = "consistent-pairs";
    frameSetup.pipelines = in.pipelines.frameSetup;
    frameSetup.set = in.setupSet;
    frameSetup.push = {in.objectCount, in.candidateCount, 1u, in.resolution, in.paddingPixels, in.iterations,
                       /*edgeDraws*/ 0u, 0u};
    frameSetup.candidates = in.candidates;
    frameSetup.bounds = in.bounds;
    frameSetup.draws = in.objectDraws;
    ImageFrameBuffers frame = {state.view, state.drawn, state.draws};
    addImageFrameSetupPasses(graph, frameSetup, frame);
    state.view = frame.frame;
    state.drawn = frame.drawn;
    state.draws = frame.commands;
    // The compaction's dispatch, which the frame setup wrote first in the draws, serves here too.
    state.candidateSlots = addCandidateIndexPass(
        graph, {"consistent-pairs-candidate-index", in.pipelines.candidateIndex, in.compactSet, in.candidates,
                in.candidateCount, in.pairCapacity, in.pairCapacity, state.draws},
        state.candidateSlots);

    if (!in.inconsistentImage.valid()) return;
    PassBuilder clearImage = graph.addPass("consistent-pairs-clear-inconsistent-image");
    state.inconsistentImage = clearImage.write(state.inconsistentImage, Access::TransferDst);
    const BufferHandle image = state.inconsistentImage;
    clearImage.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        r.device().vkCmdFillBuffer(cmd, r.buffer(image), r.bufferOffset(image), consistentPairsImageBytes(in.resolution),
                                   0u);
    });
}

void addConsistentPairsDecidePasses(Graph& graph, const ConsistentPairsPassInputs& in, uint32_t iteration,
                                    ConsistentPairsGraphState& state) {
    if (iteration != 0) {
        PassBuilder copy = graph.addPass("consistent-pairs-query-copy");
        state.stats = copy.write(state.stats, Access::TransferDst);
        const BufferHandle copyStats = state.stats;
        copy.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            const uint32_t previous = iteration - 1;
            const uint32_t query = consistentPairsLastLayer(in.layersPerIteration, previous);
            const VkDeviceSize offset = r.bufferOffset(copyStats) + offsetof(gpu::ConsistentPairsStatsGpu, peelSamples) +
                                        sizeof(uint32_t) * previous;
            // WAIT: the copy waits on the GPU for the peel's query, never on the CPU.
            r.device().vkCmdCopyQueryPoolResults(cmd, in.occlusion, query, 1, r.buffer(copyStats), offset,
                                                 sizeof(uint32_t), VK_QUERY_RESULT_WAIT_BIT);
        });
    }

    PassBuilder decide = graph.addPass("consistent-pairs-decide");
    decide.read(state.view, Access::ComputeRead);
    decide.read(state.drawn, Access::ComputeRead);
    state.stats = decide.write(state.stats, Access::ComputeReadWrite);
    state.draws = decide.write(state.draws, Access::ComputeReadWrite);
    // Each decision writes its own iteration's entry; the earlier ones' stay as they were.
    state.iterationCommands = decide.write(state.iterationCommands, Access::ComputeWrite);
    decide.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        const Pipeline& pipeline = *in.pipelines.decide;
        const uint32_t imageGroups = (in.resolution + gpu::kConsistentPairsImageGroupSize - 1) / gpu::kConsistentPairsImageGroupSize;
        gpu::ConsistentPairsDecidePush push = {iteration, in.objectCount, imageGroups, 0u};
        r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
        r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &in.decideSet, 0,
                                           nullptr);
        r.device().vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
        // At least one workgroup: its first thread writes the iteration's own commands.
        const uint32_t groups = (push.drawCount + gpu::kConsistentPairsDecideGroupSize - 1) / gpu::kConsistentPairsDecideGroupSize;
        r.device().vkCmdDispatch(cmd, std::max(groups, 1u), 1, 1);
    });
}

static void addCompactPasses(Graph& graph, const ConsistentPairsPassInputs& in, ConsistentPairsGraphState& state) {
    // Over the stored candidates: the setup wrote the dispatch from their count.
    const CompactedPairs compacted =
        addPairCompactPass(graph, {"consistent-pairs-compact", in.pipelines.compact, in.compactSet, in.candidates,
                                   in.candidateCount, in.pairCapacity, in.pairCapacity, state.draws},
                           state.pairFlags, state.pairs, state.unfound);
    state.pairs = compacted.pairs;
    state.unfound = compacted.unfound;

    const ReadbackCopy copies[] = {
        {kConsistentPairsReadbackPairs, state.pairs, stencilPairsBytes(in.pairCapacity)},
        {kConsistentPairsReadbackPoints, state.points, consistentPairsPointsBytes(in.pointCapacity)},
        {kConsistentPairsReadbackStats, state.stats, sizeof(gpu::ConsistentPairsStatsGpu)},
        {kConsistentPairsReadbackInconsistentImage, state.inconsistentImage,
         in.inconsistentImage.valid() ? consistentPairsImageBytes(in.resolution) : 0},
        {kConsistentPairsReadbackView, state.view, sizeof(gpu::ImageFrameGpu)},
        {kConsistentPairsReadbackDrawn, state.drawn, VkDeviceSize(in.objectCount) * 4},
        {kConsistentPairsReadbackUnfound, state.unfound, stencilPairsBytes(in.pairCapacity)}};
    // Only a frame with objects records its peels (and so writes their queries).
    const uint32_t peels = in.objectCount == 0 ? 0u : consistentPairsPeelCount(in.layersPerIteration, in.iterations);
    const ReadbackQueries fragments = {kConsistentPairsReadbackPeelFragments, in.occlusion, 0, peels};
    addReadbackPass(graph, "consistent-pairs-readback", *in.readbackLayout, in.readback, copies, {&fragments, 1});
}

ReadbackLayout consistentPairsReadbackLayout(uint32_t pairCapacity, uint32_t pointCapacity, uint32_t peels,
                                             VkDeviceSize imageBytes, uint32_t maxObjects) {
    ReadbackLayout layout;
    layout.add(stencilPairsBytes(pairCapacity));
    layout.add(consistentPairsPointsBytes(pointCapacity));
    layout.add(sizeof(gpu::ConsistentPairsStatsGpu));
    layout.add(VkDeviceSize(peels) * sizeof(uint64_t));
    layout.add(imageBytes);
    layout.add(sizeof(gpu::ImageFrameGpu));
    layout.add(VkDeviceSize(maxObjects) * 4);
    layout.add(stencilPairsBytes(pairCapacity));
    return layout;
}

void addConsistentPairsPasses(Graph& graph, const ConsistentPairsPassInputs& in) {
    ConsistentPairsGraphState state;
    state.view = in.view;
    state.drawn = in.drawn;
    state.draws = in.draws;
    state.iterationCommands = in.iterationCommands;
    state.candidateSlots = in.candidateSlots;
    state.pairFlags = in.pairFlags;
    state.stats = in.stats;
    state.pairs = in.pairs;
    state.points = in.points;
    state.unfound = in.unfound;
    state.depth = in.depth;
    state.peelTarget = in.peelTarget;
    state.layers = in.layers;
    state.backDepth = in.backDepth;
    state.backId = in.backId;
    state.inconsistentImage = in.inconsistentImage;
    addSetupPass(graph, in, state);
    if (in.objectCount != 0) {
        for (uint32_t iteration = 0; iteration < in.iterations; ++iteration) {
            addConsistentPairsDecidePasses(graph, in, iteration, state);
            addConsistentPairsPeelPasses(graph, in, iteration, state);
            addConsistentPairsWindowPasses(graph, in, iteration, state);
        }
    }
    addCompactPasses(graph, in, state);
}

}  // namespace vkc
