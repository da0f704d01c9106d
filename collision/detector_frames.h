// Frames in flight of an image-space detector (stencil, ldi, consistent-pairs): the descriptor
// pool its slots' sets come from, the read-back ring whose slot frame % framesInFlight holds a
// frame's results, and the blocking run() calls built on the non-blocking record / completionSignal
// / results triple (a one-shot submit, then the host signals the frame's ring value itself).
#pragma once

#include "vk/readback_ring.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/results.h"

#include <functional>
#include <memory>
#include <span>

namespace vkc {

struct DetectorFrames {
    VkDescriptorPool descriptorPool = VK_NULL_HANDLE;
    uint32_t vertexBufferCapacity = 0;  // length of each set's vertex-buffer array (vertex_buffer_slots.h)
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

// Blocking (tools and tests): records the next run frame with `record` into a one-shot submit
// named `label`, waits for it and marks the frame complete in the ring; returns the frame, whose
// results can be read at once.
Result<uint64_t> recordAndWait(VulkanContext& ctx, DetectorFrames& frames, const char* label,
                               const std::function<Status(VkCommandBuffer, uint64_t frame)>& record);

// A detector's run(scene, pcs): recordAndWait, then `read` the frame; a broadphase that truncated
// its pairs adds a warning that names `method`.
Result<FrameResults> runFrameAndWait(VulkanContext& ctx, DetectorFrames& frames, const char* method,
                                     const BroadphaseResults& pcs,
                                     const std::function<Status(VkCommandBuffer, uint64_t frame)>& record,
                                     const std::function<Status(uint64_t frame, FrameResults&)>& read);

// A detector's run(scene): its own broadphase (created on first use with `settings`), then `run`
// on the broadphase's pairs; the frame's GPU timings include the broadphase's.
Result<FrameResults> runAfterOwnBroadphase(Context& context, const BroadphaseSettings& settings, DetectorFrames& frames,
                                           const Scene& scene,
                                           const std::function<Result<FrameResults>(const BroadphaseResults&)>& run);

}  // namespace vkc
