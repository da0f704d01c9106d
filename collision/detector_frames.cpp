// Frames in flight of an image-space detector; see detector_frames.h.
#include "collision/detector_frames.h"

#include "vk/commands.h"
#include "vk/descriptors.h"

#include <string>

namespace vkc {

Status createDetectorFrames(VulkanContext& ctx, const DetectorFramesDesc& desc, DetectorFrames& out) {
    const std::string method = desc.method;
    auto pool = createDescriptorPool(ctx, desc.descriptorSets, desc.poolSizes, (method + " descriptors").c_str());
    if (!pool) return pool.status();
    out.descriptorPool = pool.value();
    auto ring = createReadbackRing(ctx, desc.readbackBytes, desc.framesInFlight, (method + " readback ring").c_str());
    if (!ring) return ring.status();
    out.ring = ring.value();
    return Status::success();
}

void destroyDetectorFrames(VulkanContext& ctx, DetectorFrames& frames) {
    destroyReadbackRing(ctx, frames.ring);
    destroyDescriptorPool(ctx, frames.descriptorPool);
}

Result<uint64_t> recordAndWait(VulkanContext& ctx, DetectorFrames& frames, const char* label,
                               const std::function<Status(VkCommandBuffer, uint64_t frame)>& record) {
    const uint64_t frame = frames.nextRunFrame++;
    Status recorded = Status::success();
    VKC_TRY(submitAndWait(ctx, [&](VkCommandBuffer cmd) { recorded = record(cmd, frame); }, label));
    VKC_TRY(recorded);
    // The submit has completed, so the host signals the frame's completion itself.
    VKC_TRY(signalRingFromHost(ctx, frames.ring, frame));
    return frame;
}

Result<FrameResults> runFrameAndWait(VulkanContext& ctx, DetectorFrames& frames, const char* method,
                                     const BroadphaseResults& pcs,
                                     const std::function<Status(VkCommandBuffer, uint64_t frame)>& record,
                                     const std::function<Status(uint64_t frame, FrameResults&)>& read) {
    auto frame = recordAndWait(ctx, frames, (std::string(method) + " run").c_str(), record);
    if (!frame) return frame.status();
    FrameResults out;
    VKC_TRY(read(frame.value(), out));
    if (pcs.truncated)
        out.warnings.push_back(std::string(method) + ": the potentially colliding set was truncated (" +
                               std::to_string(pcs.pairCount) + " pairs); pairs beyond its capacity were not tested");
    return out;
}

Result<FrameResults> runAfterOwnBroadphase(Context& context, const BroadphaseSettings& settings, DetectorFrames& frames,
                                           const Scene& scene,
                                           const std::function<Result<FrameResults>(const BroadphaseResults&)>& run) {
    if (!frames.broadphase) {
        auto broadphase = Broadphase::create(context, settings);
        if (!broadphase) return broadphase.status();
        frames.broadphase = std::make_unique<Broadphase>(std::move(broadphase.value()));
    }
    auto pcs = frames.broadphase->run(scene);
    if (!pcs) return pcs.status();
    auto results = run(pcs.value());
    if (results) {
        for (const auto& [name, ms] : pcs->gpuTimingsMs) results->gpuTimingsMs[name] += ms;
    }
    return results;
}

}  // namespace vkc
