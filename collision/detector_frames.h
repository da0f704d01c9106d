// Frames in flight of an image-space detector (stencil, ldi, consistent-pairs): the descriptor
// pool its slots' sets come from, the read-back ring whose slot frame % framesInFlight holds a
// frame's results, and what its blocking run() calls keep (collision/blocking_run.h).
#pragma once

#include "vk/readback_ring.h"
#include "vkcollide/broadphase.h"

#include <memory>
#include <span>

namespace vkc {

struct DetectorFrames {
    VkDescriptorPool descriptorPool = VK_NULL_HANDLE;
    Buffer dummyVertices;  // fills the unused mesh slots of the vertex-buffer descriptor arrays
    ReadbackRing ring;
    uint64_t nextRunFrame = 0;               // frames of the blocking calls
    std::unique_ptr<Broadphase> broadphase;  // for run(scene) only, created on first use
};

// Sizes and names of what createDetectorFrames makes; `method` prefixes every name ("ldi").
struct DetectorFramesDesc {
    const char* method = nullptr;
    uint32_t framesInFlight = 0;
    uint32_t descriptorSets = 0;                     // in all slots together
    std::span<const VkDescriptorPoolSize> poolSizes;  // in all slots together
    VkDeviceSize readbackBytes = 0;                  // one ring slot
};

Status createDetectorFrames(VulkanContext& ctx, const DetectorFramesDesc& desc, DetectorFrames& out);
void destroyDetectorFrames(VulkanContext& ctx, DetectorFrames& frames);

}  // namespace vkc
