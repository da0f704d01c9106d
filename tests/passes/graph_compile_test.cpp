// Tests of Graph::compile (passes/graph/graph.h): barriers derived for each hazard, layout transitions,
// imported initial/final states, usage flags for transients, and rejected graphs. No device.
#include "passes/graph/graph.h"
#include "tests/passes/fake_graph_allocator.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace vkc {
namespace {

constexpr VkPipelineStageFlags2 kCS = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
constexpr VkAccessFlags2 kStorageRead = VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
constexpr VkAccessFlags2 kStorageWrite = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
constexpr VkPipelineStageFlags2 kTests =
    VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;

using test::fakeBuffer;
using test::fakeImage;

GraphImageDesc depthDesc() {
    GraphImageDesc desc;
    desc.width = 64;
    desc.height = 32;
    desc.format = VK_FORMAT_D32_SFLOAT;
    return desc;
}

GraphImageDesc colorDesc() {
    GraphImageDesc desc;
    desc.width = 16;
    desc.height = 16;
    desc.format = VK_FORMAT_R32_UINT;
    return desc;
}

TEST(GraphCompile, ComputeWriteThenComputeReadBuffer) {
    Graph graph;
    BufferHandle pcs = graph.createBuffer("pcs", GraphBufferDesc{256});
    PassBuilder writer = graph.addPass("write");
    BufferHandle written = writer.write(pcs, Access::ComputeWrite);
    EXPECT_EQ(written.index, pcs.index);
    EXPECT_EQ(written.version, pcs.version + 1);
    graph.addPass("read").read(written, Access::ComputeRead);
    ASSERT_TRUE(graph.compile().ok());

    // A transient buffer's first write has nothing to wait for.
    EXPECT_TRUE(graph.passBarriers(0).empty());
    ASSERT_EQ(graph.passBarriers(1).size(), 1u);
    const GraphBarrier& barrier = graph.passBarriers(1)[0];
    EXPECT_FALSE(barrier.isImage);
    EXPECT_EQ(barrier.resource, pcs.index);
    EXPECT_EQ(barrier.srcStages, kCS);
    EXPECT_EQ(barrier.srcAccess, kStorageWrite);
    EXPECT_EQ(barrier.dstStages, kCS);
    EXPECT_EQ(barrier.dstAccess, kStorageRead);
    EXPECT_TRUE(graph.finalBarriers().empty());
}

TEST(GraphCompile, ComputeWriteThenIndirectRead) {
    Graph graph;
    BufferHandle args = graph.createBuffer("args", GraphBufferDesc{16});
    args = graph.addPass("build-args").write(args, Access::ComputeWrite);
    graph.addPass("draw").read(args, Access::IndirectRead);
    ASSERT_TRUE(graph.compile().ok());
    ASSERT_EQ(graph.passBarriers(1).size(), 1u);
    const GraphBarrier& barrier = graph.passBarriers(1)[0];
    EXPECT_EQ(barrier.srcStages, kCS);
    EXPECT_EQ(barrier.srcAccess, kStorageWrite);
    EXPECT_EQ(barrier.dstStages, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
    EXPECT_EQ(barrier.dstAccess, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
}

TEST(GraphCompile, ReadAfterReadNeedsNoBarrier) {
    Graph graph;
    BufferHandle data = graph.createBuffer("data", GraphBufferDesc{64});
    data = graph.addPass("produce").write(data, Access::ComputeWrite);
    graph.addPass("consume-a").read(data, Access::ComputeRead);
    graph.addPass("consume-b").read(data, Access::ComputeRead);
    ASSERT_TRUE(graph.compile().ok());
    EXPECT_EQ(graph.passBarriers(1).size(), 1u);
    EXPECT_TRUE(graph.passBarriers(2).empty());
}

TEST(GraphCompile, ReadInAnotherStageStillNeedsTheWriteMadeVisible) {
    Graph graph;
    BufferHandle data = graph.createBuffer("data", GraphBufferDesc{64});
    data = graph.addPass("produce").write(data, Access::ComputeWrite);
    graph.addPass("consume-cs").read(data, Access::ComputeRead);
    graph.addPass("consume-indirect").read(data, Access::IndirectRead);
    ASSERT_TRUE(graph.compile().ok());
    ASSERT_EQ(graph.passBarriers(2).size(), 1u);
    EXPECT_EQ(graph.passBarriers(2)[0].srcAccess, kStorageWrite);
    EXPECT_EQ(graph.passBarriers(2)[0].dstStages, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
}

TEST(GraphCompile, DepthAttachmentWriteThenSampledReadTransitionsLayout) {
    Graph graph;
    ImageHandle depth = graph.createImage("depth", depthDesc());
    depth = graph.addPass("depth-peel").write(depth, Access::DepthStencilAttachment);
    graph.addPass("sample").read(depth, Access::SampledRead);
    ASSERT_TRUE(graph.compile().ok());

    // First use of a transient image: from UNDEFINED, nothing to wait for.
    ASSERT_EQ(graph.passBarriers(0).size(), 1u);
    const GraphBarrier& first = graph.passBarriers(0)[0];
    EXPECT_TRUE(first.isImage);
    EXPECT_EQ(first.oldLayout, VK_IMAGE_LAYOUT_UNDEFINED);
    EXPECT_EQ(first.newLayout, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
    EXPECT_EQ(first.srcStages, VK_PIPELINE_STAGE_2_NONE);
    EXPECT_EQ(first.srcAccess, VK_ACCESS_2_NONE);
    EXPECT_EQ(first.dstStages, kTests);

    ASSERT_EQ(graph.passBarriers(1).size(), 1u);
    const GraphBarrier& second = graph.passBarriers(1)[0];
    EXPECT_EQ(second.oldLayout, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
    EXPECT_EQ(second.newLayout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    EXPECT_EQ(second.srcStages, kTests);
    EXPECT_EQ(second.srcAccess, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
    EXPECT_EQ(second.dstAccess, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
}

TEST(GraphCompile, TransientStorageImageFirstUseTransitionsFromUndefined) {
    Graph graph;
    ImageHandle counts = graph.createImage("counts", colorDesc());
    graph.addPass("clear").write(counts, Access::ComputeWrite);
    ASSERT_TRUE(graph.compile().ok());
    ASSERT_EQ(graph.passBarriers(0).size(), 1u);
    EXPECT_EQ(graph.passBarriers(0)[0].oldLayout, VK_IMAGE_LAYOUT_UNDEFINED);
    EXPECT_EQ(graph.passBarriers(0)[0].newLayout, VK_IMAGE_LAYOUT_GENERAL);
    EXPECT_EQ(graph.passBarriers(0)[0].dstAccess, kStorageWrite);
}

TEST(GraphCompile, ReadAfterReadWithLayoutChangeTransitions) {
    Graph graph;
    ImageHandle depth = graph.createImage("depth", depthDesc());
    depth = graph.addPass("render").write(depth, Access::DepthStencilAttachment);
    graph.addPass("test-only").read(depth, Access::DepthStencilReadOnly);
    graph.addPass("sample").read(depth, Access::SampledRead);
    ASSERT_TRUE(graph.compile().ok());
    ASSERT_EQ(graph.passBarriers(2).size(), 1u);
    const GraphBarrier& barrier = graph.passBarriers(2)[0];
    EXPECT_EQ(barrier.oldLayout, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL);
    EXPECT_EQ(barrier.newLayout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    // The transition must wait for the depth test reads it overwrites.
    EXPECT_EQ(barrier.srcStages & kTests, kTests);
}

TEST(GraphCompile, ImportedBufferStartsAndEndsInHostDeclaredState) {
    Graph graph;
    ImportedBuffer imported;
    imported.buffer = fakeBuffer(0x100);
    imported.initial = syncStateOf(Access::TransferDst);  // the host uploaded vertices with a copy
    imported.final = syncStateOf(Access::TransferDst);    // and will overwrite them next frame
    BufferHandle vertices = graph.importBuffer("vertices", imported);
    graph.addPass("aabbs").read(vertices, Access::ComputeRead);
    ASSERT_TRUE(graph.compile().ok());

    ASSERT_EQ(graph.passBarriers(0).size(), 1u);
    const GraphBarrier& first = graph.passBarriers(0)[0];
    EXPECT_EQ(first.srcStages, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    EXPECT_EQ(first.srcAccess, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    EXPECT_EQ(first.dstStages, kCS);
    EXPECT_EQ(first.dstAccess, kStorageRead);

    // Handing back for a host write is write-after-read: wait for our reads, nothing to flush.
    ASSERT_EQ(graph.finalBarriers().size(), 1u);
    const GraphBarrier& last = graph.finalBarriers()[0];
    EXPECT_EQ(last.resource, vertices.index);
    EXPECT_EQ(last.srcStages & kCS, kCS);
    EXPECT_EQ(last.srcAccess, VK_ACCESS_2_NONE);
    EXPECT_EQ(last.dstStages, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    EXPECT_EQ(last.dstAccess, VK_ACCESS_2_TRANSFER_WRITE_BIT);
}

TEST(GraphCompile, ImportedReadbackBufferEndsWithHostReadBarrier) {
    Graph graph;
    ImportedBuffer ring;
    ring.buffer = fakeBuffer(0x200);
    ring.offset = 512;
    ring.size = 256;
    ring.final = syncStateOf(Access::HostRead);
    BufferHandle slot = graph.importBuffer("readback[1]", ring);
    graph.addPass("copy-results").write(slot, Access::TransferDst);
    ASSERT_TRUE(graph.compile().ok());
    EXPECT_TRUE(graph.passBarriers(0).empty());  // initial NONE: the host left nothing pending
    ASSERT_EQ(graph.finalBarriers().size(), 1u);
    EXPECT_EQ(graph.finalBarriers()[0].srcStages, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    EXPECT_EQ(graph.finalBarriers()[0].srcAccess, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    EXPECT_EQ(graph.finalBarriers()[0].dstStages, VK_PIPELINE_STAGE_2_HOST_BIT);
    EXPECT_EQ(graph.finalBarriers()[0].dstAccess, VK_ACCESS_2_HOST_READ_BIT);
}

TEST(GraphCompile, ImportedImageTransitionsFromInitialAndBackToFinalLayout) {
    Graph graph;
    ImportedImage imported;
    imported.image = fakeImage(0x300);
    imported.desc = colorDesc();
    imported.initial = syncStateOf(Access::SampledRead);
    imported.final = syncStateOf(Access::SampledRead);
    ImageHandle target = graph.importImage("host-target", imported);
    graph.addPass("draw").write(target, Access::ColorAttachment);
    ASSERT_TRUE(graph.compile().ok());
    ASSERT_EQ(graph.passBarriers(0).size(), 1u);
    EXPECT_EQ(graph.passBarriers(0)[0].oldLayout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    EXPECT_EQ(graph.passBarriers(0)[0].newLayout, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    EXPECT_EQ(graph.passBarriers(0)[0].srcStages, accessInfo(Access::SampledRead).stages);
    ASSERT_EQ(graph.finalBarriers().size(), 1u);
    EXPECT_EQ(graph.finalBarriers()[0].oldLayout, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    EXPECT_EQ(graph.finalBarriers()[0].newLayout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    EXPECT_EQ(graph.finalBarriers()[0].srcAccess, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
}

TEST(GraphCompile, ImportWithoutFinalStateGetsNoFinalBarrier) {
    Graph graph;
    ImportedBuffer imported;
    imported.buffer = fakeBuffer(0x100);
    BufferHandle buffer = graph.importBuffer("scratch", imported);
    graph.addPass("fill").write(buffer, Access::ComputeWrite);
    ASSERT_TRUE(graph.compile().ok());
    EXPECT_TRUE(graph.finalBarriers().empty());
}

TEST(GraphCompile, WriteAfterWrite) {
    Graph graph;
    BufferHandle counter = graph.createBuffer("counter", GraphBufferDesc{4});
    counter = graph.addPass("zero").write(counter, Access::TransferDst);
    graph.addPass("count").write(counter, Access::ComputeReadWrite);
    ASSERT_TRUE(graph.compile().ok());
    ASSERT_EQ(graph.passBarriers(1).size(), 1u);
    const GraphBarrier& barrier = graph.passBarriers(1)[0];
    EXPECT_EQ(barrier.srcStages, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    EXPECT_EQ(barrier.srcAccess, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    EXPECT_EQ(barrier.dstStages, kCS);
    EXPECT_EQ(barrier.dstAccess, kStorageRead | kStorageWrite);
}

TEST(GraphCompile, WriteAfterReadIsAnExecutionDependency) {
    Graph graph;
    ImportedBuffer imported;
    imported.buffer = fakeBuffer(0x100);
    imported.initial = syncStateOf(Access::VertexRead);  // the host drew from it just before
    BufferHandle vertices = graph.importBuffer("vertices", imported);
    graph.addPass("deform").write(vertices, Access::ComputeWrite);
    ASSERT_TRUE(graph.compile().ok());
    ASSERT_EQ(graph.passBarriers(0).size(), 1u);
    const GraphBarrier& barrier = graph.passBarriers(0)[0];
    EXPECT_EQ(barrier.srcStages, accessInfo(Access::VertexRead).stages);
    EXPECT_EQ(barrier.srcAccess, VK_ACCESS_2_NONE);
    EXPECT_EQ(barrier.dstStages, kCS);
    EXPECT_EQ(barrier.dstAccess, kStorageWrite);
}

TEST(GraphCompile, WriteAfterReadAfterWriteWaitsForTheReaders) {
    Graph graph;
    BufferHandle data = graph.createBuffer("data", GraphBufferDesc{64});
    data = graph.addPass("w1").write(data, Access::ComputeWrite);
    graph.addPass("r").read(data, Access::IndirectRead);
    graph.addPass("w2").write(data, Access::TransferDst);
    ASSERT_TRUE(graph.compile().ok());
    ASSERT_EQ(graph.passBarriers(2).size(), 1u);
    const GraphBarrier& barrier = graph.passBarriers(2)[0];
    // Must wait for the indirect read (WAR); the first write was already flushed by the barrier
    // before the read, which this one chains after through the DRAW_INDIRECT stage.
    EXPECT_EQ(barrier.srcStages & VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
    EXPECT_EQ(barrier.srcAccess, VK_ACCESS_2_NONE);
    EXPECT_EQ(barrier.dstAccess, VK_ACCESS_2_TRANSFER_WRITE_BIT);
}

TEST(GraphCompile, AccessesOfOnePassToOneResourceMerge) {
    Graph graph;
    BufferHandle data = graph.createBuffer("data", GraphBufferDesc{64});
    data = graph.addPass("produce").write(data, Access::ComputeWrite);
    PassBuilder pass = graph.addPass("both");
    pass.read(data, Access::ComputeRead);
    pass.read(data, Access::IndirectRead);
    ASSERT_TRUE(graph.compile().ok());
    ASSERT_EQ(graph.passBarriers(1).size(), 1u);
    EXPECT_EQ(graph.passBarriers(1)[0].dstStages, kCS | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
    EXPECT_EQ(graph.passBarriers(1)[0].dstAccess, kStorageRead | VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
}

TEST(GraphCompile, DepthTestAndSampleInOnePassUseReadOnlyDepthLayout) {
    Graph graph;
    ImageHandle depth = graph.createImage("depth", depthDesc());
    depth = graph.addPass("render").write(depth, Access::DepthStencilAttachment);
    PassBuilder pass = graph.addPass("compare");
    pass.read(depth, Access::DepthStencilReadOnly);
    pass.read(depth, Access::SampledRead);
    ASSERT_TRUE(graph.compile().ok());
    ASSERT_EQ(graph.passBarriers(1).size(), 1u);
    EXPECT_EQ(graph.passBarriers(1)[0].newLayout, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL);
}

TEST(GraphCompile, ReadModifyWriteInOnePassKeepsOneVersionStep) {
    Graph graph;
    BufferHandle data = graph.createBuffer("data", GraphBufferDesc{64});
    data = graph.addPass("init").write(data, Access::TransferDst);
    PassBuilder pass = graph.addPass("update");
    pass.read(data, Access::ComputeRead);
    BufferHandle updated = pass.write(data, Access::ComputeWrite);
    EXPECT_EQ(updated.version, data.version + 1);
    EXPECT_EQ(pass.read(updated, Access::ComputeRead).version, updated.version);  // its own output
    ASSERT_TRUE(graph.compile().ok());
}

TEST(GraphCompile, UsageFlagsDerivedFromAllAccesses) {
    Graph graph;
    BufferHandle args = graph.createBuffer("args", GraphBufferDesc{64, VK_BUFFER_USAGE_TRANSFER_DST_BIT});
    ImageHandle color = graph.createImage("color", colorDesc());
    args = graph.addPass("a").write(args, Access::ComputeWrite);
    color = graph.addPass("b").write(color, Access::ColorAttachment);
    PassBuilder c = graph.addPass("c");
    c.read(args, Access::IndirectRead);
    c.read(color, Access::SampledRead);
    graph.addPass("d").read(args, Access::TransferSrc);
    ASSERT_TRUE(graph.compile().ok());
    EXPECT_EQ(graph.bufferUsage(args), VkBufferUsageFlags(VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                                                          VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT));
    EXPECT_EQ(graph.imageUsage(color), VkImageUsageFlags(VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT));
}

TEST(GraphCompile, ReadBeforeAnyWriteIsRejectedNamingPassAndResource) {
    Graph graph;
    BufferHandle pcs = graph.createBuffer("potential-pairs", GraphBufferDesc{64});
    graph.addPass("narrowphase").read(pcs, Access::ComputeRead);
    Status status = graph.compile();
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.code, ErrorCode::InvalidArgument);
    EXPECT_NE(status.message.find("narrowphase"), std::string::npos) << status.message;
    EXPECT_NE(status.message.find("potential-pairs"), std::string::npos) << status.message;
    EXPECT_FALSE(graph.compiled());
}

TEST(GraphCompile, ReadModifyWriteOfUnwrittenTransientIsRejected) {
    Graph graph;
    BufferHandle counter = graph.createBuffer("counter", GraphBufferDesc{4});
    graph.addPass("append").write(counter, Access::ComputeReadWrite);
    Status status = graph.compile();
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.message.find("append"), std::string::npos) << status.message;
    EXPECT_NE(status.message.find("counter"), std::string::npos) << status.message;
}

TEST(GraphCompile, StaleHandleIsRejectedNamingPassAndResource) {
    Graph graph;
    BufferHandle v0 = graph.createBuffer("pairs", GraphBufferDesc{64});
    BufferHandle v1 = graph.addPass("first").write(v0, Access::ComputeWrite);
    graph.addPass("second").write(v1, Access::ComputeWrite);
    graph.addPass("late").read(v1, Access::ComputeRead);  // v1 was renamed by "second"
    Status status = graph.compile();
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.message.find("late"), std::string::npos) << status.message;
    EXPECT_NE(status.message.find("pairs"), std::string::npos) << status.message;
    EXPECT_NE(status.message.find("stale"), std::string::npos) << status.message;
}

TEST(GraphCompile, KindThatDoesNotFitTheResourceIsRejected) {
    Graph graph;
    ImageHandle image = graph.createImage("counts", colorDesc());
    graph.addPass("draw").read(image, Access::IndirectRead);
    Status status = graph.compile();
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.message.find("IndirectRead"), std::string::npos) << status.message;
    EXPECT_NE(status.message.find("counts"), std::string::npos) << status.message;
}

TEST(GraphCompile, WriteKindThroughReadIsRejected) {
    Graph graph;
    BufferHandle buffer = graph.createBuffer("out", GraphBufferDesc{4});
    graph.addPass("p").read(buffer, Access::ComputeWrite);
    EXPECT_FALSE(graph.compile().ok());
}

TEST(GraphCompile, InvalidHandleIsRejected) {
    Graph graph;
    graph.addPass("p").read(BufferHandle{}, Access::ComputeRead);
    Status status = graph.compile();
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.message.find("invalid buffer handle"), std::string::npos) << status.message;
}

TEST(GraphCompile, AllocatorCreatesUsedTransientsWithDerivedUsage) {
    Graph graph;
    BufferHandle used = graph.createBuffer("used", GraphBufferDesc{64});
    graph.createBuffer("unused", GraphBufferDesc{64});
    ImageHandle image = graph.createImage("image", colorDesc());
    used = graph.addPass("p").write(used, Access::ComputeWrite);
    graph.addPass("q").write(image, Access::TransferDst);
    test::FakeGraphAllocator allocator;
    ASSERT_TRUE(graph.compile(&allocator).ok());
    ASSERT_EQ(allocator.names, (std::vector<std::string>{"used", "image"}));
    EXPECT_EQ(allocator.bufferUsages[0], VkBufferUsageFlags(VK_BUFFER_USAGE_STORAGE_BUFFER_BIT));
    EXPECT_EQ(allocator.imageUsages[0], VkImageUsageFlags(VK_IMAGE_USAGE_TRANSFER_DST_BIT));
}

TEST(GraphCompile, AllocationFailureNamesTheResource) {
    Graph graph;
    BufferHandle big = graph.createBuffer("huge-pairs", GraphBufferDesc{1ull << 40});
    graph.addPass("p").write(big, Access::ComputeWrite);
    test::FakeGraphAllocator allocator;
    allocator.failBuffers = true;
    Status status = graph.compile(&allocator);
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.code, ErrorCode::OutOfDeviceMemory);
    EXPECT_EQ(status.vkResult, VK_ERROR_OUT_OF_DEVICE_MEMORY);
    EXPECT_NE(status.message.find("huge-pairs"), std::string::npos) << status.message;
}

TEST(GraphCompile, AnImageABoundSetNamesNeedsNoContentsButGetsItsLayout) {
    Graph graph;
    ImageHandle layers = graph.createImage("layers", colorDesc());
    layers = graph.addPass("first").bind(layers, Access::FragmentRead);
    graph.addPass("second").read(layers, Access::FragmentRead);
    ASSERT_TRUE(graph.compile().ok());
    ASSERT_EQ(graph.passBarriers(0).size(), 1u);
    EXPECT_EQ(graph.passBarriers(0)[0].newLayout, VK_IMAGE_LAYOUT_GENERAL);

    Graph reading;
    reading.addPass("first").read(reading.createImage("layers", colorDesc()), Access::FragmentRead);
    EXPECT_FALSE(reading.compile().ok());  // a read of contents nothing wrote
}

TEST(GraphCompile, TimestampNamesFollowPassOrderAndTimingsConvert) {
    Graph graph;
    graph.addPass("broadphase");
    graph.addPass("stencil-count");
    EXPECT_EQ(graph.passTimestampNames(), (std::vector<std::string>{"broadphase", "stencil-count"}));
    EXPECT_EQ(graph.timestampQueryCount(), 4u);
    const uint64_t ticks[] = {1000, 3000, 3000, 3500};
    std::vector<PassTiming> timings = graph.passTimings(ticks, 50.0f);  // 50 ns per tick
    ASSERT_EQ(timings.size(), 2u);
    EXPECT_EQ(timings[0].name, "broadphase");
    EXPECT_DOUBLE_EQ(timings[0].milliseconds, 0.1);
    EXPECT_DOUBLE_EQ(timings[1].milliseconds, 0.025);

    // A 32-bit counter that wrapped inside the second pass.
    const uint64_t wrapped[] = {10, 20, 0xffffff00ull, 0x100ull};
    timings = graph.passTimings(wrapped, 1.0f, 32);
    ASSERT_EQ(timings.size(), 2u);
    EXPECT_DOUBLE_EQ(timings[1].milliseconds, 0x200 * 1e-6);
}

}  // namespace
}  // namespace vkc
