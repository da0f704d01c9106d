// Tests of PersistentResources with Graph::compile (passes/graph/persistent_resources.h): a frame slot's
// graphs get the previous frame's objects back when they fit, are ordered after that frame's last
// access, recreate what no longer fits, and everything is destroyed with the slot. No device.
#include "passes/graph/graph.h"
#include "tests/passes/fake_graph_allocator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace vkc {
namespace {

constexpr VkPipelineStageFlags2 kCS = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
constexpr VkPipelineStageFlags2 kTransfer = VK_PIPELINE_STAGE_2_TRANSFER_BIT;

// One frame: a compute pass writes `name`, a copy reads it.
struct WriteThenCopy {
    Graph graph;
    BufferHandle buffer;
    explicit WriteThenCopy(VkDeviceSize size, const char* name = "pairs") {
        buffer = graph.createBuffer(name, GraphBufferDesc{size});
        buffer = graph.addPass("write").write(buffer, Access::ComputeWrite);
        graph.addPass("copy").read(buffer, Access::TransferSrc);
    }
};

bool destroyed(const test::FakeGraphAllocator& allocator, VkBuffer buffer) {
    return std::count(allocator.destroyed.begin(), allocator.destroyed.end(), uintptr_t(buffer)) == 1;
}

TEST(PersistentResources, TheNextFrameReusesTheObjectAndWaitsForTheLastFramesAccesses) {
    test::FakeGraphAllocator allocator;
    PersistentResources slot(allocator, 1);
    WriteThenCopy first(256);
    ASSERT_TRUE(first.graph.compile(slot).ok());
    EXPECT_TRUE(first.graph.passBarriers(0).empty());  // a new object: nothing to wait for
    EXPECT_EQ(allocator.names, (std::vector<std::string>{"pairs [frame slot 1]"}));

    WriteThenCopy second(128);  // smaller: the object still fits
    ASSERT_TRUE(second.graph.compile(slot).ok());
    EXPECT_EQ(second.graph.buffer(second.buffer), first.graph.buffer(first.buffer));
    EXPECT_FALSE(second.graph.created(second.buffer));
    EXPECT_EQ(allocator.names.size(), 1u);
    // The write waits for the previous frame's write and copy (WAW and WAR) and flushes the write.
    ASSERT_EQ(second.graph.passBarriers(0).size(), 1u);
    const GraphBarrier& wait = second.graph.passBarriers(0)[0];
    EXPECT_EQ(wait.srcStages, kCS | kTransfer);
    EXPECT_EQ(wait.srcAccess, VkAccessFlags2(VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT));
    EXPECT_EQ(wait.dstStages, kCS);
}

TEST(PersistentResources, AFrameThatNeedsMoreGetsANewObjectAndTheOldOneIsDestroyed) {
    test::FakeGraphAllocator allocator;
    PersistentResources slot(allocator, 0);
    WriteThenCopy first(256);
    ASSERT_TRUE(first.graph.compile(slot).ok());
    WriteThenCopy bigger(512);
    ASSERT_TRUE(bigger.graph.compile(slot).ok());
    EXPECT_NE(bigger.graph.buffer(bigger.buffer), first.graph.buffer(first.buffer));
    EXPECT_TRUE(bigger.graph.created(bigger.buffer));
    EXPECT_TRUE(destroyed(allocator, first.graph.buffer(first.buffer)));
}

TEST(PersistentResources, UsageFlagsGrowToEveryAccessSeenSoFramesDoNotRecreateBackAndForth) {
    test::FakeGraphAllocator allocator;
    PersistentResources slot(allocator, 0);
    Graph storage;
    storage.addPass("write").write(storage.createBuffer("list", {64}), Access::ComputeWrite);
    ASSERT_TRUE(storage.compile(slot).ok());
    WriteThenCopy copied(64, "list");  // also a copy source: recreated with both usages
    ASSERT_TRUE(copied.graph.compile(slot).ok());
    ASSERT_EQ(allocator.bufferUsages.size(), 2u);
    EXPECT_EQ(allocator.bufferUsages[1], VkBufferUsageFlags(VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                            VK_BUFFER_USAGE_TRANSFER_SRC_BIT));
    Graph storageAgain;
    BufferHandle again = storageAgain.createBuffer("list", {64});
    storageAgain.addPass("write").write(again, Access::ComputeWrite);
    ASSERT_TRUE(storageAgain.compile(slot).ok());
    EXPECT_FALSE(storageAgain.created(again));
    EXPECT_EQ(allocator.bufferUsages.size(), 2u);
}

TEST(PersistentResources, PersistentAndHostWrittenBuffersKeepContentsTransientsDoNot) {
    test::FakeGraphAllocator allocator;
    PersistentResources slot(allocator, 0);
    Graph transient;
    transient.addPass("read").read(transient.createBuffer("cache", {64}), Access::ComputeRead);
    Status refused = transient.compile(slot);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.message.find("before any pass writes it"), std::string::npos) << refused.message;

    for (bool expectCreated : {true, false}) {
        Graph graph;
        BufferHandle cache = graph.persistentBuffer("tree", {64});
        BufferHandle objects = graph.createBuffer("objects", {64, 0, /*hostWrite*/ true});
        PassBuilder read = graph.addPass("read");
        read.read(cache, Access::ComputeRead);
        read.read(objects, Access::ComputeRead);
        ASSERT_TRUE(graph.compile(slot).ok());
        EXPECT_EQ(graph.created(cache), expectCreated);
    }
}

TEST(PersistentResources, ImagesAreDiscardedButWaitForTheLastFrame) {
    test::FakeGraphAllocator allocator;
    PersistentResources slot(allocator, 0);
    GraphImageDesc desc;
    desc.width = desc.height = 8;
    desc.format = VK_FORMAT_R32_UINT;
    VkImage first = VK_NULL_HANDLE;
    for (int frame = 0; frame < 2; ++frame) {
        Graph graph;
        ImageHandle ids = graph.createImage("ids", desc);
        ids = graph.addPass("draw").write(ids, Access::ColorAttachment);
        graph.addPass("scan").read(ids, Access::ComputeRead);
        ASSERT_TRUE(graph.compile(slot).ok());
        ASSERT_FALSE(graph.passBarriers(0).empty());
        const GraphBarrier& barrier = graph.passBarriers(0)[0];
        EXPECT_EQ(barrier.oldLayout, VK_IMAGE_LAYOUT_UNDEFINED);
        if (frame == 0) EXPECT_EQ(barrier.srcStages, VK_PIPELINE_STAGE_2_NONE);
        // The second frame's transition waits for the first frame's draw and scan.
        else EXPECT_EQ(barrier.srcStages, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | kCS);
    }
    EXPECT_EQ(allocator.names, (std::vector<std::string>{"ids [frame slot 0]"}));
}

TEST(PersistentResources, TimestampsGrowWithThePassesAndEverythingIsDestroyedWithTheSlot) {
    test::FakeGraphAllocator allocator;
    VkBuffer buffer = VK_NULL_HANDLE;
    {
        PersistentResources slot(allocator, 0);
        EXPECT_EQ(slot.currentTimestamps().pool, VkQueryPool(VK_NULL_HANDLE));  // none until asked for
        WriteThenCopy frame(64);
        ASSERT_TRUE(frame.graph.compile(slot).ok());
        buffer = frame.graph.buffer(frame.buffer);
        auto small = slot.timestamps(4);
        ASSERT_TRUE(small.ok());
        EXPECT_EQ(slot.timestamps(2)->pool, small->pool);  // fits: the same pool and results buffer
        EXPECT_EQ(slot.currentTimestamps().results, small->results);
        EXPECT_EQ(slot.currentTimestamps().queries, 4u);
        auto large = slot.timestamps(8);
        ASSERT_TRUE(large.ok());
        EXPECT_EQ(slot.currentTimestamps().pool, large->pool);
        EXPECT_EQ(slot.currentTimestamps().queries, 8u);
        EXPECT_EQ(allocator.timestampQueries, (std::vector<uint32_t>{4, 8}));
        EXPECT_EQ(allocator.destroyed, (std::vector<uintptr_t>{uintptr_t(small->pool)}));
        allocator.destroyed.clear();
        allocator.destroyed.push_back(uintptr_t(large->pool));  // expected below, in any order
    }
    EXPECT_EQ(allocator.destroyed.size(), 3u);
    EXPECT_TRUE(destroyed(allocator, buffer));
}

TEST(PersistentResources, TwoCreatedResourcesOfOneNameAreRefused) {
    test::FakeGraphAllocator allocator;
    PersistentResources slot(allocator, 0);
    Graph graph;
    PassBuilder pass = graph.addPass("write");
    pass.write(graph.createBuffer("list", {64}), Access::ComputeWrite);
    pass.write(graph.createBuffer("list", {64}), Access::ComputeWrite);
    Status status = graph.compile(slot);
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.message.find("two created buffers are named 'list'"), std::string::npos) << status.message;
}

}  // namespace
}  // namespace vkc
