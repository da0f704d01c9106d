// Vertex buffers (the scene's, a caller's points) as the elements of a frame's vertex-buffer
// descriptor array (shaders_glsl/shared/vertex_fetch.h): each distinct buffer gets the next slot,
// bound from its start as far as the frame reads it (never VK_WHOLE_SIZE: a host's buffer may be
// larger than one storage-buffer binding reaches).
#pragma once

#include "vk/pipeline.h"
#include "vkcollide/status.h"

#include <vulkan/vulkan_core.h>

#include <string>
#include <unordered_map>
#include <vector>

namespace vkc {

// The array length a detector's pipeline layouts bound and its descriptor sets allocate:
// `mostBuffers` (the most distinct buffers its settings let one frame read), within the device's
// limit (maxVariableDescriptorCount).
uint32_t vertexBufferCapacity(const VulkanContext& ctx, uint32_t mostBuffers);

// `layout` with its vertex-buffer array bounded by `capacity`.
PipelineLayoutDesc withVertexBufferCapacity(PipelineLayoutDesc layout, uint32_t capacity);

class VertexBufferSlots {
public:
    // `capacity`: the array length. Errors read "<reading> more than <capacity> distinct vertex
    // buffers (<user>), ...", e.g. reading = "stencil: the candidate objects read".
    VertexBufferSlots(uint32_t capacity, std::string reading) : capacity_(capacity), reading_(std::move(reading)) {}

    // The slot of `buffer`, read up to `extent` bytes from its start; Unsupported once more than
    // `capacity` distinct buffers are used, naming the reader `user()` (a callable: the name is
    // built only for the error, as frames ask per object).
    template <class User>
    Result<uint32_t> slot(VkBuffer buffer, VkDeviceSize extent, const User& user) {
        const uint32_t assigned = assign(buffer, extent);
        if (buffers_.size() > capacity_) return tooMany(user());
        return assigned;
    }
    const std::vector<VkBuffer>& buffers() const { return buffers_; }
    // Per slot: its buffer from offset 0, as far as the farthest read of it.
    const std::vector<VkDescriptorBufferInfo>& bindings() const { return bindings_; }

private:
    uint32_t assign(VkBuffer buffer, VkDeviceSize extent);
    Status tooMany(const std::string& user) const;

    uint32_t capacity_;
    std::string reading_;
    std::vector<VkBuffer> buffers_;
    std::vector<VkDescriptorBufferInfo> bindings_;
    std::unordered_map<VkBuffer, uint32_t> slots_;
};

}  // namespace vkc
