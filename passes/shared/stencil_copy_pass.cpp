// The stencil-aspect copy; see stencil_copy_pass.h.
#include "passes/shared/stencil_copy_pass.h"

#include <volk.h>

namespace vkc {

BufferHandle addStencilCopyPass(Graph& graph, const char* name, ImageHandle image, BufferHandle buffer,
                                VkDeviceSize offset, VkExtent2D extent) {
    PassBuilder copy = graph.addPass(name);
    copy.read(image, Access::TransferSrc);
    const BufferHandle target = copy.write(buffer, Access::TransferDst);
    copy.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        VkBufferImageCopy region = {};
        region.bufferOffset = r.bufferOffset(target) + offset;
        region.imageSubresource = {VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 1};
        region.imageExtent = {extent.width, extent.height, 1};
        r.device().vkCmdCopyImageToBuffer(cmd, r.image(image), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, r.buffer(target), 1,
                                          &region);
    });
    return target;
}

}  // namespace vkc
