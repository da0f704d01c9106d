// Mapped read-back ring for frames in flight: N slots of host-visible memory, one per frame
// (slot = frame % N). The host adds ringSignal(frame) to the submit that writes the slot; the
// reader polls readRingSlot(frame) without blocking (a timeline-semaphore value per frame).
#pragma once

#include "vk/buffer.h"

#include <vector>

namespace vkc {

struct ReadbackRing {
    Buffer buffer;                 // slotCount * slotStride bytes, mapped
    VkDeviceSize slotSize = 0;     // as requested
    VkDeviceSize slotStride = 0;   // slotSize rounded up to storage-offset and atom alignment
    uint32_t slotCount = 0;
    VkSemaphore timeline = VK_NULL_HANDLE;  // value frame + 1 means "frame's slot is written"
    std::vector<uint64_t> slotFrame;        // frame + 1 last signalled into each slot; 0: none
    std::vector<uint64_t> slotRecorded;     // frame + 1 last recorded into each slot (signal maybe not yet handed out)
    uint64_t signalled = 0;                 // the highest frame + 1 whose signal was handed out
};

struct RingSlot {
    VkBuffer buffer;
    VkDeviceSize offset;
    VkDeviceSize size;
};

Result<ReadbackRing> createReadbackRing(VulkanContext& ctx, VkDeviceSize slotSize, uint32_t slotCount, const char* name);
void destroyReadbackRing(VulkanContext& ctx, ReadbackRing& ring);

// Where the GPU writes `frame`'s results (bind as a storage buffer or copy destination).
RingSlot ringSlot(const ReadbackRing& ring, uint64_t frame);
// Success when `frame`'s slot may be written (the frame that last used it has completed, or none
// has); NotReady while that frame is still in flight; InvalidArgument for a frame not after every
// frame whose signal was handed out (a timeline value cannot be signalled twice: the submit would
// fail, and lavapipe loses the device). Never blocks.
Status ringSlotAvailable(VulkanContext& ctx, const ReadbackRing& ring, uint64_t frame);
// Success when every frame recorded into the ring has had its signal handed out and has completed
// on the GPU (or none was recorded): the ring and what its frames used may be replaced. NotReady
// otherwise, naming the frame. Never blocks.
Status ringIdle(VulkanContext& ctx, const ReadbackRing& ring);
// Marks `frame` recorded into its slot: until ringSignal(frame) readRingSlot says NotReady for it,
// and InvalidArgument for the slot's earlier frame, whose data and state the new one replaces.
void ringFrameRecorded(ReadbackRing& ring, uint64_t frame);
// The signal to add to the submit that writes `frame`'s slot (which also marks it recorded).
// Frames must increase.
VkSemaphoreSubmitInfo ringSignal(ReadbackRing& ring, uint64_t frame);
// For blocking tools paths that already waited for the frame's submit: marks `frame` written and
// signals its timeline value from the host (instead of adding ringSignal to the submit).
Status signalRingFromHost(VulkanContext& ctx, ReadbackRing& ring, uint64_t frame);
// Records the barrier that makes the writes of `frame`'s slot visible to the host; put it after
// the last write to the slot, in the submit that signals ringSignal(frame).
void ringHostBarrier(const VulkanContext& ctx, VkCommandBuffer cmd, const ReadbackRing& ring, uint64_t frame);
// The slot's bytes once the GPU has finished with `frame`; NotReady before (never blocks), also
// while a recorded frame's signal has not been handed out; InvalidArgument when the frame was never
// recorded or its slot has been recorded again since.
Result<const void*> readRingSlot(VulkanContext& ctx, const ReadbackRing& ring, uint64_t frame);

}  // namespace vkc
