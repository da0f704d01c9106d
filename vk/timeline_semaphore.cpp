// Timeline semaphores; see timeline_semaphore.h.
#include "vk/timeline_semaphore.h"

#include "vk/debug.h"

namespace vkc {

Result<VkSemaphore> createTimelineSemaphore(VulkanContext& ctx, const char* name) {
    VkSemaphoreTypeCreateInfo type = {VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkSemaphoreCreateInfo info = {VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    info.pNext = &type;
    VkSemaphore semaphore = VK_NULL_HANDLE;
    VKC_TRY(checkVk(ctx.vkd.vkCreateSemaphore(ctx.device, &info, ctx.allocationCallbacks, &semaphore),
                    (std::string("vkCreateSemaphore(") + name + ")").c_str()));
    setObjectName(ctx, VK_OBJECT_TYPE_SEMAPHORE, semaphore, name);
    return semaphore;
}

Result<uint64_t> timelineValue(const VulkanContext& ctx, VkSemaphore semaphore) {
    uint64_t value = 0;
    VKC_TRY(checkVk(ctx.vkd.vkGetSemaphoreCounterValue(ctx.device, semaphore, &value), "vkGetSemaphoreCounterValue"));
    return value;
}

Status signalTimelineFromHost(const VulkanContext& ctx, VkSemaphore semaphore, uint64_t value) {
    auto now = timelineValue(ctx, semaphore);
    if (!now) return now.status();
    if (now.value() >= value) return Status::success();
    VkSemaphoreSignalInfo info = {VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
    info.semaphore = semaphore;
    info.value = value;
    return checkVk(ctx.vkd.vkSignalSemaphore(ctx.device, &info), "vkSignalSemaphore");
}

}  // namespace vkc
