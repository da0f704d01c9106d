// Vertex buffers (the scene's, a caller's points) as the slots of a fixed-size storage-buffer
// descriptor array: each distinct buffer gets the next slot.
#pragma once

#include "vkcollide/status.h"

#include <vulkan/vulkan_core.h>

#include <string>
#include <unordered_map>
#include <vector>

namespace vkc {

class VertexBufferSlots {
public:
    // `capacity`: the array size. Errors read "<reading> more than <capacity> distinct vertex
    // buffers (<user>)", e.g. reading = "stencil: the candidate objects read".
    VertexBufferSlots(uint32_t capacity, std::string reading) : capacity_(capacity), reading_(std::move(reading)) {}

    // The slot of `buffer`; Unsupported once more than `capacity` distinct buffers are used.
    Result<uint32_t> slot(VkBuffer buffer, const std::string& user);
    const std::vector<VkBuffer>& buffers() const { return buffers_; }

private:
    uint32_t capacity_;
    std::string reading_;
    std::vector<VkBuffer> buffers_;
    std::unordered_map<VkBuffer, uint32_t> slots_;
};

}  // namespace vkc
