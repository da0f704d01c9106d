// Method `ldi` (paper 2), stage 3 and the frame around the peeling: see ldi_passes.h.
#include "passes/ldi/ldi_passes.h"

#include <volk.h>

namespace vkc {

namespace {

void bindCompute(VkCommandBuffer cmd, const PassResources& r, const LdiPassInputs& in, const Pipeline& pipeline,
                 const gpu::LdiComputePush& push) {
    r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1,
                                       &in.peel.computeSet, 0, nullptr);
    r.device().vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
}

// A pass that samples the peeled LDIs: their layers, per-pixel counts and per-tile stats.
void readPeeledLdis(PassBuilder& pass, const DepthPeelState& state) {
    pass.read(state.layers, Access::ComputeRead);
    pass.read(state.stencilCounts, Access::ComputeRead);
    pass.read(state.stats, Access::ComputeRead);
}

}  // namespace

ReadbackLayout ldiReadbackLayout(uint32_t insideCapacity, uint32_t maxPairs, uint32_t maxTiles, uint32_t resolution,
                                 bool keepImages) {
    ReadbackLayout layout;
    layout.add(ldiInsideBytes(insideCapacity));
    layout.add(VkDeviceSize(maxPairs) * sizeof(gpu::LdiPairResultGpu));
    layout.add(VkDeviceSize(maxTiles) * sizeof(gpu::LdiTileStatsGpu));
    layout.add(keepImages ? VkDeviceSize(maxPairs) * resolution * resolution * sizeof(float) : 0);
    return layout;
}

void addLdiPasses(Graph& graph, const LdiPassInputs& in) {
    const uint32_t tileCount = uint32_t(in.peel.tiles.size());
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
            bindCompute(cmd, r, in, *in.pipelines.volume, push);
            r.device().vkCmdDispatch(cmd, ldiVolumeGroups(in.peel.resolution), in.pairCount, 1);
        });

        PassBuilder sum = graph.addPass("ldi-volume-sum");
        sum.read(partials, Access::ComputeRead);
        pairResults = sum.write(pairResults, Access::ComputeReadWrite);
        sum.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            gpu::LdiComputePush push = base;
            push.pairCount = in.pairCount;
            bindCompute(cmd, r, in, *in.pipelines.volumeSum, push);
            r.device().vkCmdDispatch(cmd, in.pairCount, 1, 1);
        });
    }

    if (in.pairCount != 0 && in.boundFromDrawn) {
        PassBuilder drawnBound = graph.addPass("ldi-drawn-bound");
        drawnBound.read(in.peel.tileBuffer, Access::ComputeRead);
        drawnBound.read(in.peel.indices, Access::ComputeRead);
        for (BufferHandle vertices : in.peel.meshVertices) drawnBound.read(vertices, Access::ComputeRead);
        pairResults = drawnBound.write(pairResults, Access::ComputeReadWrite);
        drawnBound.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            gpu::LdiComputePush push = base;
            push.pairCount = in.pairCount;
            bindCompute(cmd, r, in, *in.pipelines.drawnBound, push);
            r.device().vkCmdDispatch(cmd, 2 * in.pairCount, 1, 1);  // one workgroup per tile
        });
    }

    if (!in.pointTests.empty()) {
        PassBuilder points = graph.addPass("ldi-points");
        for (BufferHandle vertices : in.peel.meshVertices) points.read(vertices, Access::ComputeRead);
        readPeeledLdis(points, state);
        pairResults = points.write(pairResults, Access::ComputeReadWrite);
        inside = points.write(inside, Access::ComputeReadWrite);
        points.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            // Tests of different tiles and sides only add to counters: no barrier between dispatches.
            for (const LdiPointTest& test : in.pointTests) {
                gpu::LdiComputePush push = base;
                push.pointToTexel = test.pointToTexel;
                push.tile = test.tile;
                push.tag = test.tag;
                push.points = test.points;
                bindCompute(cmd, r, in, *in.pipelines.points, push);
                const VkExtent2D grid = ldiDispatchGrid(test.points.count, gpu::kLdiGroupSize, in.peel.maxGroupsX);
                if (test.points.count != 0) r.device().vkCmdDispatch(cmd, grid.width, grid.height, 1);
            }
        });
    }

    const ReadbackCopy copies[] = {
        {kLdiReadbackInside, inside, ldiInsideBytes(in.insideCapacity)},
        {kLdiReadbackPairs, pairResults, VkDeviceSize(in.pairCount) * sizeof(gpu::LdiPairResultGpu)},
        {kLdiReadbackTileStats, state.stats, VkDeviceSize(tileCount) * sizeof(gpu::LdiTileStatsGpu)},
        {kLdiReadbackImages, depthImage, in.readImages ? VkDeviceSize(in.pairCount) * perTile * sizeof(float) : 0}};
    addReadbackPass(graph, "ldi-readback", *in.readbackLayout, in.readback, copies);
}

}  // namespace vkc
