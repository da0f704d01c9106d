// The blocking run() calls; see blocking_run.h.
#include "collision/frames/blocking_run.h"

#include "collision/broadphase/broadphase_candidates.h"
#include "vk/commands.h"

#include <algorithm>
#include <string>

namespace vkc {
namespace {

// `submitted` as is; when it failed, `frame` never ran, and its slot forgets what it assumed.
Status discardIfFailed(DetectorFrames& frames, uint64_t frame, Status submitted) {
    if (!submitted.ok() && frames.discardFrame) frames.discardFrame(frame);
    return submitted;
}

}  // namespace

Result<uint64_t> recordAndWait(VulkanContext& ctx, DetectorFrames& frames, const char* label, const RecordFrame& record) {
    // After any frame the host recorded through record() too: timeline values only grow.
    const uint64_t frame = std::max(frames.nextRunFrame, frames.ring.signalled);
    frames.nextRunFrame = frame + 1;
    Status recorded = Status::success();
    VKC_TRY(discardIfFailed(frames, frame, submitAndWait(ctx, [&](VkCommandBuffer cmd) { recorded = record(cmd, frame); }, label)));
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

namespace {

// frames.broadphase, created on first use with `settings` (without timings when the detector has none).
Result<Broadphase*> ownBroadphase(Context& context, const BroadphaseSettings& settings, DetectorFrames& frames) {
    std::unique_ptr<Broadphase>& own = frames.broadphase;
    if (!own) {
        BroadphaseSettings ownSettings = settings;
        ownSettings.disableGpuTimings = settings.disableGpuTimings || !frames.gpuTimings;
        auto broadphase = Broadphase::create(context, ownSettings);
        if (!broadphase) return broadphase.status();
        own = std::make_unique<Broadphase>(std::move(broadphase.value()));
    }
    return own.get();
}

}  // namespace

Result<FrameResults> runAfterOwnBroadphase(Context& context, const BroadphaseSettings& settings, DetectorFrames& frames,
                                           const Scene& scene,
                                           const std::function<Result<FrameResults>(const BroadphaseResults&)>& run) {
    auto own = ownBroadphase(context, settings, frames);
    if (!own) return own.status();
    auto pcs = own.value()->run(scene);
    if (!pcs) return pcs.status();
    auto results = run(pcs.value());
    if (results) {
        for (const auto& [name, ms] : pcs->gpuTimingsMs) results->gpuTimingsMs[name] += ms;
    }
    return results;
}

Result<FrameResults> runGpuDriven(Context& context, const CandidateLimits& limits, DetectorFrames& frames,
                                  const Scene& scene, const RecordGpuDrivenFrame& record,
                                  const std::function<Status(uint64_t frame, FrameResults&)>& read) {
    const std::string method = limits.method;
    auto own = ownBroadphase(context, limits.settings.broadphase, frames);
    if (!own) return own.status();
    Broadphase& broadphase = *own.value();
    DetectorFrames& broadphaseFrames = BroadphaseAccess::frames(broadphase);
    VulkanContext& ctx = vulkanOf(context);
    const uint64_t broadphaseFrame = broadphaseFrames.nextRunFrame++;
    // After any frame the host recorded through record() too: timeline values only grow.
    const uint64_t frame = std::max(frames.nextRunFrame, frames.ring.signalled);
    frames.nextRunFrame = frame + 1;
    Status broadphaseRecorded = Status::success(), recorded = Status::success();
    VKC_TRY(discardIfFailed(frames, frame,
                            submitAndWait(
                                ctx,
                                [&](VkCommandBuffer cmd) {
                                    broadphaseRecorded = broadphase.record(cmd, scene, broadphaseFrame);
                                    if (!broadphaseRecorded.ok()) return;
                                    auto candidates = BroadphaseAccess::candidates(broadphase, broadphaseFrame);
                                    recorded = candidates ? record(cmd, frame, candidates.value()) : candidates.status();
                                },
                                (method + " run").c_str())));
    VKC_TRY(broadphaseRecorded);
    // The submit has completed, so the host signals the frames' completion itself (the
    // broadphase's also when the detector refused, so its slot is free again).
    VKC_TRY(signalRingFromHost(ctx, broadphaseFrames.ring, broadphaseFrame));
    VKC_TRY(recorded);
    VKC_TRY(signalRingFromHost(ctx, frames.ring, frame));
    BroadphaseResults pcs;
    VKC_TRY(broadphase.results(broadphaseFrame, pcs));
    VKC_TRY(checkCandidateCount(limits, pcs.pairCount));
    FrameResults out;
    VKC_TRY(read(frame, out));
    for (const auto& [name, ms] : pcs.gpuTimingsMs) out.gpuTimingsMs[name] += ms;
    return out;
}

}  // namespace vkc
