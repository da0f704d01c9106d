// The GPU set-up of an image-space frame; see image_frame_setup_pass.h.
#include "passes/shared/image_frame_setup_pass.h"

#include "vk/assign_result.h"
#include "vk/descriptors.h"

#include "spirv/image_frame_setup.comp.h"

#include <volk.h>

#include <string>

namespace vkc {

static_assert(sizeof(gpu::ImageFrameGpu) == 448 && offsetof(gpu::ImageFrameGpu, worldToClip) == 64 &&
                  sizeof(gpu::ImageObjectDrawGpu) == 32 && sizeof(gpu::ImageFrameSetupPush) == 32,
              "the image frame's structs must match their std430 / push-constant layouts");

const PipelineLayoutDesc kImageFrameSetupLayout = {
    {{0, gpu::kImageFrameBindingCandidates, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kImageFrameBindingBounds, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kImageFrameBindingDraws, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kImageFrameBindingFrame, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kImageFrameBindingDrawn, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kImageFrameBindingCommands, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}},
    sizeof(gpu::ImageFrameSetupPush)};

namespace {

constexpr SpecConstant kCandidatesPhase[] = {{0, 0}};
constexpr SpecConstant kViewsPhase[] = {{0, 1}};

// The reductions start empty: mins at the largest encoding, maxes at the smallest.
gpu::ImageFrameGpu emptyFrame() {
    gpu::ImageFrameGpu frame = {};
    for (int axis = 0; axis < 3; ++axis) {
        frame.roiMin[axis] = frame.depthMin[axis] = 0xffffffffu;
        frame.roiMax[axis] = frame.depthMax[axis] = 0u;
    }
    return frame;
}

void addPhase(Graph& graph, const ImageFrameSetupInputs& in, ImageFrameBuffers& buffers, uint32_t phase) {
    PassBuilder pass = graph.addPass(std::string(in.method) + (phase == 0 ? "-frame-candidates" : "-frame-views"));
    pass.read(in.draws, Access::ComputeRead);
    if (phase == 0) {
        pass.read(in.candidates, Access::ComputeRead);
        pass.read(in.bounds, Access::ComputeRead);
    } else {
        buffers.commands = pass.write(buffers.commands, Access::ComputeWrite);
    }
    buffers.frame = pass.write(buffers.frame, Access::ComputeReadWrite);
    buffers.drawn = pass.write(buffers.drawn, Access::ComputeReadWrite);
    const ImageFramePipelines* pipelines = in.pipelines;
    const VkDescriptorSet set = in.set;
    const gpu::ImageFrameSetupPush push = in.push;
    const uint32_t threads = phase == 0 ? push.candidateCapacity : std::max(1u, push.objectCount);
    pass.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        const Pipeline* pipeline = phase == 0 ? &pipelines->candidates : &pipelines->views;
        r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->pipeline);
        r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->layout, 0, 1, &set, 0, nullptr);
        r.device().vkCmdPushConstants(cmd, pipeline->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
        const uint32_t groups = (threads + gpu::kImageFrameSetupGroupSize - 1) / gpu::kImageFrameSetupGroupSize;
        if (groups != 0) r.device().vkCmdDispatch(cmd, groups, 1, 1);
    });
}

}  // namespace

Status createImageFramePipelines(VulkanContext& ctx, const char* method, ImageFramePipelines& out) {
    VKC_TRY(assignResult(out.candidates, createComputePipeline(ctx, kSpirv_image_frame_setup_comp, kImageFrameSetupLayout,
                                                               kCandidatesPhase,
                                                               (std::string(method) + "-frame-candidates").c_str())));
    return assignResult(out.views, createComputePipeline(ctx, kSpirv_image_frame_setup_comp, kImageFrameSetupLayout,
                                                         kViewsPhase, (std::string(method) + "-frame-views").c_str()));
}

void destroyImageFramePipelines(VulkanContext& ctx, ImageFramePipelines& pipelines) {
    destroyPipeline(ctx, pipelines.candidates);
    destroyPipeline(ctx, pipelines.views);
}

void addImageFrameSetupPasses(Graph& graph, const ImageFrameSetupInputs& in, ImageFrameBuffers& buffers) {
    PassBuilder reset = graph.addPass(std::string(in.method) + "-frame-reset");
    buffers.frame = reset.write(buffers.frame, Access::TransferDst);
    buffers.drawn = reset.write(buffers.drawn, Access::TransferDst);
    const BufferHandle frame = buffers.frame, drawn = buffers.drawn;
    const VkDeviceSize drawnBytes = imageFrameDrawnBytes(in.push.objectCount);
    reset.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        const gpu::ImageFrameGpu empty = emptyFrame();
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(frame), r.bufferOffset(frame), sizeof(empty), &empty);
        r.device().vkCmdFillBuffer(cmd, r.buffer(drawn), r.bufferOffset(drawn), drawnBytes, 0u);
    });
    addPhase(graph, in, buffers, 0);
    addPhase(graph, in, buffers, 1);
}

Status checkImageFrameObjects(const VulkanContext& ctx, uint32_t objects, const char* method) {
    const uint32_t most = ctx.properties.limits.maxDrawIndirectCount;
    if (objects <= most) return Status::success();
    return makeError(ErrorCode::Unsupported, std::string(method) + ": the scene has " + std::to_string(objects) +
                                                 " objects, more than the device draws in one multi-draw "
                                                 "(maxDrawIndirectCount " + std::to_string(most) + ")");
}

void writeImageFrameSetupDescriptors(const VulkanContext& ctx, VkDescriptorSet set, VkBuffer candidates, VkBuffer bounds,
                                     VkBuffer draws, VkBuffer frame, VkBuffer drawn, VkBuffer commands) {
    const VkDescriptorType sb = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writeBufferDescriptor(ctx, set, gpu::kImageFrameBindingCandidates, sb, candidates);
    writeBufferDescriptor(ctx, set, gpu::kImageFrameBindingBounds, sb, bounds);
    writeBufferDescriptor(ctx, set, gpu::kImageFrameBindingDraws, sb, draws);
    writeBufferDescriptor(ctx, set, gpu::kImageFrameBindingFrame, sb, frame);
    writeBufferDescriptor(ctx, set, gpu::kImageFrameBindingDrawn, sb, drawn);
    writeBufferDescriptor(ctx, set, gpu::kImageFrameBindingCommands, sb, commands);
}

}  // namespace vkc
