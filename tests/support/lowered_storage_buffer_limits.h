// While alive, a context reports storage-buffer limits that leave `arrayLength` elements for a
// vertex-buffer array (maxVariableDescriptorCount in vk/descriptors.h), as a smaller device would:
// for tests of the refusal past a device's limit, which lavapipe's (about a million) puts out of
// reach. Detectors read the limits when they are created.
#pragma once

#include "vk/context.h"
#include "vk/descriptors.h"

namespace vkc::test {

class LoweredStorageBufferLimits {
public:
    LoweredStorageBufferLimits(VulkanContext& vk, uint32_t arrayLength) : vk_(vk), saved_(vk.properties.limits) {
        vk.properties.limits.maxPerStageDescriptorStorageBuffers = arrayLength + kReservedStorageBuffers;
    }
    ~LoweredStorageBufferLimits() { vk_.properties.limits = saved_; }
    LoweredStorageBufferLimits(const LoweredStorageBufferLimits&) = delete;
    LoweredStorageBufferLimits& operator=(const LoweredStorageBufferLimits&) = delete;

private:
    VulkanContext& vk_;
    VkPhysicalDeviceLimits saved_;
};

// While alive, a context reports `bytes` as maxStorageBufferRange, as a device whose bindings reach
// less would: for the refusals of buffers and meshes past one binding (storageBindingLimit).
class LoweredStorageBufferRange {
public:
    LoweredStorageBufferRange(VulkanContext& vk, uint32_t bytes) : vk_(vk), saved_(vk.properties.limits) {
        vk.properties.limits.maxStorageBufferRange = bytes;
    }
    ~LoweredStorageBufferRange() { vk_.properties.limits = saved_; }
    LoweredStorageBufferRange(const LoweredStorageBufferRange&) = delete;
    LoweredStorageBufferRange& operator=(const LoweredStorageBufferRange&) = delete;

private:
    VulkanContext& vk_;
    VkPhysicalDeviceLimits saved_;
};

}  // namespace vkc::test
