// What a test that drives passes without a detector holds besides its pipelines: one descriptor
// pool for its sets, and the 16-byte placeholder buffer that the descriptors of inputs a run does
// not use point at (GraphDescriptors).
#pragma once

#include "vk/buffer.h"
#include "vk/descriptors.h"

namespace vkc::test {

class PassTestDescriptors {
public:
    // A pool of `sets` sets holding `storageBuffers` storage-buffer descriptors, and the placeholder.
    Status create(VulkanContext& ctx, uint32_t sets, uint32_t storageBuffers, const char* name) {
        ctx_ = &ctx;
        const VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, storageBuffers};
        auto pool = createDescriptorPool(ctx, sets, {&size, 1}, name);
        if (!pool) return pool.status();
        pool_ = pool.value();
        auto placeholder =
            createBuffer(ctx, BufferDesc{16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage{}, "placeholder"});
        if (!placeholder) return placeholder.status();
        placeholder_ = placeholder.value();
        return Status::success();
    }

    // `variableCount`: the length of the set's variable-count binding (the vertex-buffer array).
    Result<VkDescriptorSet> allocate(VkDescriptorSetLayout layout, const char* name, uint32_t variableCount = 0) {
        return allocateDescriptorSet(*ctx_, pool_, layout, name, variableCount);
    }

    VkBuffer placeholder() const { return placeholder_.buffer; }
    VkDescriptorPool pool() const { return pool_; }

    void destroy() {
        if (!ctx_) return;
        if (placeholder_.buffer != VK_NULL_HANDLE) destroyBuffer(*ctx_, placeholder_);
        if (pool_ != VK_NULL_HANDLE) destroyDescriptorPool(*ctx_, pool_);
        ctx_ = nullptr;
    }

private:
    VulkanContext* ctx_ = nullptr;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    Buffer placeholder_;
};

}  // namespace vkc::test
