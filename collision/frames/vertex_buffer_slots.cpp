// Vertex buffers as descriptor-array slots; see vertex_buffer_slots.h.
#include "collision/frames/vertex_buffer_slots.h"

#include "vk/descriptors.h"

#include <algorithm>

namespace vkc {

uint32_t vertexBufferCapacity(const VulkanContext& ctx, uint32_t mostBuffers) {
    return std::max(1u, std::min(mostBuffers, maxVariableDescriptorCount(ctx)));
}

PipelineLayoutDesc withVertexBufferCapacity(PipelineLayoutDesc layout, uint32_t capacity) {
    layout.variableDescriptorCount = capacity;
    return layout;
}

uint32_t VertexBufferSlots::assign(VkBuffer buffer, VkDeviceSize extent) {
    auto [it, inserted] = slots_.try_emplace(buffer, uint32_t(buffers_.size()));
    if (inserted) {
        buffers_.push_back(buffer);
        bindings_.push_back({buffer, 0, extent});
    }
    VkDeviceSize& range = bindings_[it->second].range;
    range = std::max(range, extent);
    return it->second;
}

// Settings bound what a frame reads within the array's length, so only the device's
// storage-buffer limits (less what the other bindings need) can be exceeded.
Status VertexBufferSlots::tooMany(const std::string& user) const {
    return makeError(ErrorCode::Unsupported,
                     reading_ + " more than " + std::to_string(capacity_) + " distinct vertex buffers (" + user +
                         "), the most one descriptor array may hold within the device's "
                         "maxPerStageDescriptorStorageBuffers, maxDescriptorSetStorageBuffers and "
                         "maxPerStageResources");
}

}  // namespace vkc
