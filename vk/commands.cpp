// One-shot submission and barrier builders.
#include "vk/commands.h"

#include "vk/debug.h"

#include <string>

namespace vkc {

Status submitAndWait(VulkanContext& ctx, const std::function<void(VkCommandBuffer)>& record, const char* name) {
    const VolkDeviceTable& vk = ctx.vkd;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    if (ctx.idleOneShotCommandBuffers.empty()) {
        VkCommandBufferAllocateInfo allocInfo = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        allocInfo.commandPool = ctx.oneShotPool;
        allocInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        allocInfo.commandBufferCount = 1;
        std::string what = std::string("vkAllocateCommandBuffers(") + name + ")";
        VKC_TRY(checkVk(vk.vkAllocateCommandBuffers(ctx.device, &allocInfo, &cmd), what.c_str()));
    } else {
        cmd = ctx.idleOneShotCommandBuffers.back();
        ctx.idleOneShotCommandBuffers.pop_back();  // taken, so a nested call records into another
    }
    setObjectName(ctx, VK_OBJECT_TYPE_COMMAND_BUFFER, cmd, name);

    VkFenceCreateInfo fenceInfo = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    Status status = checkVk(vk.vkCreateFence(ctx.device, &fenceInfo, ctx.allocationCallbacks, &fence),
                            (std::string("vkCreateFence(") + name + ")").c_str());
    if (status) {
        VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;  // resets it: the pool allows that
        status = checkVk(vk.vkBeginCommandBuffer(cmd, &begin), (std::string("vkBeginCommandBuffer(") + name + ")").c_str());
    }
    if (status) {
        beginLabel(ctx, cmd, name);
        record(cmd);
        endLabel(ctx, cmd);
        status = checkVk(vk.vkEndCommandBuffer(cmd), (std::string("vkEndCommandBuffer(") + name + ")").c_str());
    }
    if (status) {
        VkCommandBufferSubmitInfo cmdInfo = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
        cmdInfo.commandBuffer = cmd;
        VkSubmitInfo2 submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
        submit.commandBufferInfoCount = 1;
        submit.pCommandBufferInfos = &cmdInfo;
        status = checkVk(vk.vkQueueSubmit2(ctx.queue, 1, &submit, fence), (std::string("vkQueueSubmit2(") + name + ")").c_str());
    }
    if (status)
        status = checkVk(vk.vkWaitForFences(ctx.device, 1, &fence, VK_TRUE, UINT64_MAX),
                         (std::string("vkWaitForFences(") + name + ")").c_str());
    if (fence) vk.vkDestroyFence(ctx.device, fence, ctx.allocationCallbacks);
    // Kept for the next call, not freed: besides an allocation saved per call, freeing a command
    // buffer the moment its fence signals races in Debian 12's validation layer (1.3.239): its queue
    // thread drops the last reference afterwards and erases that handle's debug labels unlocked,
    // while the next command buffer, often given the same handle, records labels (a use after free
    // ASan caught; KhronosGroup/Vulkan-ValidationLayers#5172, fixed in 1.3.243). One whose wait
    // failed may still be pending, and is left to the pool.
    if (status) ctx.idleOneShotCommandBuffers.push_back(cmd);
    return status;
}

VkBufferMemoryBarrier2 bufferBarrier(VkBuffer buffer, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
                                     VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess, VkDeviceSize offset,
                                     VkDeviceSize size) {
    VkBufferMemoryBarrier2 b = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2};
    b.srcStageMask = srcStage;
    b.srcAccessMask = srcAccess;
    b.dstStageMask = dstStage;
    b.dstAccessMask = dstAccess;
    b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.buffer = buffer;
    b.offset = offset;
    b.size = size;
    return b;
}

VkImageMemoryBarrier2 imageBarrier(VkImage image, VkImageAspectFlags aspect, VkImageLayout oldLayout,
                                   VkImageLayout newLayout, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
                                   VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess) {
    VkImageMemoryBarrier2 b = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
    b.srcStageMask = srcStage;
    b.srcAccessMask = srcAccess;
    b.dstStageMask = dstStage;
    b.dstAccessMask = dstAccess;
    b.oldLayout = oldLayout;
    b.newLayout = newLayout;
    b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {aspect, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};
    return b;
}

void pipelineBarrier(const VulkanContext& ctx, VkCommandBuffer cmd, std::span<const VkBufferMemoryBarrier2> buffers,
                     std::span<const VkImageMemoryBarrier2> images) {
    VkDependencyInfo info = {VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    info.bufferMemoryBarrierCount = uint32_t(buffers.size());
    info.pBufferMemoryBarriers = buffers.data();
    info.imageMemoryBarrierCount = uint32_t(images.size());
    info.pImageMemoryBarriers = images.data();
    ctx.vkd.vkCmdPipelineBarrier2(cmd, &info);
}

void memoryBarrier(const VulkanContext& ctx, VkCommandBuffer cmd, VkPipelineStageFlags2 srcStage,
                   VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess) {
    VkMemoryBarrier2 barrier = {VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    barrier.srcStageMask = srcStage;
    barrier.srcAccessMask = srcAccess;
    barrier.dstStageMask = dstStage;
    barrier.dstAccessMask = dstAccess;
    VkDependencyInfo info = {VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    info.memoryBarrierCount = 1;
    info.pMemoryBarriers = &barrier;
    ctx.vkd.vkCmdPipelineBarrier2(cmd, &info);
}

}  // namespace vkc
