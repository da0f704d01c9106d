// Frames in flight of an image-space detector; see detector_frames.h.
#include "collision/detector_frames.h"

#include "vk/descriptors.h"

#include <string>

namespace vkc {

Status createDetectorFrames(VulkanContext& ctx, const DetectorFramesDesc& desc, DetectorFrames& out) {
    const std::string method = desc.method;
    auto pool = createDescriptorPool(ctx, desc.descriptorSets, desc.poolSizes, (method + " descriptors").c_str());
    if (!pool) return pool.status();
    out.descriptorPool = pool.value();
    auto dummy = createBuffer(ctx, {16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::DeviceLocal,
                                    (method + " unused mesh slot").c_str()});
    if (!dummy) return dummy.status();
    out.dummyVertices = dummy.value();
    auto ring = createReadbackRing(ctx, desc.readbackBytes, desc.framesInFlight, (method + " readback ring").c_str());
    if (!ring) return ring.status();
    out.ring = ring.value();
    return Status::success();
}

void destroyDetectorFrames(VulkanContext& ctx, DetectorFrames& frames) {
    destroyReadbackRing(ctx, frames.ring);
    destroyBuffer(ctx, frames.dummyVertices);
    destroyDescriptorPool(ctx, frames.descriptorPool);
}

}  // namespace vkc
