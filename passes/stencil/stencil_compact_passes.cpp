// Stencil method, results on the GPU (paper 1, sections 5 and 6.2): per view a scan of the id
// images into the candidates' flags and the world-space point list; after all views a compaction
// of the flags into unique pairs over the candidate pairs (those with no flag: the unfound list);
// then one copy into the ring slot.
// Reads: id images A/B, candidates and their slots. Writes: candidate flags, points, object flags,
// pairs, the ring slot.
// Where the paper read the colour buffer back and parsed it on the CPU (~1 ms for 256^2 in 2003,
// section 6.1), only the compact lists cross to the host, copied into a mapped ring.
// Invariant: list counts are exact; at most `capacity` entries are stored.
#include "passes/stencil/stencil_passes.h"


#include <volk.h>

namespace vkc {

const PipelineLayoutDesc kStencilDrawLayout = {
    {{0, gpu::kStencilBindingObjects, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kStencilBindingNormals, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kStencilBindingFrame, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingVertexBuffers, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kVariableDescriptorCount}},
    sizeof(gpu::StencilDrawPush)};
const PipelineLayoutDesc kStencilFullscreenLayout = {{}, 0};
const PipelineLayoutDesc kStencilNormalsLayout = {
    {{0, gpu::kStencilBindingTopology, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kStencilBindingNormals, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingVertexBuffers, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kVariableDescriptorCount}},
    sizeof(gpu::StencilNormalsPush)};
const PipelineLayoutDesc kStencilScanLayout = {
    {{0, gpu::kStencilBindingPenetratingImage, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1},
     {0, gpu::kStencilBindingPenetratedImage, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1},
     {0, gpu::kStencilBindingPairFlags, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kStencilBindingCandidates, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kStencilBindingCandidateSlots, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kStencilBindingPoints, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kStencilBindingFrame, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kStencilBindingObjectFlags, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}},
    sizeof(gpu::StencilScanPush)};
const PipelineLayoutDesc kStencilCompactLayout = {
    {{0, gpu::kStencilBindingCandidates, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kStencilBindingCandidateSlots, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kStencilBindingPairFlags, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kStencilBindingPairs, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kStencilBindingUnfound, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}},
    sizeof(gpu::StencilCompactPush)};

void addStencilScanPass(Graph& graph, const StencilPassInputs& in, uint32_t view, StencilGraphState& state) {
    PassBuilder scan = graph.addPass("stencil-scan");
    scan.read(state.penetratingImage, Access::ComputeRead);
    scan.read(state.penetratedImage, Access::ComputeRead);
    scan.read(state.frame, Access::ComputeRead);
    scan.read(in.candidates, Access::ComputeRead);
    scan.read(state.candidateSlots, Access::ComputeRead);
    state.pairFlags = scan.write(state.pairFlags, Access::ComputeReadWrite);
    state.points = scan.write(state.points, Access::ComputeReadWrite);
    state.objectFlags = scan.write(state.objectFlags, Access::ComputeReadWrite);
    const Pipeline* pipeline = in.pipelines.scan;
    const VkDescriptorSet set = in.scanSet;
    const gpu::StencilScanPush push = {view, in.resolution, in.resolution, candidateSlotCount(in.candidateCount) - 1,
                                       in.pointCapacity};
    const uint32_t groups = (in.resolution + gpu::kStencilScanGroupSize - 1) / gpu::kStencilScanGroupSize;
    scan.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->pipeline);
        r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->layout, 0, 1, &set, 0, nullptr);
        r.device().vkCmdPushConstants(cmd, pipeline->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
        r.device().vkCmdDispatch(cmd, groups, groups, 1);
    });
}

ReadbackLayout stencilReadbackLayout(uint32_t pairCapacity, uint32_t pointCapacity, uint32_t maxObjects, uint32_t views,
                                     VkDeviceSize countsBytes) {
    ReadbackLayout layout;
    layout.add(stencilPairsBytes(pairCapacity));
    layout.add(stencilPointsBytes(pointCapacity));
    layout.add(VkDeviceSize(stencilOcclusionQueries(views)) * sizeof(uint64_t));
    layout.add(countsBytes);
    layout.add(stencilPairsBytes(pairCapacity));
    layout.add(sizeof(gpu::ImageFrameGpu));
    layout.add(VkDeviceSize(maxObjects) * 4);
    layout.add(VkDeviceSize(maxObjects) * 4);
    return layout;
}

void addStencilCompactPasses(Graph& graph, const StencilPassInputs& in, StencilGraphState& state) {
    // Over the stored candidates: the setup wrote the dispatch from their count.
    const CompactedPairs compacted =
        addPairCompactPass(graph, {"stencil-compact", in.pipelines.compact, in.compactSet, in.candidates,
                                   in.candidateCount, in.pairCapacity, in.pairCapacity, state.commands},
                           state.pairFlags, state.pairs, state.unfound);
    state.pairs = compacted.pairs;
    state.unfound = compacted.unfound;

    // The counts exist only with keepImages, and are written only in a frame that draws.
    const VkDeviceSize countsBytes =
        in.counts.valid() && in.objectCount != 0 ? stencilCountsBytes(in.views, in.resolution) : 0;
    const ReadbackCopy copies[] = {{kStencilReadbackPairs, state.pairs, stencilPairsBytes(in.pairCapacity)},
                                   {kStencilReadbackPoints, state.points, stencilPointsBytes(in.pointCapacity)},
                                   {kStencilReadbackCounts, state.counts, countsBytes},
                                   {kStencilReadbackUnfound, state.unfound, stencilPairsBytes(in.pairCapacity)},
                                   {kStencilReadbackFrame, state.frame, sizeof(gpu::ImageFrameGpu)},
                                   {kStencilReadbackDrawn, state.drawn, VkDeviceSize(in.objectCount) * 4},
                                   {kStencilReadbackObjectFlags, state.objectFlags, VkDeviceSize(in.objectCount) * 4}};
    const uint32_t queries = stencilRecordedQueries(in.views, in.objectCount);
    const ReadbackQueries occlusion = {kStencilReadbackOcclusion, in.occlusion, 0, queries};
    addReadbackPass(graph, "stencil-readback", *in.readbackLayout, in.readback, copies, {&occlusion, 1});
}

}  // namespace vkc
