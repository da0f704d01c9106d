// Vertex buffers as descriptor-array slots; see vertex_buffer_slots.h.
#include "collision/vertex_buffer_slots.h"

namespace vkc {

Result<uint32_t> VertexBufferSlots::slot(VkBuffer buffer, const std::string& user) {
    auto [it, inserted] = slots_.try_emplace(buffer, uint32_t(buffers_.size()));
    if (inserted) buffers_.push_back(buffer);
    if (buffers_.size() > capacity_)
        return makeError(ErrorCode::Unsupported, reading_ + " more than " + std::to_string(capacity_) +
                                                     " distinct vertex buffers (" + user + ")");
    return it->second;
}

}  // namespace vkc
