// The example's raster pass: every object shaded into an offscreen colour image (one per frame in
// flight), copied into a host-visible buffer for the PNG. Plain render pass and pipeline: what
// any renderer has, recorded into the same command buffer as vkcollide's passes.
#pragma once

#include "tools/examples/host_buffer.h"
#include "tools/examples/host_meshes.h"

#include <glm/glm.hpp>

#include <string>
#include <vector>

namespace vkc::example {

struct ObjectDraw {
    uint32_t mesh = 0;
    glm::mat4 objectToWorld{1.0f};
    glm::vec3 color{1.0f};
};

class FrameRenderer {
public:
    // Empty `error` on success.
    FrameRenderer(const HostDevice& host, uint32_t framesInFlight, std::string& error);
    ~FrameRenderer();

    // Draws `objects` with the camera `worldToClip` into slot `slot`'s image and copies it into
    // its read-back buffer (visible to the host once the submit completed).
    void record(VkCommandBuffer cmd, uint32_t slot, const HostMeshes& meshes, const glm::mat4& worldToClip,
                const std::vector<ObjectDraw>& objects) const;
    // Slot `slot`'s colour image, in TRANSFER_SRC_OPTIMAL after record() (a window's blit source).
    VkImage image(uint32_t slot) const { return slots_[slot].color; }
    // Slot `slot`'s last image, RGBA8, kImageWidth x kImageHeight.
    const uint8_t* pixels(uint32_t slot) const { return static_cast<const uint8_t*>(slots_[slot].readback.mapped); }

private:
    struct Target {
        VkImage color = VK_NULL_HANDLE, depth = VK_NULL_HANDLE;
        VkDeviceMemory colorMemory = VK_NULL_HANDLE, depthMemory = VK_NULL_HANDLE;
        VkImageView colorView = VK_NULL_HANDLE, depthView = VK_NULL_HANDLE;
        VkFramebuffer framebuffer = VK_NULL_HANDLE;
        HostBuffer readback;
    };
    std::string createPipeline();
    std::string createTarget(Target& target);

    const HostDevice& host_;
    VkRenderPass renderPass_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
    std::vector<Target> slots_;
};

}  // namespace vkc::example
