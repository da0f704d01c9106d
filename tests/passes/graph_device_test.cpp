// Tier B: runs a small render graph on a real device (lavapipe in CI) under the validation layer.
// Transfer and dynamic-rendering passes need no shaders, yet exercise every barrier shape the graph
// derives (transient first use, attachment -> transfer transitions, RAW, WAR, the final HOST
// barrier of an imported read-back slot); the data read back proves the passes ran in order.
#include "collision/frames/vulkan_graph.h"
#include "passes/graph/graph.h"
#include "tests/support/vulkan_test.h"
#include "vk/buffer.h"
#include "vk/image.h"
#include "vk/query_pool.h"
#include "vk/commands.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace vkc {
namespace {

// The library's allocator (destroys what it made when the test ends, after the wait), recording
// the usage flags the graph derived.
class TestAllocator : public VulkanGraphAllocator {
public:
    using VulkanGraphAllocator::VulkanGraphAllocator;
    Result<GraphBuffer> createBuffer(const char* name, const GraphBufferDesc& desc, VkBufferUsageFlags usage) override {
        usages.push_back(usage);
        return VulkanGraphAllocator::createBuffer(name, desc, usage);
    }
    std::vector<VkBufferUsageFlags> usages;
};

class GraphDeviceTest : public test::VulkanTest {};

TEST_F(GraphDeviceTest, PassesRunInOrderWithValidBarriersAndTimestamps) {
    VulkanContext& ctx = vk();
    Result<Buffer> ring = createBuffer(ctx, BufferDesc{1024, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::Readback,
                                                        "readback ring"});
    ASSERT_TRUE(ring.ok()) << ring.status().describe();

    Graph graph;
    ImportedBuffer slot;
    slot.buffer = ring->buffer;
    slot.offset = 256;  // ring slot 1
    slot.size = 256;
    slot.final = syncStateOf(Access::HostRead);
    BufferHandle readback = graph.importBuffer("readback[1]", slot);
    BufferHandle pattern = graph.createBuffer("pattern", GraphBufferDesc{256});
    GraphImageDesc colorDesc;
    colorDesc.width = 4;
    colorDesc.height = 4;
    colorDesc.format = VK_FORMAT_R8G8B8A8_UNORM;
    ImageHandle color = graph.createImage("color", colorDesc);
    GraphImageDesc depthDesc = colorDesc;
    depthDesc.format = VK_FORMAT_D32_SFLOAT;
    ImageHandle depth = graph.createImage("depth", depthDesc);

    PassBuilder fill = graph.addPass("fill");
    pattern = fill.write(pattern, Access::TransferDst);
    fill.setRecord([pattern](VkCommandBuffer cmd, const PassResources& r) {
        r.device().vkCmdFillBuffer(cmd, r.buffer(pattern), 0, 256, 0x01020304u);
    });

    PassBuilder render = graph.addPass("render");
    color = render.write(color, Access::ColorAttachment);
    depth = render.write(depth, Access::DepthStencilAttachment);
    render.setRecord([color, depth](VkCommandBuffer cmd, const PassResources& r) {
        VkRenderingAttachmentInfo colorAttachment{};
        colorAttachment.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
        colorAttachment.imageView = r.imageView(color);
        colorAttachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        colorAttachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        colorAttachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        colorAttachment.clearValue.color = {{1.0f, 0.0f, 0.0f, 1.0f}};
        VkRenderingAttachmentInfo depthAttachment = colorAttachment;
        depthAttachment.imageView = r.imageView(depth);
        depthAttachment.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
        depthAttachment.clearValue.depthStencil = {0.5f, 0};
        VkRenderingInfo info{};
        info.sType = VK_STRUCTURE_TYPE_RENDERING_INFO;
        info.renderArea = {{0, 0}, {4, 4}};
        info.layerCount = 1;
        info.colorAttachmentCount = 1;
        info.pColorAttachments = &colorAttachment;
        info.pDepthAttachment = &depthAttachment;
        r.device().vkCmdBeginRendering(cmd, &info);
        r.device().vkCmdEndRendering(cmd);
    });

    PassBuilder copy = graph.addPass("copy");
    copy.read(pattern, Access::TransferSrc);
    copy.read(color, Access::TransferSrc);
    copy.read(depth, Access::TransferSrc);
    readback = copy.write(readback, Access::TransferDst);
    copy.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        VkBufferCopy region{0, r.bufferOffset(readback), 64};
        r.device().vkCmdCopyBuffer(cmd, r.buffer(pattern), r.buffer(readback), 1, &region);
        VkBufferImageCopy imageRegion{};
        imageRegion.bufferOffset = r.bufferOffset(readback) + 64;
        imageRegion.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        imageRegion.imageExtent = {4, 4, 1};
        r.device().vkCmdCopyImageToBuffer(cmd, r.image(color), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                          r.buffer(readback), 1, &imageRegion);
        imageRegion.bufferOffset = r.bufferOffset(readback) + 128;
        imageRegion.imageSubresource.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT;
        r.device().vkCmdCopyImageToBuffer(cmd, r.image(depth), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                          r.buffer(readback), 1, &imageRegion);
    });

    // Overwrites the pattern after the copy read it: write-after-read.
    PassBuilder refill = graph.addPass("refill");
    pattern = refill.write(pattern, Access::TransferDst);
    refill.setRecord([pattern](VkCommandBuffer cmd, const PassResources& r) {
        r.device().vkCmdFillBuffer(cmd, r.buffer(pattern), 0, 256, 0);
    });

    TestAllocator allocator(ctx);
    Status compiled = graph.compile(&allocator);
    ASSERT_TRUE(compiled.ok()) << compiled.describe();
    ASSERT_EQ(allocator.usages.size(), 1u);
    EXPECT_EQ(allocator.usages[0], VkBufferUsageFlags(VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT));

    const bool timestamps = ctx.timestampValidBits != 0;
    QueryPool pool;
    Buffer copiedTicks;  // where the GPU copies the pass timestamps for the host
    if (timestamps) {
        Result<QueryPool> created = createQueryPool(ctx, VK_QUERY_TYPE_TIMESTAMP, 2 + graph.timestampQueryCount(), "graph");
        ASSERT_TRUE(created.ok()) << created.status().describe();
        pool = created.value();
        Result<Buffer> buffer = createBuffer(ctx, {graph.timestampQueryCount() * sizeof(uint64_t),
                                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::Readback,
                                                   "graph timestamp results"});
        ASSERT_TRUE(buffer.ok()) << buffer.status().describe();
        copiedTicks = buffer.value();
    }
    ExecuteContext context;
    context.device = &ctx.vkd;
    context.beginLabel = ctx.vki.vkCmdBeginDebugUtilsLabelEXT;
    context.endLabel = ctx.vki.vkCmdEndDebugUtilsLabelEXT;
    context.timestampPool = pool.pool;
    context.firstQuery = 2;  // not 0: the offset must be honoured
    context.timestampResults = copiedTicks.buffer;
    Status executed = Status::success();
    Status submitted = submitAndWait(ctx, [&](VkCommandBuffer cmd) { executed = graph.execute(cmd, context); });
    ASSERT_TRUE(executed.ok()) << executed.describe();
    ASSERT_TRUE(submitted.ok()) << submitted.describe();

    ASSERT_TRUE(invalidateBuffer(ctx, ring.value()).ok());
    const auto* bytes = static_cast<const uint8_t*>(ring->data) + 256;
    uint32_t fillWord = 0, colorWord = 0;
    float depthValue = 0.0f;
    std::memcpy(&fillWord, bytes, 4);
    std::memcpy(&colorWord, bytes + 64, 4);
    std::memcpy(&depthValue, bytes + 128, 4);
    EXPECT_EQ(fillWord, 0x01020304u);  // copied before "refill" zeroed the pattern
    EXPECT_EQ(colorWord, 0xff0000ffu);  // RGBA8 (255, 0, 0, 255), little endian
    EXPECT_EQ(depthValue, 0.5f);

    if (timestamps) {
        std::vector<uint64_t> ticks(graph.timestampQueryCount());
        ASSERT_TRUE(readQueries(ctx, pool, 2, graph.timestampQueryCount(), ticks, QueryWait::Yes).ok());
        std::vector<PassTiming> timings = graph.passTimings(ticks, ctx.timestampPeriod, ctx.timestampValidBits);
        ASSERT_EQ(timings.size(), 4u);
        EXPECT_EQ(timings[0].name, "fill");
        EXPECT_EQ(timings[3].name, "refill");
        for (size_t i = 0; i + 1 < ticks.size(); ++i) EXPECT_LE(ticks[i], ticks[i + 1]) << "query " << i;
        // The GPU's copy holds the same values, so the host never needs to ask the driver.
        ASSERT_TRUE(invalidateBuffer(ctx, copiedTicks).ok());
        std::vector<uint64_t> copied(ticks.size());
        std::memcpy(copied.data(), copiedTicks.data, copied.size() * sizeof(uint64_t));
        EXPECT_EQ(copied, ticks);
        destroyBuffer(ctx, copiedTicks);
        destroyQueryPool(ctx, pool);
    }
    Buffer ringBuffer = ring.value();
    destroyBuffer(ctx, ringBuffer);
}

}  // namespace
}  // namespace vkc
