// Buffers through the context's Allocator, and blocking transfer helpers.
#include "vk/buffer.h"

#include "vk/commands.h"
#include "vk/debug.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace vkc {

Result<Buffer> createBuffer(VulkanContext& ctx, const BufferDesc& desc) {
    const char* name = desc.name ? desc.name : "unnamed buffer";
    if (desc.size == 0) return makeError(ErrorCode::InvalidArgument, std::string("buffer '") + name + "' has size 0");
    VkBufferCreateInfo info = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = desc.size;
    info.usage = desc.usage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    Buffer buffer;
    std::string what = std::string("vkCreateBuffer(") + name + ", " + std::to_string(desc.size) + " bytes)";
    VKC_TRY(checkVk(ctx.vkd.vkCreateBuffer(ctx.device, &info, ctx.allocationCallbacks, &buffer.buffer), what.c_str()));

    VkMemoryRequirements requirements;
    ctx.vkd.vkGetBufferMemoryRequirements(ctx.device, buffer.buffer, &requirements);
    AllocationRequest request = {};
    request.requirements = {requirements.size, requirements.alignment, requirements.memoryTypeBits};
    request.usage = desc.memory;
    request.linear = true;
    request.deviceAddress = (desc.usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) != 0;
    request.name = name;
    Result<Allocation> allocation = ctx.allocator->allocate(request);
    if (!allocation) {
        ctx.vkd.vkDestroyBuffer(ctx.device, buffer.buffer, ctx.allocationCallbacks);
        return allocation.status();
    }
    buffer.allocation = allocation.value();
    what = std::string("vkBindBufferMemory(") + name + ")";
    Status bound = checkVk(ctx.vkd.vkBindBufferMemory(ctx.device, buffer.buffer, buffer.allocation.memory,
                                                      buffer.allocation.offset),
                           what.c_str());
    if (!bound) {
        destroyBuffer(ctx, buffer);
        return bound;
    }
    buffer.memory = buffer.allocation.memory;
    buffer.offset = buffer.allocation.offset;
    buffer.data = buffer.allocation.mapped;
    buffer.size = desc.size;
    setObjectName(ctx, VK_OBJECT_TYPE_BUFFER, buffer.buffer, name);
    return buffer;
}

void destroyBuffer(VulkanContext& ctx, Buffer& buffer) {
    if (buffer.buffer) ctx.vkd.vkDestroyBuffer(ctx.device, buffer.buffer, ctx.allocationCallbacks);
    if (buffer.allocation.memory) ctx.allocator->free(buffer.allocation);
    buffer = Buffer{};
}

// The atom-aligned memory range covering [offset, offset + size) of the buffer.
static VkMappedMemoryRange mappedRange(const VulkanContext& ctx, const Buffer& buffer, VkDeviceSize offset,
                                       VkDeviceSize size) {
    VkDeviceSize atom = ctx.properties.limits.nonCoherentAtomSize;
    if (size == VK_WHOLE_SIZE) size = buffer.size - offset;
    VkDeviceSize begin = (buffer.offset + offset) / atom * atom;
    VkDeviceSize end = (buffer.offset + offset + size + atom - 1) / atom * atom;
    VkMappedMemoryRange range = {VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
    range.memory = buffer.memory;
    range.offset = begin;
    range.size = end - begin;
    return range;
}

Status flushBuffer(VulkanContext& ctx, const Buffer& buffer, VkDeviceSize offset, VkDeviceSize size) {
    if (buffer.allocation.coherent || !buffer.data) return Status::success();
    VkMappedMemoryRange range = mappedRange(ctx, buffer, offset, size);
    return checkVk(ctx.vkd.vkFlushMappedMemoryRanges(ctx.device, 1, &range), "vkFlushMappedMemoryRanges");
}

Status invalidateBuffer(VulkanContext& ctx, const Buffer& buffer, VkDeviceSize offset, VkDeviceSize size) {
    if (buffer.allocation.coherent || !buffer.data) return Status::success();
    VkMappedMemoryRange range = mappedRange(ctx, buffer, offset, size);
    return checkVk(ctx.vkd.vkInvalidateMappedMemoryRanges(ctx.device, 1, &range), "vkInvalidateMappedMemoryRanges");
}

static Status checkRange(const Buffer& buffer, VkDeviceSize offset, VkDeviceSize size, const char* what) {
    if (!buffer.buffer || offset > buffer.size || size > buffer.size - offset)
        return makeError(ErrorCode::InvalidArgument, std::string(what) + ": " + std::to_string(size) + " bytes at offset " +
                                                         std::to_string(offset) + " exceed the buffer (" +
                                                         std::to_string(buffer.size) + " bytes)");
    return Status::success();
}

Status uploadBuffer(VulkanContext& ctx, const Buffer& dst, const void* data, VkDeviceSize size, VkDeviceSize dstOffset) {
    VKC_TRY(checkRange(dst, dstOffset, size, "uploadBuffer"));
    if (size == 0) return Status::success();
    if (dst.data) {
        memcpy(static_cast<char*>(dst.data) + dstOffset, data, size);
        return flushBuffer(ctx, dst, dstOffset, size);
    }
    Result<Buffer> staging = createBuffer(ctx, {size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUsage::Upload, "upload staging"});
    if (!staging) return staging.status();
    memcpy(staging->data, data, size);
    Status status = flushBuffer(ctx, staging.value());
    if (status) {
        status = submitAndWait(
            ctx,
            [&](VkCommandBuffer cmd) {
                VkBufferCopy copy = {0, dstOffset, size};
                ctx.vkd.vkCmdCopyBuffer(cmd, staging->buffer, dst.buffer, 1, &copy);
                // Later submissions see the data without knowing it came from a copy.
                memoryBarrier(ctx, cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                              VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
            },
            "uploadBuffer");
    }
    destroyBuffer(ctx, staging.value());
    return status;
}

Status readBuffer(VulkanContext& ctx, const Buffer& src, void* out, VkDeviceSize size, VkDeviceSize srcOffset) {
    VKC_TRY(checkRange(src, srcOffset, size, "readBuffer"));
    if (size == 0) return Status::success();
    Result<Buffer> staging = createBuffer(ctx, {size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::Readback, "readback staging"});
    if (!staging) return staging.status();
    Status status = submitAndWait(
        ctx,
        [&](VkCommandBuffer cmd) {
            // Whatever wrote `src` before (any stage) finishes before the copy reads it.
            memoryBarrier(ctx, cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                          VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
            VkBufferCopy copy = {srcOffset, 0, size};
            ctx.vkd.vkCmdCopyBuffer(cmd, src.buffer, staging->buffer, 1, &copy);
            memoryBarrier(ctx, cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                          VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        },
        "readBuffer");
    if (status) status = invalidateBuffer(ctx, staging.value());
    if (status) memcpy(out, staging->data, size);
    destroyBuffer(ctx, staging.value());
    return status;
}

}  // namespace vkc
