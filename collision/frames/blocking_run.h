// The blocking run() of every detector and of the broadphase, written once on their non-blocking
// record / completionSignal / results triple: a one-shot submit that is waited for, after which
// the host signals the frame's read-back ring value itself, so results() reads the frame at once.
#pragma once

#include "collision/frames/candidate_pairs.h"
#include "collision/frames/detector_frames.h"
#include "collision/frames/gpu_candidates.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/results.h"

#include <functional>
#include <memory>

namespace vkc {

using RecordFrame = std::function<Status(VkCommandBuffer, uint64_t frame)>;

// Records the next blocking frame of `frames` with `record` into a one-shot submit named `label`,
// waits for it and marks the frame complete in the ring; returns the frame, whose results can be
// read at once. A refused recording's status is returned as is.
Result<uint64_t> recordAndWait(VulkanContext& ctx, DetectorFrames& frames, const char* label, const RecordFrame& record);

// recordAndWait, then `read` the frame into a new Results.
template <class Results>
Result<Results> runAndWait(VulkanContext& ctx, DetectorFrames& frames, const char* label, const RecordFrame& record,
                           const std::function<Status(uint64_t frame, Results&)>& read) {
    auto frame = recordAndWait(ctx, frames, label, record);
    if (!frame) return frame.status();
    Results out;
    VKC_TRY(read(frame.value(), out));
    return out;
}

// A detector's run(scene, pcs): runAndWait (label "<method> run"); a broadphase that truncated its
// pairs adds a warning that names `method`.
Result<FrameResults> runDetectorFrame(VulkanContext& ctx, DetectorFrames& frames, const char* method,
                                      const BroadphaseResults& pcs, const RecordFrame& record,
                                      const std::function<Status(uint64_t frame, FrameResults&)>& read);

// A detector's run(scene): its own broadphase (frames.broadphase, created on first use with
// `settings`, without timings when the detector has none), then `run` on the broadphase's pairs; the
// frame's GPU timings include the broadphase's.
Result<FrameResults> runAfterOwnBroadphase(Context& context, const BroadphaseSettings& settings, DetectorFrames& frames,
                                           const Scene& scene,
                                           const std::function<Result<FrameResults>(const BroadphaseResults&)>& run);

// A detector's GPU-driven run(scene): its own broadphase (as runAfterOwnBroadphase, with
// limits.settings.broadphase) and then `record` over the broadphase's frame in one submit, waited
// for; the frame's GPU timings include the broadphase's. More candidate pairs than
// maxCandidatePairs are refused as run(scene, pcs) refuses them, once the frame has counted them.
using RecordGpuDrivenFrame = std::function<Status(VkCommandBuffer, uint64_t frame, const GpuCandidates&)>;
Result<FrameResults> runGpuDriven(Context& context, const CandidateLimits& limits, DetectorFrames& frames,
                                  const Scene& scene, const RecordGpuDrivenFrame& record,
                                  const std::function<Status(uint64_t frame, FrameResults&)>& read);

// A blocking run of a detector that grows a capacity in place (results() gives the frames recorded
// next room for what a cut frame needed, within a budget of its settings): `once` again while its
// frame came back `truncated` and `capacity()` grew, so that the host's run() gives the answer.
// Each pass grows it strictly and within that budget, so this ends.
template <class Capacity, class RunOnce>
Result<FrameResults> runGrowingToNeed(Capacity&& capacity, RunOnce&& once) {
    for (;;) {
        const auto before = capacity();
        Result<FrameResults> out = once();
        if (!out || !out->truncated || capacity() == before) return out;
    }
}

}  // namespace vkc
