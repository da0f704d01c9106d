// Broadphase passes; see broadphase_passes.h. GLSL: broadphase_bounds.comp, broadphase_pairs.comp.
#include "passes/broadphase/broadphase_passes.h"

#include <volk.h>

#include <algorithm>

namespace vkc {

const PipelineLayoutDesc kBroadphaseBoundsLayout = {
    {{0, gpu::kBindingObjects, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingBounds, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingVertexBuffers, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kVariableDescriptorCount}},
    sizeof(gpu::BroadphasePush)};
const PipelineLayoutDesc kBroadphasePairsLayout = {
    {{0, gpu::kBindingBounds, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingPairs, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}},
    sizeof(gpu::BroadphasePush)};

static uint32_t groupsFor(uint32_t threads, uint32_t groupSize) { return (threads + groupSize - 1) / groupSize; }

ReadbackLayout broadphaseReadbackLayout(uint32_t maxObjects, uint32_t pairCapacity) {
    ReadbackLayout layout;
    layout.add(broadphaseBoundsBytes(maxObjects));
    layout.add(broadphasePairsBytes(pairCapacity));
    return layout;
}

void addBroadphasePasses(Graph& graph, const BroadphasePassInputs& in) {
    const uint32_t objectCount = in.push.objectCount;
    BufferHandle bounds = in.bounds;
    BufferHandle pairs = in.pairs;

    // Reset: mins to the largest encoded float, maxes to the smallest, the pair count to zero.
    PassBuilder clear = graph.addPass("broadphase-clear");
    bounds = clear.write(bounds, Access::TransferDst);
    pairs = clear.write(pairs, Access::TransferDst);
    clear.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        const VkDeviceSize half = broadphaseBoundsBytes(objectCount) / 2;
        if (half != 0) {  // zero-sized fills are invalid; an empty scene has no bounds
            r.device().vkCmdFillBuffer(cmd, r.buffer(bounds), 0, half, 0xffffffffu);
            r.device().vkCmdFillBuffer(cmd, r.buffer(bounds), half, half, 0u);
        }
        gpu::PairListHeader header = {0u, in.pairCapacity, 0u, 0u};
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(pairs), 0, sizeof(header), &header);
    });

    PassBuilder boundsPass = graph.addPass("broadphase-bounds");
    boundsPass.read(in.objects, Access::ComputeRead);
    for (BufferHandle vertices : in.meshVertices) boundsPass.read(vertices, Access::ComputeRead);
    bounds = boundsPass.write(bounds, Access::ComputeReadWrite);
    boundsPass.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        const Pipeline& pipeline = *in.boundsPipeline;
        r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
        r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &in.boundsSet,
                                           0, nullptr);
        r.device().vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(in.push), &in.push);
        r.device().vkCmdDispatch(cmd, groupsFor(in.maxVertexCount, gpu::kBoundsGroupSize), objectCount, 1);
    });

    PassBuilder pairsPass = graph.addPass("broadphase-pairs");
    pairsPass.read(bounds, Access::ComputeRead);
    pairs = pairsPass.write(pairs, Access::ComputeReadWrite);
    pairsPass.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        if (in.push.pairCount == 0) return;
        const Pipeline& pipeline = *in.pairsPipeline;
        r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
        r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &in.pairsSet,
                                           0, nullptr);
        r.device().vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(in.push), &in.push);
        // The shader loops (grid-stride) when the pair count needs more groups than the device allows.
        r.device().vkCmdDispatch(cmd, std::min(groupsFor(in.push.pairCount, gpu::kPairsGroupSize), in.maxPairGroups),
                                 1, 1);
    });

    // Results go to the mapped ring with a copy, not a host read of device memory (DESIGN.md).
    const ReadbackCopy copies[] = {{kBroadphaseReadbackBounds, bounds, broadphaseBoundsBytes(objectCount)},
                                   {kBroadphaseReadbackPairs, pairs, broadphasePairsBytes(in.pairCapacity)}};
    addReadbackPass(graph, "broadphase-readback", *in.readbackLayout, in.readback, copies);
}

}  // namespace vkc
