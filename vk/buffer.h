// Buffers: plain struct + create/destroy, and blocking upload/read-back helpers for tools/tests.
#pragma once

#include "vk/context.h"

namespace vkc {

struct BufferDesc {
    VkDeviceSize size;
    VkBufferUsageFlags usage;  // TRANSFER_SRC/DST are added: uploads and read-backs always work
    MemoryUsage memory;        // DeviceLocal (0) by default
    const char* name;          // debug name; errors name it too
};

struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;  // of the buffer in `memory`
    void* data = nullptr;     // mapped pointer for host-visible memory, else null
    VkDeviceSize size = 0;
    Allocation allocation;
};

Result<Buffer> createBuffer(VulkanContext& ctx, const BufferDesc& desc);
// Safe on a default-constructed Buffer; resets it.
void destroyBuffer(VulkanContext& ctx, Buffer& buffer);

// Make host writes visible to the device / device writes visible to the host; no-ops on
// coherent memory. Ranges are in bytes from the buffer start.
Status flushBuffer(VulkanContext& ctx, const Buffer& buffer, VkDeviceSize offset = 0, VkDeviceSize size = VK_WHOLE_SIZE);
Status invalidateBuffer(VulkanContext& ctx, const Buffer& buffer, VkDeviceSize offset = 0,
                        VkDeviceSize size = VK_WHOLE_SIZE);

// Copies `size` bytes into `dst` at `dstOffset`: memcpy when mapped, else through a staging
// buffer and a one-shot submit that waits. Blocking; for tools, tests and setup.
Status uploadBuffer(VulkanContext& ctx, const Buffer& dst, const void* data, VkDeviceSize size, VkDeviceSize dstOffset = 0);
// The reverse: copies `size` bytes from `src` at `srcOffset` into `out`. Blocking.
Status readBuffer(VulkanContext& ctx, const Buffer& src, void* out, VkDeviceSize size, VkDeviceSize srcOffset = 0);

}  // namespace vkc
