// The GPU-driven collision methods the example records into its frames (aabb-tree, ebpi): each
// reads the pairs and boxes of the broadphase recorded before it into the same command buffer. One
// shape for the frame loop: record, the completion signal for the submit, results without waiting.
#pragma once

#include "vkcollide/broadphase.h"
#include "vkcollide/context.h"
#include "vkcollide/device_requirements.h"
#include "vkcollide/results.h"
#include "vkcollide/scene.h"

#include <volk.h>

#include <functional>
#include <memory>
#include <string>

namespace vkc::example {

struct GpuDrivenMethod {
    std::function<Status(VkCommandBuffer, const Scene&, const Broadphase&, uint64_t)> record;
    std::function<VkSemaphoreSubmitInfo(uint64_t)> completionSignal;
    std::function<Status(uint64_t, FrameResults&)> results;
    std::shared_ptr<void> detector;  // what the functions call
};

// The device features `method` needs; false for a method the example cannot run GPU-driven.
bool gpuDrivenFeatures(const std::string& method, FeatureSets& sets);

// `method` ("aabb-tree", or "ebpi" with `tolerance`, world units cubed per pair) on `context`.
Result<GpuDrivenMethod> createGpuDrivenMethod(Context& context, const std::string& method, uint32_t framesInFlight,
                                              double tolerance);

}  // namespace vkc::example
