// Tests of ReadbackLayout and addReadbackPass (passes/graph/readback_layout.h): regions get aligned
// offsets that size the ring slot, a decoder reads at exactly those offsets, and the read-back
// pass copies (and declares) only the regions a frame fills, query results included. No device.
#include "passes/graph/readback_layout.h"

#include <volk.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace vkc {
namespace {

TEST(ReadbackLayout, RegionsFollowEachOtherAlignedAndSizeTheSlot) {
    ReadbackLayout layout;
    EXPECT_EQ(layout.slotBytes(), 0u);
    EXPECT_EQ(layout.add(20), 0u);
    EXPECT_EQ(layout.add(0), 1u);  // an optional region left out by the settings
    EXPECT_EQ(layout.add(8), 2u);
    EXPECT_EQ(layout.offset(0), 0u);
    EXPECT_EQ(layout.offset(1), 32u);
    EXPECT_EQ(layout.offset(2), 32u);
    EXPECT_EQ(layout.slotBytes(), 40u);

    std::vector<uint32_t> slot(10, 0);
    slot[8] = 7;  // byte 32: region 2
    slot[9] = 9;
    EXPECT_EQ(layout.value<uint32_t>(slot.data(), 2), 7u);
    EXPECT_EQ(layout.span<uint32_t>(slot.data(), 2, 2)[1], 9u);
}

TEST(ReadbackLayout, ThePassCopiesOnlyTheRegionsAFrameFills) {
    ReadbackLayout layout;
    const uint32_t counts = layout.add(16), list = layout.add(64);
    Graph graph;
    BufferHandle header = graph.createBuffer("counts", {16});
    BufferHandle entries = graph.createBuffer("entries", {64});
    PassBuilder fill = graph.addPass("fill");
    header = fill.write(header, Access::ComputeWrite);
    ImportedBuffer ring;
    ring.buffer = reinterpret_cast<VkBuffer>(uintptr_t(0x10));
    ring.final = syncStateOf(Access::HostRead);
    BufferHandle slot = graph.importBuffer("ring slot", ring);
    // `entries` is empty this frame, and nothing wrote it: copying it would read a never-written
    // buffer, which compile() refuses.
    const ReadbackCopy copies[] = {{counts, header, 16}, {list, entries, 0}};
    addReadbackPass(graph, "readback", layout, slot, copies);
    ASSERT_TRUE(graph.compile().ok());
    ASSERT_EQ(graph.passCount(), 2u);
    EXPECT_EQ(graph.passName(1), "readback");
    const std::string dump = graph.dump();
    EXPECT_NE(dump.find("read buffer 'counts'"), std::string::npos) << dump;
    EXPECT_EQ(dump.find("read buffer 'entries'"), std::string::npos) << dump;
}

std::vector<std::string> gCopies;

VKAPI_ATTR void VKAPI_CALL fakeCopyBuffer(VkCommandBuffer, VkBuffer, VkBuffer, uint32_t, const VkBufferCopy* region) {
    gCopies.push_back("buffer to " + std::to_string(region->dstOffset) + "+" + std::to_string(region->size));
}

VKAPI_ATTR void VKAPI_CALL fakeCopyQueryPoolResults(VkCommandBuffer, VkQueryPool pool, uint32_t first, uint32_t count,
                                                    VkBuffer, VkDeviceSize offset, VkDeviceSize stride,
                                                    VkQueryResultFlags flags) {
    gCopies.push_back("queries " + std::to_string(reinterpret_cast<uintptr_t>(pool)) + ":" + std::to_string(first) +
                      "+" + std::to_string(count) + " to " + std::to_string(offset) + " stride " +
                      std::to_string(stride) + " flags " + std::to_string(flags));
}

VKAPI_ATTR void VKAPI_CALL fakeBarrier(VkCommandBuffer, const VkDependencyInfo*) {}

// Query results land in their region like buffer heads, 64-bit and waited for on the GPU, at the
// region's offset within the imported slot; an empty query range records nothing.
TEST(ReadbackLayout, ThePassCopiesQueryResultsIntoTheirRegion) {
    ReadbackLayout layout;
    const uint32_t counts = layout.add(16), samples = layout.add(6 * sizeof(uint64_t)), none = layout.add(8);
    Graph graph;
    BufferHandle header = graph.createBuffer("counts", {16});
    header = graph.addPass("fill").write(header, Access::ComputeWrite);
    ImportedBuffer ring;
    ring.buffer = reinterpret_cast<VkBuffer>(uintptr_t(0x10));
    ring.offset = 256;  // the frame's slot in the ring
    ring.size = layout.slotBytes();
    ring.final = syncStateOf(Access::HostRead);
    BufferHandle slot = graph.importBuffer("ring slot", ring);
    const ReadbackCopy copies[] = {{counts, header, 16}};
    const VkQueryPool pool = reinterpret_cast<VkQueryPool>(uintptr_t(0x7));
    const ReadbackQueries queries[] = {{samples, pool, 2, 6}, {none, pool, 0, 0}};
    addReadbackPass(graph, "readback", layout, slot, copies, queries);
    ASSERT_TRUE(graph.compile().ok());

    VolkDeviceTable device{};
    device.vkCmdPipelineBarrier2 = fakeBarrier;
    device.vkCmdCopyBuffer = fakeCopyBuffer;
    device.vkCmdCopyQueryPoolResults = fakeCopyQueryPoolResults;
    ExecuteContext context;
    context.device = &device;
    gCopies.clear();
    ASSERT_TRUE(graph.execute(reinterpret_cast<VkCommandBuffer>(uintptr_t(0xc0)), context).ok());
    const std::vector<std::string> expected = {
        "buffer to 256+16",
        "queries 7:2+6 to " + std::to_string(256 + layout.offset(samples)) + " stride 8 flags " +
            std::to_string(VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
    };
    EXPECT_EQ(gCopies, expected);
}

}  // namespace
}  // namespace vkc
