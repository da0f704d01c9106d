// A host's interleaved vertex buffer on the device, for the tests in which the library reads
// positions in place with an offset and a stride (interleavePositions: `headerFloats` floats, then
// `strideFloats` a vertex with the position first, everything else -1000).
#pragma once

#include "tests/support/test_geometry.h"
#include "vk/buffer.h"
#include "vkcollide/scene.h"

#include <string>
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

// Vertex buffers a test made as a host would, one per mesh; destroyed with this object, so declare
// it before the scene that reads them.
class HostVertexBuffers {
public:
    explicit HostVertexBuffers(VulkanContext& vk) : vk_(&vk) {}
    HostVertexBuffers(const HostVertexBuffers&) = delete;
    HostVertexBuffers& operator=(const HostVertexBuffers&) = delete;
    ~HostVertexBuffers() {
        for (Buffer& buffer : buffers_) destroyBuffer(*vk_, buffer);
    }

    // Adds `mesh` to `scene`, its positions read in place from a new buffer of its own.
    Result<MeshId> addMesh(Scene& scene, const MeshData& mesh, const std::string& name) {
        auto buffer = createInterleavedVertexBuffer(*vk_, mesh.positions, 3, 0, name.c_str());
        if (!buffer) return buffer.status();
        buffers_.push_back(buffer.value());
        return scene.addMesh({name.c_str(), &mesh, buffer->buffer, 0, 12});
    }

private:
    VulkanContext* vk_;
    std::vector<Buffer> buffers_;
};

}  // namespace vkc::test
