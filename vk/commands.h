// Command helpers: one-shot submit + wait (tools/tests only: a host never waits on our behalf)
// and synchronization2 barrier builders.
#pragma once

#include "vk/context.h"

#include <functional>
#include <span>

namespace vkc {

// Records with `record` into a fresh command buffer, submits it to ctx.queue and waits on a fence.
// Uses the queue: not for a host's frame loop.
Status submitAndWait(VulkanContext& ctx, const std::function<void(VkCommandBuffer)>& record,
                     const char* name = "vkcollide one-shot");

VkBufferMemoryBarrier2 bufferBarrier(VkBuffer buffer, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
                                     VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess,
                                     VkDeviceSize offset = 0, VkDeviceSize size = VK_WHOLE_SIZE);
// All mips and layers of `aspect`.
VkImageMemoryBarrier2 imageBarrier(VkImage image, VkImageAspectFlags aspect, VkImageLayout oldLayout,
                                   VkImageLayout newLayout, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
                                   VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess);
void pipelineBarrier(const VulkanContext& ctx, VkCommandBuffer cmd, std::span<const VkBufferMemoryBarrier2> buffers,
                     std::span<const VkImageMemoryBarrier2> images = {});
// A global memory barrier (cheapest when many buffers change hands at once).
void memoryBarrier(const VulkanContext& ctx, VkCommandBuffer cmd, VkPipelineStageFlags2 srcStage,
                   VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess);

}  // namespace vkc
