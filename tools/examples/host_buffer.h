// Host-visible, persistently mapped buffers: the simplest memory a small renderer can own (an
// engine would use its allocator and device-local memory; vkcollide reads either in place).
#pragma once

#include "tools/examples/host_device.h"

#include <string>

namespace vkc::example {

struct HostBuffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr;
    VkDeviceSize size = 0;
};

// Empty `error` on success.
HostBuffer createHostBuffer(const HostDevice& host, VkDeviceSize size, VkBufferUsageFlags usage, std::string& error);
void destroyHostBuffer(const HostDevice& host, HostBuffer& buffer);

// A memory type of `typeBits` with `flags`, or UINT32_MAX.
uint32_t findMemoryType(const HostDevice& host, uint32_t typeBits, VkMemoryPropertyFlags flags);

}  // namespace vkc::example
