// Tests of Graph::execute (passes/graph/graph.h) without a device: a VolkDeviceTable whose entries are
// fake functions appending to a call log, so the test sees which Vulkan commands the graph
// records, in which order, with which barriers, labels and query indices.
#include "passes/graph/graph.h"
#include "tests/passes/fake_graph_allocator.h"

#include <volk.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace vkc {
namespace {

std::vector<std::string> gCalls;

std::string hex(uint64_t value) {
    char text[32];
    std::snprintf(text, sizeof(text), "%llx", static_cast<unsigned long long>(value));
    return text;
}

VKAPI_ATTR void VKAPI_CALL fakePipelineBarrier2(VkCommandBuffer, const VkDependencyInfo* info) {
    std::string call = "barrier";
    for (uint32_t i = 0; i < info->bufferMemoryBarrierCount; ++i) {
        const VkBufferMemoryBarrier2& b = info->pBufferMemoryBarriers[i];
        call += " buffer=" + hex(uint64_t(reinterpret_cast<uintptr_t>(b.buffer))) + " " + hex(b.srcStageMask) + "/" +
                hex(b.srcAccessMask) + "->" + hex(b.dstStageMask) + "/" + hex(b.dstAccessMask) + " range=" +
                std::to_string(b.offset) + "+" + (b.size == VK_WHOLE_SIZE ? "all" : std::to_string(b.size));
    }
    for (uint32_t i = 0; i < info->imageMemoryBarrierCount; ++i) {
        const VkImageMemoryBarrier2& b = info->pImageMemoryBarriers[i];
        call += " image=" + hex(uint64_t(reinterpret_cast<uintptr_t>(b.image))) + " layout " +
                std::to_string(b.oldLayout) + "->" + std::to_string(b.newLayout) + " aspect=" +
                std::to_string(b.subresourceRange.aspectMask);
    }
    gCalls.push_back(call);
}

VKAPI_ATTR void VKAPI_CALL fakeWriteTimestamp2(VkCommandBuffer, VkPipelineStageFlags2 stage, VkQueryPool pool,
                                               uint32_t query) {
    gCalls.push_back("timestamp pool=" + hex(uint64_t(reinterpret_cast<uintptr_t>(pool))) + " query=" +
                     std::to_string(query) + " stage=" + hex(stage));
}

VKAPI_ATTR void VKAPI_CALL fakeResetQueryPool(VkCommandBuffer, VkQueryPool, uint32_t first, uint32_t count) {
    gCalls.push_back("reset " + std::to_string(first) + "+" + std::to_string(count));
}

VKAPI_ATTR void VKAPI_CALL fakeCopyQueryPoolResults(VkCommandBuffer, VkQueryPool pool, uint32_t first, uint32_t count,
                                                    VkBuffer buffer, VkDeviceSize offset, VkDeviceSize stride,
                                                    VkQueryResultFlags flags) {
    gCalls.push_back("copy queries pool=" + hex(uint64_t(reinterpret_cast<uintptr_t>(pool))) + " " +
                     std::to_string(first) + "+" + std::to_string(count) + " to buffer=" +
                     hex(uint64_t(reinterpret_cast<uintptr_t>(buffer))) + " offset=" + std::to_string(offset) +
                     " stride=" + std::to_string(stride) + " flags=" + hex(flags));
}

VKAPI_ATTR void VKAPI_CALL fakeBeginLabel(VkCommandBuffer, const VkDebugUtilsLabelEXT* label) {
    gCalls.push_back(std::string("label ") + label->pLabelName);
}

VKAPI_ATTR void VKAPI_CALL fakeEndLabel(VkCommandBuffer) { gCalls.push_back("end label"); }

VKAPI_ATTR void VKAPI_CALL fakeDispatch(VkCommandBuffer, uint32_t x, uint32_t, uint32_t) {
    gCalls.push_back("dispatch " + std::to_string(x));
}

VolkDeviceTable fakeDevice() {
    VolkDeviceTable table{};
    table.vkCmdPipelineBarrier2 = fakePipelineBarrier2;
    table.vkCmdWriteTimestamp2 = fakeWriteTimestamp2;
    table.vkCmdResetQueryPool = fakeResetQueryPool;
    table.vkCmdCopyQueryPoolResults = fakeCopyQueryPoolResults;
    table.vkCmdDispatch = fakeDispatch;
    return table;
}

VkCommandBuffer fakeCommandBuffer() { return reinterpret_cast<VkCommandBuffer>(uintptr_t(0xc0)); }

class FakeAllocator : public test::FakeGraphAllocator {
public:
    Result<GraphBuffer> createBuffer(const char*, const GraphBufferDesc&, VkBufferUsageFlags) override {
        return GraphBuffer{reinterpret_cast<VkBuffer>(uintptr_t(0xb1))};
    }
    Result<GraphImage> createImage(const char*, const GraphImageDesc&, VkImageUsageFlags) override {
        return GraphImage{reinterpret_cast<VkImage>(uintptr_t(0x11)), reinterpret_cast<VkImageView>(uintptr_t(0x12))};
    }
};

// Two passes over a transient buffer, an imported read-back slot and a transient depth image.
struct TwoPassGraph {
    Graph graph;
    VkBuffer seenBuffer = VK_NULL_HANDLE;
    VkImageView seenView = VK_NULL_HANDLE;
    VkDeviceSize seenOffset = 0;

    TwoPassGraph() {
        ImportedBuffer ring;
        ring.buffer = reinterpret_cast<VkBuffer>(uintptr_t(0xa0));
        ring.offset = 64;
        ring.size = 32;
        ring.final = syncStateOf(Access::HostRead);
        BufferHandle readback = graph.importBuffer("readback", ring);
        BufferHandle pairs = graph.createBuffer("pairs", GraphBufferDesc{128});
        GraphImageDesc depthDesc;
        depthDesc.width = 4;
        depthDesc.height = 4;
        depthDesc.format = VK_FORMAT_D32_SFLOAT;
        ImageHandle depth = graph.createImage("depth", depthDesc);

        PassBuilder find = graph.addPass("find");
        pairs = find.write(pairs, Access::ComputeWrite);
        depth = find.write(depth, Access::DepthStencilAttachment);
        find.setRecord([this, pairs, depth](VkCommandBuffer cmd, const PassResources& resources) {
            seenBuffer = resources.buffer(pairs);
            seenView = resources.imageView(depth);
            resources.device().vkCmdDispatch(cmd, 7, 1, 1);
        });
        PassBuilder copy = graph.addPass("copy");
        copy.read(pairs, Access::TransferSrc);
        readback = copy.write(readback, Access::TransferDst);
        copy.setRecord([this, readback](VkCommandBuffer cmd, const PassResources& resources) {
            seenOffset = resources.bufferOffset(readback);
            resources.device().vkCmdDispatch(cmd, 9, 1, 1);
        });
    }
};

TEST(GraphExecute, RecordsLabelsBarriersTimestampsAndCallbacksInOrder) {
    TwoPassGraph fixture;
    FakeAllocator allocator;
    ASSERT_TRUE(fixture.graph.compile(&allocator).ok());
    VolkDeviceTable device = fakeDevice();
    ExecuteContext context;
    context.device = &device;
    context.beginLabel = fakeBeginLabel;
    context.endLabel = fakeEndLabel;
    context.timestampPool = reinterpret_cast<VkQueryPool>(uintptr_t(0x9));
    context.firstQuery = 4;

    gCalls.clear();
    ASSERT_TRUE(fixture.graph.execute(fakeCommandBuffer(), context).ok());

    const std::string allCommands = hex(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    const std::vector<std::string> expected = {
        "reset 4+4",
        "label find",
        // First use of the depth image: UNDEFINED -> DEPTH_STENCIL_ATTACHMENT_OPTIMAL, depth aspect.
        "barrier image=11 layout 0->3 aspect=2",
        "timestamp pool=9 query=4 stage=" + allCommands,
        "dispatch 7",
        "timestamp pool=9 query=5 stage=" + allCommands,
        "end label",
        "label copy",
        // COMPUTE_SHADER/SHADER_STORAGE_WRITE -> ALL_TRANSFER/TRANSFER_READ on the whole transient.
        "barrier buffer=b1 800/400000000->1000/800 range=0+all",
        "timestamp pool=9 query=6 stage=" + allCommands,
        "dispatch 9",
        "timestamp pool=9 query=7 stage=" + allCommands,
        "end label",
        // Final: ALL_TRANSFER/TRANSFER_WRITE -> HOST/HOST_READ on the imported sub-range only.
        "barrier buffer=a0 1000/1000->4000/2000 range=64+32",
    };
    EXPECT_EQ(gCalls, expected);
    EXPECT_EQ(fixture.seenBuffer, reinterpret_cast<VkBuffer>(uintptr_t(0xb1)));
    EXPECT_EQ(fixture.seenView, reinterpret_cast<VkImageView>(uintptr_t(0x12)));
    EXPECT_EQ(fixture.seenOffset, 64u);
}

TEST(GraphExecute, WithoutLabelsOrTimestampsRecordsOnlyBarriersAndPasses) {
    TwoPassGraph fixture;
    ASSERT_TRUE(fixture.graph.compile().ok());
    VolkDeviceTable device = fakeDevice();
    ExecuteContext context;
    context.device = &device;

    gCalls.clear();
    ASSERT_TRUE(fixture.graph.execute(fakeCommandBuffer(), context).ok());
    ASSERT_EQ(gCalls.size(), 5u);
    EXPECT_EQ(gCalls[0].rfind("barrier image=0 ", 0), 0u) << gCalls[0];  // no allocator: null handle
    EXPECT_EQ(gCalls[1], "dispatch 7");
    EXPECT_EQ(gCalls[2].rfind("barrier buffer=0 ", 0), 0u) << gCalls[2];
    EXPECT_EQ(gCalls[3], "dispatch 9");
    EXPECT_EQ(gCalls[4].rfind("barrier buffer=a0 ", 0), 0u) << gCalls[4];
}

TEST(GraphExecute, CallerResetQueriesSkipsTheReset) {
    TwoPassGraph fixture;
    ASSERT_TRUE(fixture.graph.compile().ok());
    VolkDeviceTable device = fakeDevice();
    ExecuteContext context;
    context.device = &device;
    context.timestampPool = reinterpret_cast<VkQueryPool>(uintptr_t(0x9));
    context.resetQueries = false;
    gCalls.clear();
    ASSERT_TRUE(fixture.graph.execute(fakeCommandBuffer(), context).ok());
    ASSERT_FALSE(gCalls.empty());
    EXPECT_EQ(gCalls[0].rfind("barrier", 0), 0u) << gCalls[0];
    EXPECT_EQ(gCalls[1].rfind("timestamp pool=9 query=0", 0), 0u) << gCalls[1];
}

// With a results buffer, the GPU copies the timestamps after everything else (the final barriers
// included): ordered after the slot's previous copy, 64-bit, waiting on the GPU, then host-readable.
TEST(GraphExecute, CopiesTheTimestampsForTheHostAfterTheLastPass) {
    TwoPassGraph fixture;
    ASSERT_TRUE(fixture.graph.compile().ok());
    VolkDeviceTable device = fakeDevice();
    ExecuteContext context;
    context.device = &device;
    context.timestampPool = reinterpret_cast<VkQueryPool>(uintptr_t(0x9));
    context.firstQuery = 4;
    context.timestampResults = reinterpret_cast<VkBuffer>(uintptr_t(0xe0));
    gCalls.clear();
    ASSERT_TRUE(fixture.graph.execute(fakeCommandBuffer(), context).ok());

    ASSERT_GE(gCalls.size(), 4u);
    const std::vector<std::string> tail(gCalls.end() - 4, gCalls.end());
    const std::vector<std::string> expected = {
        "barrier buffer=a0 1000/1000->4000/2000 range=64+32",  // the graph's final barrier
        // ALL_TRANSFER/TRANSFER_WRITE -> ALL_TRANSFER/TRANSFER_WRITE: after the previous frame's copy.
        "barrier buffer=e0 1000/1000->1000/1000 range=0+32",
        "copy queries pool=9 4+4 to buffer=e0 offset=0 stride=8 flags=" +
            hex(VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
        // ALL_TRANSFER/TRANSFER_WRITE -> HOST/HOST_READ.
        "barrier buffer=e0 1000/1000->4000/2000 range=0+32",
    };
    EXPECT_EQ(tail, expected);

    device.vkCmdCopyQueryPoolResults = nullptr;
    gCalls.clear();
    Status status = fixture.graph.execute(fakeCommandBuffer(), context);
    EXPECT_FALSE(status.ok());
    EXPECT_NE(status.message.find("vkCmdCopyQueryPoolResults"), std::string::npos) << status.message;
    EXPECT_TRUE(gCalls.empty());
}

TEST(GraphExecute, RejectsUncompiledGraphAndMissingFunctions) {
    TwoPassGraph fixture;
    VolkDeviceTable device = fakeDevice();
    ExecuteContext context;
    context.device = &device;
    gCalls.clear();
    EXPECT_FALSE(fixture.graph.execute(fakeCommandBuffer(), context).ok());  // not compiled

    ASSERT_TRUE(fixture.graph.compile().ok());
    VolkDeviceTable empty{};
    context.device = &empty;
    Status status = fixture.graph.execute(fakeCommandBuffer(), context);
    EXPECT_FALSE(status.ok());
    EXPECT_NE(status.message.find("vkCmdPipelineBarrier2"), std::string::npos) << status.message;

    context.device = &device;
    device.vkCmdWriteTimestamp2 = nullptr;
    context.timestampPool = reinterpret_cast<VkQueryPool>(uintptr_t(0x9));
    EXPECT_FALSE(fixture.graph.execute(fakeCommandBuffer(), context).ok());
    EXPECT_TRUE(gCalls.empty());  // nothing recorded on any failure
}

}  // namespace
}  // namespace vkc
