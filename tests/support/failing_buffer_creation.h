// While alive, every vkCreateBuffer made through a context's device table fails with
// VK_ERROR_OUT_OF_DEVICE_MEMORY: for tests of what a detector leaves behind when an allocation
// fails half way (its caches must not claim what it already destroyed).
#pragma once

#include "vk/context.h"

namespace vkc::test {

class FailingBufferCreation {
public:
    explicit FailingBufferCreation(VulkanContext& vk) : vk_(vk), real_(vk.vkd.vkCreateBuffer) {
        vk.vkd.vkCreateBuffer = [](VkDevice, const VkBufferCreateInfo*, const VkAllocationCallbacks*, VkBuffer*) {
            return VK_ERROR_OUT_OF_DEVICE_MEMORY;
        };
    }
    ~FailingBufferCreation() { vk_.vkd.vkCreateBuffer = real_; }
    FailingBufferCreation(const FailingBufferCreation&) = delete;
    FailingBufferCreation& operator=(const FailingBufferCreation&) = delete;

private:
    VulkanContext& vk_;
    PFN_vkCreateBuffer real_;
};

}  // namespace vkc::test
