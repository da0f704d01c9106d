// Descriptor pools and sets.
#include "vk/descriptors.h"

#include "vk/debug.h"

#include <algorithm>
#include <string>
#include <vector>

namespace vkc {

Result<VkDescriptorPool> createDescriptorPool(VulkanContext& ctx, uint32_t maxSets, std::span<const VkDescriptorPoolSize> sizes,
                                              const char* name) {
    VkDescriptorPoolCreateInfo info = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    info.maxSets = maxSets;
    info.poolSizeCount = uint32_t(sizes.size());
    info.pPoolSizes = sizes.data();
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VKC_TRY(checkVk(ctx.vkd.vkCreateDescriptorPool(ctx.device, &info, ctx.allocationCallbacks, &pool),
                    (std::string("vkCreateDescriptorPool(") + (name ? name : "unnamed") + ")").c_str()));
    setObjectName(ctx, VK_OBJECT_TYPE_DESCRIPTOR_POOL, pool, name);
    return pool;
}

void destroyDescriptorPool(VulkanContext& ctx, VkDescriptorPool& pool) {
    if (pool) ctx.vkd.vkDestroyDescriptorPool(ctx.device, pool, ctx.allocationCallbacks);
    pool = VK_NULL_HANDLE;
}

Result<VkDescriptorSet> allocateDescriptorSet(VulkanContext& ctx, VkDescriptorPool pool, VkDescriptorSetLayout layout,
                                              const char* name, uint32_t variableCount) {
    VkDescriptorSetVariableDescriptorCountAllocateInfo variable = {
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO};
    variable.descriptorSetCount = 1;
    variable.pDescriptorCounts = &variableCount;
    VkDescriptorSetAllocateInfo info = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    if (variableCount != 0) info.pNext = &variable;
    info.descriptorPool = pool;
    info.descriptorSetCount = 1;
    info.pSetLayouts = &layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    VKC_TRY(checkVk(ctx.vkd.vkAllocateDescriptorSets(ctx.device, &info, &set),
                    (std::string("vkAllocateDescriptorSets(") + (name ? name : "unnamed") + ")").c_str()));
    setObjectName(ctx, VK_OBJECT_TYPE_DESCRIPTOR_SET, set, name);
    return set;
}

VkDeviceSize storageBindingLimit(const VulkanContext& ctx) {
    return std::min<VkDeviceSize>(ctx.properties.limits.maxStorageBufferRange, UINT32_MAX);
}

uint32_t objectsPerBinding(const VulkanContext& ctx, VkDeviceSize bytesPerObject) {
    constexpr uint32_t kIdLimit = 0x7fffffffu;
    return uint32_t(std::min<VkDeviceSize>(storageBindingLimit(ctx) / bytesPerObject, kIdLimit));
}

uint32_t maxVariableDescriptorCount(const VulkanContext& ctx) {
    const VkPhysicalDeviceLimits& limits = ctx.properties.limits;
    const uint32_t deviceLimit = std::min({limits.maxPerStageDescriptorStorageBuffers,
                                           limits.maxDescriptorSetStorageBuffers, limits.maxPerStageResources});
    return std::min(deviceLimit > kReservedStorageBuffers ? deviceLimit - kReservedStorageBuffers : 0u,
                    kMaxVariableDescriptors);
}

namespace {

// `count` descriptors from `binding` on, from `buffers` or `images`.
void writeDescriptors(const VulkanContext& ctx, VkDescriptorSet set, uint32_t binding, VkDescriptorType type,
                      uint32_t count, const VkDescriptorBufferInfo* buffers, const VkDescriptorImageInfo* images) {
    VkWriteDescriptorSet write = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = set;
    write.dstBinding = binding;
    write.descriptorCount = count;
    write.descriptorType = type;
    write.pBufferInfo = buffers;
    write.pImageInfo = images;
    ctx.vkd.vkUpdateDescriptorSets(ctx.device, 1, &write, 0, nullptr);
}

}  // namespace

void writeBufferDescriptor(const VulkanContext& ctx, VkDescriptorSet set, uint32_t binding, VkDescriptorType type,
                           VkBuffer buffer, VkDeviceSize offset, VkDeviceSize range) {
    VkDescriptorBufferInfo bufferInfo = {buffer, offset, range};
    writeDescriptors(ctx, set, binding, type, 1, &bufferInfo, nullptr);
}

void writeStorageImageDescriptor(const VulkanContext& ctx, VkDescriptorSet set, uint32_t binding, VkImageView view) {
    VkDescriptorImageInfo imageInfo = {VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL};
    writeDescriptors(ctx, set, binding, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, nullptr, &imageInfo);
}

void writeAccelerationStructure(const VulkanContext& ctx, VkDescriptorSet set, uint32_t binding,
                                VkAccelerationStructureKHR structure) {
    VkWriteDescriptorSetAccelerationStructureKHR as{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_ACCELERATION_STRUCTURE_KHR};
    as.accelerationStructureCount = 1;
    as.pAccelerationStructures = &structure;
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.pNext = &as;
    write.dstSet = set;
    write.dstBinding = binding;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR;
    ctx.vkd.vkUpdateDescriptorSets(ctx.device, 1, &write, 0, nullptr);
}

void writeStorageBufferArray(const VulkanContext& ctx, VkDescriptorSet set, uint32_t binding,
                             std::span<const VkBuffer> buffers) {
    std::vector<VkDescriptorBufferInfo> infos;
    for (VkBuffer buffer : buffers) infos.push_back({buffer, 0, VK_WHOLE_SIZE});
    writeStorageBufferArray(ctx, set, binding, infos);
}

void writeStorageBufferArray(const VulkanContext& ctx, VkDescriptorSet set, uint32_t binding,
                             std::span<const VkDescriptorBufferInfo> buffers) {
    if (buffers.empty()) return;  // a write of zero descriptors is invalid
    writeDescriptors(ctx, set, binding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, uint32_t(buffers.size()), buffers.data(),
                     nullptr);
}

}  // namespace vkc
