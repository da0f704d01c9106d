// Dynamic rendering helper of the image-space passes: see depth_stencil_rendering.h.
#include "passes/shared/depth_stencil_rendering.h"

#include <volk.h>

namespace vkc {

void beginDepthStencilRendering(VkCommandBuffer cmd, const PassResources& r, const DepthStencilRendering& rendering) {
    VkRenderingAttachmentInfo depth = {VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    depth.imageView = r.imageView(rendering.depthStencil);
    depth.imageLayout = rendering.readOnly ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL
                                           : VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    depth.loadOp = rendering.depthLoad;
    // A read-only attachment must not be stored (that would be a write the graph did not declare).
    depth.storeOp = rendering.readOnly && rendering.storeOpNone ? VK_ATTACHMENT_STORE_OP_NONE
                                                                : VK_ATTACHMENT_STORE_OP_STORE;
    depth.clearValue.depthStencil = rendering.clear;
    VkRenderingAttachmentInfo stencil = depth;
    stencil.loadOp = rendering.stencilLoad;

    VkRenderingAttachmentInfo color = {VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    if (rendering.color.valid()) {
        color.imageView = r.imageView(rendering.color);
        color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        color.clearValue.color.uint32[0] = 0;
    }
    VkRenderingInfo info = {VK_STRUCTURE_TYPE_RENDERING_INFO};
    info.renderArea = rendering.area;
    info.layerCount = 1;
    info.colorAttachmentCount = rendering.color.valid() ? 1 : 0;
    info.pColorAttachments = rendering.color.valid() ? &color : nullptr;
    info.pDepthAttachment = &depth;
    info.pStencilAttachment = &stencil;
    r.device().vkCmdBeginRendering(cmd, &info);
    VkViewport viewport = {float(rendering.area.offset.x), float(rendering.area.offset.y),
                           float(rendering.area.extent.width), float(rendering.area.extent.height), 0.0f, 1.0f};
    r.device().vkCmdSetViewport(cmd, 0, 1, &viewport);
    r.device().vkCmdSetScissor(cmd, 0, 1, &rendering.area);
}

}  // namespace vkc
