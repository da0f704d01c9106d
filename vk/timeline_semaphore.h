// Timeline semaphores: the read-back ring's and a collision frame's completion signal.
#pragma once

#include "vk/context.h"

#include <cstdint>

namespace vkc {

// A timeline semaphore at value 0, named `name` for debuggers.
Result<VkSemaphore> createTimelineSemaphore(VulkanContext& ctx, const char* name);

// Its value now (never waits).
Result<uint64_t> timelineValue(const VulkanContext& ctx, VkSemaphore semaphore);

// Signals `value` from the host where the semaphore is below it (nothing pending on the GPU may
// signal it: the caller's semaphores are signalled only this way).
Status signalTimelineFromHost(const VulkanContext& ctx, VkSemaphore semaphore, uint64_t value);

}  // namespace vkc
