// Descriptor pools, sets and buffer writes (a pool per user; sets live as long as their pool).
#pragma once

#include "vk/buffer.h"

#include <span>

namespace vkc {

Result<VkDescriptorPool> createDescriptorPool(VulkanContext& ctx, uint32_t maxSets, std::span<const VkDescriptorPoolSize> sizes,
                                              const char* name);
void destroyDescriptorPool(VulkanContext& ctx, VkDescriptorPool& pool);
Result<VkDescriptorSet> allocateDescriptorSet(VulkanContext& ctx, VkDescriptorPool pool, VkDescriptorSetLayout layout,
                                              const char* name);
// Points `binding` of `set` at [offset, offset + range) of `buffer` (storage or uniform `type`).
void writeBufferDescriptor(const VulkanContext& ctx, VkDescriptorSet set, uint32_t binding, VkDescriptorType type,
                           VkBuffer buffer, VkDeviceSize offset = 0, VkDeviceSize range = VK_WHOLE_SIZE);
inline void writeBufferDescriptor(const VulkanContext& ctx, VkDescriptorSet set, uint32_t binding,
                                  VkDescriptorType type, const Buffer& buffer, VkDeviceSize offset = 0,
                                  VkDeviceSize range = VK_WHOLE_SIZE) {
    writeBufferDescriptor(ctx, set, binding, type, buffer.buffer, offset, range);
}
// Points the storage-image `binding` of `set` at `view`, used in the GENERAL layout.
void writeStorageImageDescriptor(const VulkanContext& ctx, VkDescriptorSet set, uint32_t binding, VkImageView view);

// Points the storage-buffer array at `binding` (of `arraySize` descriptors) at `buffers`, whole,
// and every slot past them at `fill` (a descriptor array must be fully written to be used).
void writeStorageBufferArray(const VulkanContext& ctx, VkDescriptorSet set, uint32_t binding, uint32_t arraySize,
                             std::span<const VkBuffer> buffers, VkBuffer fill);

}  // namespace vkc
