// The GPU set-up of an image-space frame (image_frame_setup.comp), shared by the stencil and
// consistent-pairs methods: from the frame's candidate pairs and boxes, the region and its views
// (paper 1, 6.5), which objects are drawn, every object's indirect draws and the dispatch over the
// stored candidates, so the CPU needs neither the pairs nor the boxes.
// Reads: candidates, bounds, the objects' draw ranges. Writes: frame, drawn flags, commands.
// Invariant: the frame and the flags start empty every frame (a reset pass before the setup).
#pragma once

#include "passes/graph/graph.h"
#include "shaders_glsl/shared/image_frame.h"
#include "vk/pipeline.h"

namespace vkc {

extern const PipelineLayoutDesc kImageFrameSetupLayout;

struct ImageFramePipelines {
    Pipeline candidates;  // phase 0
    Pipeline views;       // phase 1
};
// `method` names them ("stencil" -> "stencil-frame-candidates", "stencil-frame-views").
Status createImageFramePipelines(VulkanContext& ctx, const char* method, ImageFramePipelines& out);
void destroyImageFramePipelines(VulkanContext& ctx, ImageFramePipelines& pipelines);

struct ImageFrameSetupInputs {
    const char* method = nullptr;            // pass-name prefix
    const ImageFramePipelines* pipelines = nullptr;
    VkDescriptorSet set = VK_NULL_HANDLE;    // kImageFrameSetupLayout's
    gpu::ImageFrameSetupPush push;           // sizes and the view settings
    BufferHandle candidates, bounds, draws;  // the candidates (gpu_candidates.h), ImageObjectDrawGpu per object
};

struct ImageFrameBuffers {
    BufferHandle frame, drawn, commands;  // advanced to the versions the setup wrote
};

// Resets frame and flags, then both setup phases.
void addImageFrameSetupPasses(Graph& graph, const ImageFrameSetupInputs& in, ImageFrameBuffers& buffers);

// Sizes of the buffers.
inline VkDeviceSize imageFrameDrawnBytes(uint32_t objects) { return 4 * VkDeviceSize(objects == 0 ? 1 : objects); }
inline VkDeviceSize imageFrameCommandsBytes(uint32_t objects, uint32_t drawsPerObject) {
    return 4 * (gpu::kImageFrameCommandFirstDraw +
                VkDeviceSize(objects) * drawsPerObject * gpu::kImageFrameCommandDrawUints);
}
// Byte offset of object `object`'s draw `k` in the commands.
inline VkDeviceSize imageFrameDrawOffset(uint32_t k, uint32_t object, uint32_t objects) {
    return 4 * (gpu::kImageFrameCommandFirstDraw + (VkDeviceSize(k) * objects + object) * gpu::kImageFrameCommandDrawUints);
}

// Unsupported when the device cannot multi-draw `objects` draws at once (maxDrawIndirectCount).
Status checkImageFrameObjects(const VulkanContext& ctx, uint32_t objects, const char* method);

// Points the setup set at a frame slot's buffers.
void writeImageFrameSetupDescriptors(const VulkanContext& ctx, VkDescriptorSet set, VkBuffer candidates, VkBuffer bounds,
                                     VkBuffer draws, VkBuffer frame, VkBuffer drawn, VkBuffer commands);

}  // namespace vkc
