// Method `ldi` (paper 2), stage 3 and the frame around the peeling: see ldi_passes.h.
#include "passes/ldi/ldi_passes.h"

#include "passes/graph/compute_binding.h"

#include <volk.h>

#include <algorithm>
#include <array>

namespace vkc {

namespace {

// A pass that samples the peeled LDIs: their layers, per-pixel counts and per-tile stats.
void readPeeledLdis(PassBuilder& pass, const DepthPeelState& state) {
    pass.read(state.layers, Access::ComputeRead);
    pass.read(state.stencilCounts, Access::ComputeRead);
    pass.read(state.stats, Access::ComputeRead);
}

}  // namespace

const PipelineLayoutDesc kLdiSetupLayout = {
    {{0, gpu::kLdiSetupBindingBounds, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiSetupBindingCandidates, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiSetupBindingSceneObjects, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiSetupBindingParams, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiSetupBindingTiles, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiSetupBindingPointTests, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiSetupBindingPointDispatches, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiSetupBindingFirstDraws, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiSetupBindingPairs, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiSetupBindingVerdicts, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiSetupBindingSelection, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kLdiSetupBindingSelectedPairs, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}},
    0};

LdiPairSetupInputs addLdiPairSetupPass(Graph& graph, const LdiPairSetupInputs& in) {
    LdiPairSetupInputs out = in;
    const std::array<BufferHandle, 4> inputs = {in.bounds, in.candidates, in.sceneObjects, in.params};
    PassBuilder verdicts = graph.addPass("ldi-pair-verdicts");
    for (BufferHandle b : inputs) verdicts.read(b, Access::ComputeRead);
    out.selection.verdicts = verdicts.write(in.selection.verdicts, Access::ComputeWrite);
    const uint32_t groups = std::clamp(
        (in.selection.candidateCapacity + gpu::kLdiSetupGroupSize - 1) / gpu::kLdiSetupGroupSize, 1u,
        in.selection.maxGroups);
    verdicts.setRecord([pipeline = in.verdictsPipeline, set = in.set, groups](VkCommandBuffer cmd, const PassResources& r) {
        bindCompute(cmd, r, *pipeline, set);
        r.device().vkCmdDispatch(cmd, groups, 1, 1);
    });

    const PairSelectionOutputs selected = addPairSelectionPasses(graph, out.selection);
    out.selection.state = selected.state;
    out.selection.selected = selected.selected;

    PassBuilder pass = graph.addPass("ldi-pair-setup");
    for (BufferHandle b : inputs) pass.read(b, Access::ComputeRead);
    pass.read(selected.state, Access::ComputeRead);
    pass.read(selected.selected, Access::ComputeRead);
    out.tiles = pass.write(in.tiles, Access::ComputeWrite);
    out.pointTests = pass.write(in.pointTests, Access::ComputeWrite);
    out.pointDispatches = pass.write(in.pointDispatches, Access::ComputeWrite);
    out.firstDraws = pass.write(in.firstDraws, Access::ComputeWrite);
    out.pairInfos = pass.write(in.pairInfos, Access::ComputeWrite);
    pass.setRecord([pipeline = in.tablesPipeline, set = in.set](VkCommandBuffer cmd, const PassResources& r) {
        bindCompute(cmd, r, *pipeline, set);
        r.device().vkCmdDispatch(cmd, 1, 1, 1);  // a thread per slot
    });
    return out;
}

ReadbackLayout ldiReadbackLayout(uint32_t insideCapacity, uint32_t maxPairs, uint32_t maxTiles, uint32_t resolution,
                                 bool keepImages) {
    ReadbackLayout layout;
    layout.add(ldiInsideBytes(insideCapacity));
    layout.add(VkDeviceSize(maxPairs) * sizeof(gpu::LdiPairResultGpu));
    layout.add(VkDeviceSize(maxTiles) * sizeof(gpu::LdiTileStatsGpu));
    layout.add(ldiPairInfoBytes(maxPairs));
    layout.add(keepImages ? VkDeviceSize(maxPairs) * resolution * resolution * sizeof(float) : 0);
    return layout;
}

void addLdiPasses(Graph& graph, const LdiPassInputs& in) {
    const uint32_t tileCount = in.peel.tileCount;
    const uint32_t perTile = in.peel.resolution * in.peel.resolution;
    BufferHandle pairResults = in.pairResults, inside = in.inside, depthImage = in.depthImage,
                 partials = in.volumePartials;

    PassBuilder setup = graph.addPass("ldi-setup");
    pairResults = setup.write(pairResults, Access::TransferDst);
    inside = setup.write(inside, Access::TransferDst);
    const BufferHandle resultsTarget = pairResults, insideTarget = inside;
    setup.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        const VkDeviceSize pairBytes = std::max<VkDeviceSize>(1, in.pairCount) * sizeof(gpu::LdiPairResultGpu);
        r.device().vkCmdFillBuffer(cmd, r.buffer(resultsTarget), r.bufferOffset(resultsTarget), pairBytes, 0u);
        gpu::LdiListHeader header = {0u, in.insideCapacity, 0u, 0u};
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(insideTarget), r.bufferOffset(insideTarget), sizeof(header), &header);
    });

    DepthPeelInputs peelInputs = in.peel;
    peelInputs.pipelines = in.pipelines.peel;
    DepthPeelState state = {in.peel.layers, in.peel.stencilCounts, in.peel.stats, in.peel.commands,
                            in.peel.depthStencil};
    addDepthPeelPasses(graph, peelInputs, state);
    const gpu::LdiComputePush base = ldiComputePush(in.peel.resolution, in.peel.layerCap, tileCount, in.peel.atlasColumns);

    if (in.pairCount != 0) {
        PassBuilder volume = graph.addPass("ldi-volume");
        volume.read(in.peel.tileBuffer, Access::ComputeRead);
        readPeeledLdis(volume, state);
        depthImage = volume.write(depthImage, Access::ComputeWrite);
        partials = volume.write(partials, Access::ComputeWrite);
        volume.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            gpu::LdiComputePush push = base;
            push.pairCount = in.pairCount;
            bindCompute(cmd, r, *in.pipelines.volume, in.peel.computeSet, push);
            r.device().vkCmdDispatch(cmd, ldiVolumeGroups(in.peel.resolution), in.pairCount, 1);
        });

        PassBuilder sum = graph.addPass("ldi-volume-sum");
        sum.read(partials, Access::ComputeRead);
        pairResults = sum.write(pairResults, Access::ComputeReadWrite);
        sum.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            gpu::LdiComputePush push = base;
            push.pairCount = in.pairCount;
            bindCompute(cmd, r, *in.pipelines.volumeSum, in.peel.computeSet, push);
            r.device().vkCmdDispatch(cmd, in.pairCount, 1, 1);
        });
    }

    if (in.pairCount != 0 && in.boundFromDrawn) {
        PassBuilder drawnBound = graph.addPass("ldi-drawn-bound");
        drawnBound.read(in.peel.tileBuffer, Access::ComputeRead);
        for (BufferHandle topology : {in.peel.indices, in.verticesAcross, in.cornerValences})
            drawnBound.read(topology, Access::ComputeRead);
        for (BufferHandle vertices : in.peel.meshVertices) drawnBound.read(vertices, Access::ComputeRead);
        pairResults = drawnBound.write(pairResults, Access::ComputeReadWrite);
        drawnBound.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            gpu::LdiComputePush push = base;
            push.pairCount = in.pairCount;
            bindCompute(cmd, r, *in.pipelines.drawnBound, in.peel.computeSet, push);
            r.device().vkCmdDispatch(cmd, 2 * in.pairCount, 1, 1);  // one workgroup per tile
        });
    }

    if (in.pointTestCount != 0) {
        PassBuilder points = graph.addPass("ldi-points");
        for (BufferHandle vertices : in.peel.meshVertices) points.read(vertices, Access::ComputeRead);
        readPeeledLdis(points, state);
        points.read(in.pointTests, Access::ComputeRead);
        points.read(in.pointDispatches, Access::IndirectRead);
        pairResults = points.write(pairResults, Access::ComputeReadWrite);
        inside = points.write(inside, Access::ComputeReadWrite);
        const BufferHandle dispatches = in.pointDispatches;
        points.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            // Tests of different tiles and sides only add to counters: no barrier between dispatches.
            for (uint32_t test = 0; test < in.pointTestCount; ++test) {
                gpu::LdiComputePush push = base;
                push.pointTest = test;
                bindCompute(cmd, r, *in.pipelines.points, in.peel.computeSet, push);
                r.device().vkCmdDispatchIndirect(cmd, r.buffer(dispatches),
                                                 r.bufferOffset(dispatches) + test * sizeof(VkDispatchIndirectCommand));
            }
        });
    }

    const ReadbackCopy copies[] = {
        {kLdiReadbackInside, inside, ldiInsideBytes(in.insideCapacity)},
        {kLdiReadbackPairs, pairResults, VkDeviceSize(in.pairCount) * sizeof(gpu::LdiPairResultGpu)},
        {kLdiReadbackTileStats, state.stats, VkDeviceSize(tileCount) * sizeof(gpu::LdiTileStatsGpu)},
        {kLdiReadbackPairInfos, in.pairInfos, ldiPairInfoBytes(in.pairCount)},
        {kLdiReadbackImages, depthImage, in.readImages ? VkDeviceSize(in.pairCount) * perTile * sizeof(float) : 0}};
    addReadbackPass(graph, "ldi-readback", *in.readbackLayout, in.readback, copies);
}

}  // namespace vkc
