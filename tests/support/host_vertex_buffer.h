// A host's interleaved vertex buffer on the device, for the tests in which the library reads
// positions in place with an offset and a stride (interleavePositions: `headerFloats` floats, then
// `strideFloats` a vertex with the position first, everything else -1000).
#pragma once

#include "tests/support/test_geometry.h"
#include "vk/buffer.h"

#include <vector>

namespace vkc::test {

// A device-local storage buffer holding `positions` interleaved; the caller destroys it.
inline Result<Buffer> createInterleavedVertexBuffer(VulkanContext& vk, const std::vector<glm::vec3>& positions,
                                                    uint32_t strideFloats, uint32_t headerFloats, const char* name) {
    const std::vector<float> data = interleavePositions(positions, strideFloats, headerFloats);
    const VkDeviceSize bytes = data.size() * sizeof(float);
    auto buffer = createBuffer(vk, {bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::DeviceLocal, name});
    if (!buffer) return buffer.status();
    Status uploaded = uploadBuffer(vk, buffer.value(), data.data(), bytes);
    if (uploaded.ok()) return buffer;
    destroyBuffer(vk, buffer.value());
    return uploaded;
}

}  // namespace vkc::test
