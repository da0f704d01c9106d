// Dynamic rendering over one depth-stencil attachment (and optionally one colour attachment), as
// the image-space methods' draw passes use it: which aspects load or clear, read-only or written,
// and the render area, which also becomes the viewport and scissor.
#pragma once

#include "passes/graph/graph.h"

namespace vkc {

struct DepthStencilRendering {
    ImageHandle depthStencil;
    bool readOnly = false;  // tested, not written: read-only layout, and nothing stored where storeOpNone
    VkAttachmentLoadOp depthLoad = VK_ATTACHMENT_LOAD_OP_LOAD;
    VkAttachmentLoadOp stencilLoad = VK_ATTACHMENT_LOAD_OP_LOAD;
    VkClearDepthStencilValue clear = {1.0f, 0u};
    bool storeOpNone = false;  // Vulkan 1.3: STORE_OP_NONE is core
    ImageHandle color;         // invalid: none; else cleared to zero
    VkRect2D area = {};
};

void beginDepthStencilRendering(VkCommandBuffer cmd, const PassResources& r, const DepthStencilRendering& rendering);

}  // namespace vkc
