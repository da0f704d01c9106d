// The mapped read-back ring: a frame's slot is NotReady while its submit is held back by a
// timeline wait, then readable with the GPU's data once it completes; reused slots are refused.
#include "tests/support/host_frame_loop.h"
#include "tests/support/vulkan_test.h"
#include "vk/commands.h"
#include "vk/readback_ring.h"

#include <gtest/gtest.h>

#include <cstring>

namespace vkc {
namespace {

class ReadbackRingTest : public test::VulkanTest {};

TEST_F(ReadbackRingTest, SlotIsNotReadyUntilItsFrameCompletes) {
    const uint32_t kSlots = 3;
    Result<ReadbackRing> ring = createReadbackRing(vk(), 100, kSlots, "results ring");
    ASSERT_TRUE(ring.ok()) << ring.status().describe();
    EXPECT_EQ(ring->slotStride % vk().properties.limits.minStorageBufferOffsetAlignment, 0u);
    EXPECT_EQ(ring->slotStride % 16, 0u);  // 64-bit query results copied into slots need 8-byte offsets
    EXPECT_GE(ring->slotStride, 100u);

    // A gate the "host" opens later, so that the submit cannot have finished when we first poll.
    test::HostGate gate(vk());
    ASSERT_EQ(gate.created(), VK_SUCCESS);

    VkCommandBufferAllocateInfo allocInfo = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocInfo.commandPool = vk().oneShotPool;
    allocInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocInfo.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    ASSERT_EQ(vk().vkd.vkAllocateCommandBuffers(vk().device, &allocInfo, &cmd), VK_SUCCESS);

    const uint64_t frame = 4;  // slot 1
    RingSlot slot = ringSlot(ring.value(), frame);
    EXPECT_EQ(slot.offset, ring->slotStride * (frame % kSlots));
    VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    ASSERT_EQ(vk().vkd.vkBeginCommandBuffer(cmd, &begin), VK_SUCCESS);
    vk().vkd.vkCmdFillBuffer(cmd, slot.buffer, slot.offset, 100, 0xC0FFEE11u);
    ringHostBarrier(vk(), cmd, ring.value(), frame);
    ASSERT_EQ(vk().vkd.vkEndCommandBuffer(cmd), VK_SUCCESS);

    ASSERT_EQ(test::submitWithSignal(vk(), cmd, ringSignal(ring.value(), frame), &gate), VK_SUCCESS);
    // Its signal is handed out: neither it nor an earlier frame may be recorded again (the
    // timeline value cannot be signalled twice).
    for (uint64_t again : {frame, frame - 1})
        EXPECT_EQ(ringSlotAvailable(vk(), ring.value(), again).code, ErrorCode::InvalidArgument) << again;

    Result<const void*> early = readRingSlot(vk(), ring.value(), frame);
    EXPECT_FALSE(early.ok());
    EXPECT_EQ(early.status().code, ErrorCode::NotReady) << early.status().describe();
    // Frame 7 shares frame 4's slot: it must wait; frame 5's slot is free.
    EXPECT_EQ(ringSlotAvailable(vk(), ring.value(), frame + kSlots).code, ErrorCode::NotReady);
    EXPECT_TRUE(ringSlotAvailable(vk(), ring.value(), frame + 1).ok());
    // A frame never signalled is a caller error, not NotReady.
    EXPECT_EQ(readRingSlot(vk(), ring.value(), frame + 1).status().code, ErrorCode::InvalidArgument);

    ASSERT_EQ(gate.open(), VK_SUCCESS);

    // Poll as a frame loop would, up to the deadline.
    Result<const void*> data = readRingSlot(vk(), ring.value(), frame);
    Status read = test::pollUntilReady([&] {
        data = readRingSlot(vk(), ring.value(), frame);
        return data ? Status::success() : data.status();
    });
    ASSERT_TRUE(read.ok()) << read.describe();
    uint32_t words[25];
    memcpy(words, data.value(), sizeof(words));
    for (uint32_t w : words) EXPECT_EQ(w, 0xC0FFEE11u);

    EXPECT_TRUE(ringSlotAvailable(vk(), ring.value(), frame + kSlots).ok());
    // Frame 7 reuses slot 1: frame 4's data is gone and reading it is refused.
    (void)ringSignal(ring.value(), frame + kSlots);
    EXPECT_EQ(readRingSlot(vk(), ring.value(), frame).status().code, ErrorCode::InvalidArgument);

    ASSERT_EQ(vk().vkd.vkQueueWaitIdle(vk().queue), VK_SUCCESS);
    vk().vkd.vkFreeCommandBuffers(vk().device, vk().oneShotPool, 1, &cmd);
    destroyReadbackRing(vk(), ring.value());
}

// A frame recorded into its slot whose signal the host has not taken yet is NotReady, as a
// detector's results() documents; once a later frame is recorded into that slot, the earlier frame's
// data is gone (InvalidArgument) even before the later one's signal.
TEST_F(ReadbackRingTest, RecordedFrameIsNotReadyBeforeItsSignalAndGoneOnceItsSlotIsRecordedAgain) {
    Result<ReadbackRing> ring = createReadbackRing(vk(), 64, 2, "results ring");
    ASSERT_TRUE(ring.ok()) << ring.status().describe();
    ringFrameRecorded(ring.value(), 0);
    EXPECT_EQ(readRingSlot(vk(), ring.value(), 0).status().code, ErrorCode::NotReady);
    ASSERT_TRUE(signalRingFromHost(vk(), ring.value(), 0).ok());
    EXPECT_TRUE(readRingSlot(vk(), ring.value(), 0).ok());
    ringFrameRecorded(ring.value(), 2);
    EXPECT_EQ(readRingSlot(vk(), ring.value(), 0).status().code, ErrorCode::InvalidArgument);
    EXPECT_EQ(readRingSlot(vk(), ring.value(), 2).status().code, ErrorCode::NotReady);
    destroyReadbackRing(vk(), ring.value());
}

}  // namespace
}  // namespace vkc
