// The blocking run() calls; see blocking_run.h.
#include "collision/frames/blocking_run.h"

#include "vk/commands.h"

#include <string>

namespace vkc {

Result<uint64_t> recordAndWait(VulkanContext& ctx, DetectorFrames& frames, const char* label, const RecordFrame& record) {
    const uint64_t frame = frames.nextRunFrame++;
    Status recorded = Status::success();
    VKC_TRY(submitAndWait(ctx, [&](VkCommandBuffer cmd) { recorded = record(cmd, frame); }, label));
    VKC_TRY(recorded);
    // The submit has completed, so the host signals the frame's completion itself.
    VKC_TRY(signalRingFromHost(ctx, frames.ring, frame));
    return frame;
}

Result<FrameResults> runDetectorFrame(VulkanContext& ctx, DetectorFrames& frames, const char* method,
                                      const BroadphaseResults& pcs, const RecordFrame& record,
                                      const std::function<Status(uint64_t frame, FrameResults&)>& read) {
    auto out = runAndWait<FrameResults>(ctx, frames, (std::string(method) + " run").c_str(), record, read);
    if (out && pcs.truncated)
        out->warnings.push_back(std::string(method) + ": the potentially colliding set was truncated (" +
                                std::to_string(pcs.pairCount) + " pairs); pairs beyond its capacity were not tested");
    return out;
}

Result<FrameResults> runAfterOwnBroadphase(Context& context, const BroadphaseSettings& settings, DetectorFrames& frames,
                                           const Scene& scene,
                                           const std::function<Result<FrameResults>(const BroadphaseResults&)>& run) {
    std::unique_ptr<Broadphase>& own = frames.broadphase;
    if (!own) {
        BroadphaseSettings ownSettings = settings;
        ownSettings.disableGpuTimings = settings.disableGpuTimings || !frames.gpuTimings;
        auto broadphase = Broadphase::create(context, ownSettings);
        if (!broadphase) return broadphase.status();
        own = std::make_unique<Broadphase>(std::move(broadphase.value()));
    }
    auto pcs = own->run(scene);
    if (!pcs) return pcs.status();
    auto results = run(pcs.value());
    if (results) {
        for (const auto& [name, ms] : pcs->gpuTimingsMs) results->gpuTimingsMs[name] += ms;
    }
    return results;
}

}  // namespace vkc
