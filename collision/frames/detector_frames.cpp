// Frames in flight of an image-space detector; see detector_frames.h.
#include "collision/frames/detector_frames.h"

#include "vk/descriptors.h"

#include <string>

namespace vkc {

Status createDetectorFrames(VulkanContext& ctx, const DetectorFramesDesc& desc, DetectorFrames& out) {
    const std::string method = desc.method;
    auto pool = createDescriptorPool(ctx, desc.descriptorSets, desc.poolSizes, (method + " descriptors").c_str());
    if (!pool) return pool.status();
    out.descriptorPool = pool.value();
    auto placeholder = createBuffer(ctx, {16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::DeviceLocal,
                                    (method + " unbound placeholder").c_str()});
    if (!placeholder) return placeholder.status();
    out.placeholder = placeholder.value();
    out.readback = desc.readback;
    out.gpuTimings = desc.gpuTimings;
    auto ring = createReadbackRing(ctx, out.readback.slotBytes(), desc.framesInFlight,
                                   (method + " readback ring").c_str());
    if (!ring) return ring.status();
    out.ring = ring.value();
    out.allocator = std::make_unique<VulkanGraphAllocator>(ctx);
    for (uint32_t slot = 0; slot < desc.framesInFlight; ++slot)
        out.slots.push_back(std::make_unique<PersistentResources>(*out.allocator, slot));
    out.slotWarnings.assign(desc.framesInFlight, {});
    return Status::success();
}

void destroyDetectorFrames(VulkanContext& ctx, DetectorFrames& frames) {
    frames.slots.clear();  // before the allocator that destroys their objects
    frames.allocator.reset();
    destroyReadbackRing(ctx, frames.ring);
    destroyBuffer(ctx, frames.placeholder);
    destroyDescriptorPool(ctx, frames.descriptorPool);
}

Status executeFrameGraph(const VulkanContext& ctx, DetectorFrames& frames, uint64_t frame, const Graph& graph,
                         VkCommandBuffer cmd) {
    auto execute = graphExecuteContext(ctx, graph, slotResources(frames, frame), frames.gpuTimings);
    if (!execute) return execute.status();
    VKC_TRY(graph.execute(cmd, execute.value()));
    ringFrameRecorded(frames.ring, frame);
    return Status::success();
}

Status readFrameTimings(const VulkanContext& ctx, DetectorFrames& frames, uint64_t frame, const Graph& graph,
                        std::map<std::string, double>& out) {
    out.clear();
    if (!frames.gpuTimings) return Status::success();
    return readPassTimings(ctx, *frames.allocator, graph, slotResources(frames, frame), out);
}

}  // namespace vkc
