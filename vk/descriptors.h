// Descriptor pools, sets and buffer writes (a pool per user; sets live as long as their pool).
#pragma once

#include "vk/buffer.h"

#include <span>

namespace vkc {

Result<VkDescriptorPool> createDescriptorPool(VulkanContext& ctx, uint32_t maxSets, std::span<const VkDescriptorPoolSize> sizes,
                                              const char* name);
void destroyDescriptorPool(VulkanContext& ctx, VkDescriptorPool& pool);
// `variableCount`: the length of the layout's variable-count array (kVariableDescriptorCount in
// vk/pipeline.h), if it has one; at most the layout's bound (PipelineLayoutDesc::variableDescriptorCount).
Result<VkDescriptorSet> allocateDescriptorSet(VulkanContext& ctx, VkDescriptorPool pool, VkDescriptorSetLayout layout,
                                              const char* name, uint32_t variableCount = 0);

// Storage buffers set aside, per stage and per pipeline layout, for the bindings beside a
// variable-count array: more than any vkcollide pipeline declares.
inline constexpr uint32_t kReservedStorageBuffers = 64;
// Beyond any scene's distinct vertex buffers; keeps layouts small on devices reporting ~2^32.
inline constexpr uint32_t kMaxVariableDescriptors = 1u << 20;
// The longest variable-count storage-buffer array a layout declares: the device's storage-buffer
// limits (maxPerStageDescriptorStorageBuffers, maxDescriptorSetStorageBuffers, maxPerStageResources)
// less kReservedStorageBuffers, at most kMaxVariableDescriptors.
uint32_t maxVariableDescriptorCount(const VulkanContext& ctx);
// The most bytes one whole-buffer storage binding may hold when shaders index it with uint:
// maxStorageBufferRange, at most 2^32 - 1.
VkDeviceSize storageBindingLimit(const VulkanContext& ctx);
// The most objects a per-object table of `bytesPerObject` holds within one such binding, at most
// 2^31 - 1 (object ids stay positive ints). bytesPerObject > 0.
uint32_t objectsPerBinding(const VulkanContext& ctx, VkDeviceSize bytesPerObject);
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

// Points the acceleration-structure `binding` of `set` at `structure`.
void writeAccelerationStructure(const VulkanContext& ctx, VkDescriptorSet set, uint32_t binding,
                                VkAccelerationStructureKHR structure);

// Points elements 0..buffers.size()-1 of the (partially bound) storage-buffer array at `binding`
// at `buffers`, whole; the elements past them keep what they held.
void writeStorageBufferArray(const VulkanContext& ctx, VkDescriptorSet set, uint32_t binding,
                             std::span<const VkBuffer> buffers);
// The same with each element's own range.
void writeStorageBufferArray(const VulkanContext& ctx, VkDescriptorSet set, uint32_t binding,
                             std::span<const VkDescriptorBufferInfo> buffers);

}  // namespace vkc
