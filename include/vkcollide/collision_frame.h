// One object a renderer records every frame: the broadphase and the GPU-driven methods it chose
// (aabb-tree, ebpi, stencil, consistent-pairs, ldi), each reading the broadphase's pairs and boxes on the GPU, with ONE completion
// signal for the host's submit and ONE non-blocking results call.
//
//   auto collisions = CollisionFrame::create(context, {.aabbTree = AabbTreeSettings{}});
//   collisions->record(cmd, scene, frame);                          // into the host's command buffer
//   VkSemaphoreSubmitInfo done = collisions->completionSignal(frame);  // add to that vkQueueSubmit2
//   CollisionFrameResults r;
//   if (collisions->results(frame - 2, r).ok()) { /* r.aabbTree->pairs ... */ }  // else NotReady
//
// What record() leaves bound: compute (and with the image-space methods graphics) pipelines, their descriptor
// sets, push constants and index buffer (the host rebinds its own before its next dispatch or
// draw; no render pass stays open). What it allocates: the members' per-slot buffers on a slot's
// first frames and when a scene outgrows them (nothing else per frame). What the host
// synchronises: vkcollide's passes read the scene's vertex buffers in compute shaders (and the
// image-space methods' in vertex shaders), so the host's next write to one (a deformation pass, a copy) must
// wait for this frame's reads: in the same queue, a barrier from COMPUTE_SHADER | VERTEX_SHADER
// (SHADER_STORAGE_READ) to the writing stage after record(); and a host write to a mapped buffer
// only once this frame's signal has passed. The frame's writes by vkcollide never touch the
// host's buffers.
// Errors of record(): those of the broadphase and the detectors (vkcollide/detector.h); on an
// error the command buffer may hold the members recorded before it: reset it, do not submit it.
#pragma once

#include "vkcollide/aabb_tree.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/consistent_pairs.h"
#include "vkcollide/context.h"
#include "vkcollide/ebpi.h"
#include "vkcollide/ldi.h"
#include "vkcollide/results.h"
#include "vkcollide/scene.h"
#include "vkcollide/stencil.h"
#include "vkcollide/status.h"
#include "vkcollide/vulkan_types.h"

#include <memory>
#include <optional>

namespace vkc {

struct CollisionFrameSettings {
    uint32_t framesInFlight = 0;  // 0: 2; every member's (their own framesInFlight is ignored)
    BroadphaseSettings broadphase;
    std::optional<AabbTreeSettings> aabbTree;  // present: exact triangle pairs every frame
    std::optional<EbpiSettings> ebpi;          // present: intersection volumes every frame
    std::optional<StencilSettings> stencil;    // present: interfering pairs and edge points every frame
    std::optional<ConsistentPairsSettings> consistentPairs;  // present: colliding pairs and points every frame
    std::optional<LdiSettings> ldi;            // present: intersection volumes and inside vertices every frame
                                               // (bounded from the drawn triangles: LdiErrorBound)
};

struct CollisionFrameResults {
    BroadphaseResults broadphase;
    std::optional<FrameResults> aabbTree;  // each present when the method was chosen
    std::optional<FrameResults> ebpi;
    std::optional<FrameResults> stencil;
    std::optional<FrameResults> consistentPairs;
    std::optional<FrameResults> ldi;
};

struct CollisionFrameImpl;

// Lifetime: must not outlive its Context.
class CollisionFrame {
public:
    // Errors: those of Broadphase::create and the chosen detectors' create().
    static Result<CollisionFrame> create(Context& context, const CollisionFrameSettings& settings);
    CollisionFrame(CollisionFrame&&) noexcept;
    CollisionFrame& operator=(CollisionFrame&&) noexcept;
    ~CollisionFrame();

    // The broadphase, then each chosen method from its pairs, into `cmd` (frames increase by one;
    // NotReady while frame - framesInFlight has not completed).
    Status record(VkCommandBuffer cmd, const Scene& scene, uint64_t frame);
    // The one signal the host's submit of `cmd` adds (a timeline value of the frame's semaphore).
    VkSemaphoreSubmitInfo completionSignal(uint64_t frame);
    // NotReady until the GPU finished `frame`; never blocks (every result is in read-back memory).
    Status results(uint64_t frame, CollisionFrameResults& out);

    const CollisionFrameSettings& settings() const;

private:
    explicit CollisionFrame(std::unique_ptr<CollisionFrameImpl> impl);
    std::unique_ptr<CollisionFrameImpl> impl_;
};

}  // namespace vkc
