// Choosing a memory type for a MemoryUsage (shared by the block allocator and host allocators).
#pragma once

#include "vkcollide/allocator.h"

#include <vulkan/vulkan_core.h>

namespace vkc {

// UINT32_MAX when no type in `typeBits` can serve `usage`.
uint32_t findMemoryType(const VkPhysicalDeviceMemoryProperties& properties, uint32_t typeBits, MemoryUsage usage);

}  // namespace vkc
