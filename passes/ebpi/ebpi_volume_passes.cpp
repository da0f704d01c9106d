// ebpi volume and gradient passes; see ebpi_volume_passes.h. GLSL: ebpi_volume.comp (bindings and
// structs in shaders_glsl/shared/ebpi_volume.h).
#include "passes/ebpi/ebpi_volume_passes.h"

#include "passes/shared/dispatch_groups.h"

#include <volk.h>

#include <algorithm>

namespace vkc {

static_assert(sizeof(gpu::EbpiVolumeRayGpu) == 16);
static_assert(sizeof(gpu::EbpiVolumePairGpu) == 32);
static_assert(sizeof(gpu::EbpiPairVolumeGpu) == 32);
static_assert(sizeof(gpu::EbpiVolumePush) == 24);

namespace {

VkDeviceSize sumsBytes(uint32_t pairCount) {
    return VkDeviceSize(pairCount) * gpu::kEbpiVolumeAxes * sizeof(gpu::EbpiPairVolumeGpu);
}
VkDeviceSize gradientBytes(uint32_t slots) { return VkDeviceSize(slots) * gpu::kEbpiVolumeAxes * 2 * sizeof(uint32_t); }

}  // namespace

PipelineLayoutDesc ebpiVolumePipelineLayout() {
    PipelineLayoutDesc layout;
    for (uint32_t b = gpu::kEbpiVolumeBindingObjects; b <= gpu::kEbpiVolumeBindingRayCount; ++b)
        layout.bindings.push_back({0, b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1u});
    layout.pushConstantSize = sizeof(gpu::EbpiVolumePush);
    return layout;
}

ReadbackLayout ebpiVolumeReadbackLayout(uint32_t pairCount, uint32_t gradientSlots) {
    ReadbackLayout layout;
    layout.add(sumsBytes(pairCount));
    layout.add(gradientBytes(gradientSlots));
    return layout;
}

EbpiVolumeOutputs addEbpiVolumeClearPass(Graph& graph, const EbpiVolumePassInputs& in) {
    PassBuilder clear = graph.addPass(kEbpiVolumeClearPassName);
    const BufferHandle sums = clear.write(in.sums, Access::TransferDst);
    const BufferHandle gradients = clear.write(in.gradients, Access::TransferDst);
    clear.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        if (in.pairCount != 0)
            r.device().vkCmdFillBuffer(cmd, r.buffer(sums), r.bufferOffset(sums), sumsBytes(in.pairCount), 0u);
        if (in.gradientSlots != 0)
            r.device().vkCmdFillBuffer(cmd, r.buffer(gradients), r.bufferOffset(gradients),
                                       gradientBytes(in.gradientSlots), 0u);
    });
    return {sums, gradients};
}

EbpiVolumeOutputs addEbpiVolumeChunkPass(Graph& graph, const EbpiVolumePassInputs& in, const EbpiVolumeOutputs& summed,
                                         BufferHandle rayHits, BufferHandle hits, uint32_t firstRay) {
    PassBuilder volume = graph.addPass(kEbpiVolumePassName);
    for (BufferHandle b : {in.objects, in.indices, in.rayInfos, rayHits, hits, in.pairs}) volume.read(b, Access::ComputeRead);
    if (in.rayCounters.valid()) {
        volume.read(in.rayCounters, Access::IndirectRead);
        volume.read(in.rayCounters, Access::ComputeRead);
    }
    const BufferHandle sums = volume.write(summed.sums, Access::ComputeReadWrite);
    const BufferHandle gradients = volume.write(summed.gradients, Access::ComputeReadWrite);
    volume.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        const uint32_t chunkRays = in.chunkRays == 0 ? in.rayCount : in.chunkRays;
        const gpu::EbpiVolumePush push{in.rayCount, in.hitCapacity, in.rayCounters.valid() ? 1u : 0u, firstRay, chunkRays, 0};
        const Pipeline& pipeline = *in.volumePipeline;
        r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
        r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &in.set, 0,
                                           nullptr);
        r.device().vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
        if (in.rayCounters.valid()) {  // the scan's dispatch, capped at kEbpiRayMaxGroups
            r.device().vkCmdDispatchIndirect(cmd, r.buffer(in.rayCounters), r.bufferOffset(in.rayCounters));
            return;
        }
        // At most maxGroups groups: the shader loops over the chunk's rays with a grid stride.
        const uint32_t groups = groupsFor(std::min(chunkRays, in.rayCount - std::min(firstRay, in.rayCount)),
                                          gpu::kEbpiVolumeGroupSize);
        if (groups != 0)
            r.device().vkCmdDispatch(cmd, in.maxGroups == 0 ? groups : std::min(groups, in.maxGroups), 1, 1);
    });
    return {sums, gradients};
}

Result<EbpiVolumeOutputs> addEbpiVolumePasses(Graph& graph, const EbpiVolumePassInputs& in) {
    if (uint64_t(in.rayCount) * in.hitCapacity > gpu::kEbpiVolumeMaxContributions)
        return makeError(ErrorCode::InvalidArgument, "ebpi volume: rays x hit capacity exceeds 2^26 per frame");
    EbpiVolumeOutputs summed = addEbpiVolumeClearPass(graph, in);
    summed = addEbpiVolumeChunkPass(graph, in, summed, in.rayHits, in.hits, 0);
    if (in.readback.valid()) {
        const ReadbackCopy copies[] = {{kEbpiVolumeReadbackSums, summed.sums, sumsBytes(in.pairCount)},
                                       {kEbpiVolumeReadbackGradients, summed.gradients, gradientBytes(in.gradientSlots)}};
        addReadbackPass(graph, kEbpiVolumeReadbackPassName, *in.readbackLayout, in.readback, copies);
    }
    return summed;
}

}  // namespace vkc
