// The detectors' way to a recorded broadphase frame's GPU buffers (GPU-driven candidates,
// collision/frames/gpu_candidates.h).
#pragma once

#include "collision/frames/detector_frames.h"
#include "collision/frames/gpu_candidates.h"
#include "vkcollide/broadphase.h"

namespace vkc {

struct BroadphaseAccess {
    // The bounds and pair list `broadphase` recorded for `frame`. InvalidArgument when that frame
    // is not the last one recorded into its slot. The caller records its reads into the same
    // command buffer after the broadphase's (or a later one of the same submit).
    static Result<GpuCandidates> candidates(const Broadphase& broadphase, uint64_t frame);
    // Its frames (the blocking runs record it with a detector in one submit).
    static DetectorFrames& frames(Broadphase& broadphase);
};

// BroadphaseAccess::candidates with the error's message prefixed by "<method>: ".
Result<GpuCandidates> broadphaseCandidates(const Broadphase& broadphase, uint64_t frame, const char* method);

}  // namespace vkc
