// Tests of ReadbackLayout and addReadbackPass (passes/graph/readback_layout.h): regions get aligned
// offsets that size the ring slot, a decoder reads at exactly those offsets, and the read-back
// pass copies (and declares) only the regions a frame fills. No device.
#include "passes/graph/readback_layout.h"

#include <gtest/gtest.h>

#include <cstdint>
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

}  // namespace
}  // namespace vkc
