// The read-back ring: one mapped buffer split in slots, and one timeline semaphore.
#include "vk/readback_ring.h"

#include "vk/commands.h"
#include "vk/debug.h"
#include "vk/timeline_semaphore.h"

#include <algorithm>
#include <string>

namespace vkc {

Result<ReadbackRing> createReadbackRing(VulkanContext& ctx, VkDeviceSize slotSize, uint32_t slotCount, const char* name) {
    std::string ringName = name ? name : "readback ring";
    if (slotSize == 0 || slotCount == 0)
        return makeError(ErrorCode::InvalidArgument, "readback ring '" + ringName + "' needs slots of non-zero size");
    const VkPhysicalDeviceLimits& limits = ctx.properties.limits;
    // 16: slots start where read-back layouts' regions may (16-byte offsets), so 64-bit query
    // results copied into them land on the 8-byte offsets vkCmdCopyQueryPoolResults needs.
    VkDeviceSize alignment =
        std::max({limits.minStorageBufferOffsetAlignment, limits.nonCoherentAtomSize, VkDeviceSize(16)});
    ReadbackRing ring;
    ring.slotSize = slotSize;
    ring.slotStride = (slotSize + alignment - 1) / alignment * alignment;
    ring.slotCount = slotCount;
    ring.slotFrame.assign(slotCount, 0);
    ring.slotRecorded.assign(slotCount, 0);
    Result<Buffer> buffer = createBuffer(ctx, {ring.slotStride * slotCount,
                                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                               MemoryUsage::Readback, ringName.c_str()});
    if (!buffer) return buffer.status();
    ring.buffer = buffer.value();

    auto timeline = createTimelineSemaphore(ctx, (ringName + " timeline").c_str());
    if (!timeline) {
        destroyReadbackRing(ctx, ring);
        return timeline.status();
    }
    ring.timeline = timeline.value();
    return ring;
}

void destroyReadbackRing(VulkanContext& ctx, ReadbackRing& ring) {
    destroyBuffer(ctx, ring.buffer);
    if (ring.timeline) ctx.vkd.vkDestroySemaphore(ctx.device, ring.timeline, ctx.allocationCallbacks);
    ring = ReadbackRing{};
}

RingSlot ringSlot(const ReadbackRing& ring, uint64_t frame) {
    return {ring.buffer.buffer, (frame % ring.slotCount) * ring.slotStride, ring.slotSize};
}

Status ringSlotAvailable(VulkanContext& ctx, const ReadbackRing& ring, uint64_t frame) {
    if (frame < ring.signalled)
        return makeError(ErrorCode::InvalidArgument,
                         "frame " + std::to_string(frame) + " is not after frame " + std::to_string(ring.signalled - 1) +
                             ", whose completion signal was already handed out: frame numbers must increase");
    uint64_t previous = ring.slotFrame[frame % ring.slotCount];
    if (previous == 0) return Status::success();
    auto value = timelineValue(ctx, ring.timeline);
    if (!value) return value.status();
    if (value.value() < previous)
        return makeError(ErrorCode::NotReady, "readback ring: slot of frame " + std::to_string(frame) +
                                                  " still holds frame " + std::to_string(previous - 1) + " in flight");
    return Status::success();
}

Status ringIdle(VulkanContext& ctx, const ReadbackRing& ring) {
    uint64_t last = 0;
    for (uint32_t s = 0; s < ring.slotCount; ++s) {
        if (ring.slotRecorded[s] != ring.slotFrame[s])
            return makeError(ErrorCode::NotReady, "frame " + std::to_string(ring.slotRecorded[s] - 1) +
                                                      " is recorded but its completion signal was not handed out");
        last = std::max(last, ring.slotFrame[s]);
    }
    if (last == 0) return Status::success();
    auto value = timelineValue(ctx, ring.timeline);
    if (!value) return value.status();
    if (value.value() < last)
        return makeError(ErrorCode::NotReady, "frame " + std::to_string(last - 1) + " is still in flight");
    return Status::success();
}

void ringFrameRecorded(ReadbackRing& ring, uint64_t frame) { ring.slotRecorded[frame % ring.slotCount] = frame + 1; }

VkSemaphoreSubmitInfo ringSignal(ReadbackRing& ring, uint64_t frame) {
    ringFrameRecorded(ring, frame);
    ring.slotFrame[frame % ring.slotCount] = frame + 1;
    ring.signalled = std::max(ring.signalled, frame + 1);
    VkSemaphoreSubmitInfo info = {VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    info.semaphore = ring.timeline;
    info.value = frame + 1;
    info.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;  // after every write to the slot
    return info;
}

Status signalRingFromHost(VulkanContext& ctx, ReadbackRing& ring, uint64_t frame) {
    const VkSemaphoreSubmitInfo signal = ringSignal(ring, frame);
    return signalTimelineFromHost(ctx, signal.semaphore, signal.value);
}

void ringHostBarrier(const VulkanContext& ctx, VkCommandBuffer cmd, const ReadbackRing& ring, uint64_t frame) {
    RingSlot slot = ringSlot(ring, frame);
    VkBufferMemoryBarrier2 barrier = bufferBarrier(slot.buffer, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                                   VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                                                   VK_ACCESS_2_HOST_READ_BIT, slot.offset, ring.slotStride);
    pipelineBarrier(ctx, cmd, {&barrier, 1});
}

Result<const void*> readRingSlot(VulkanContext& ctx, const ReadbackRing& ring, uint64_t frame) {
    if (ring.slotRecorded[frame % ring.slotCount] != frame + 1)
        return makeError(ErrorCode::InvalidArgument, "readback ring: frame " + std::to_string(frame) +
                                                         " was never recorded or its slot was reused");
    if (ring.slotFrame[frame % ring.slotCount] != frame + 1)
        return makeError(ErrorCode::NotReady, "frame " + std::to_string(frame) +
                                                  " is recorded but its completion signal was not handed out");
    auto value = timelineValue(ctx, ring.timeline);
    if (!value) return value.status();
    if (value.value() < frame + 1)
        return makeError(ErrorCode::NotReady, "frame " + std::to_string(frame) + " still in flight");
    RingSlot slot = ringSlot(ring, frame);
    VKC_TRY(invalidateBuffer(ctx, ring.buffer, slot.offset, ring.slotStride));
    return static_cast<const void*>(static_cast<const char*>(ring.buffer.data) + slot.offset);
}

}  // namespace vkc
