// Tier A (no device): the EBPI passes in a compiled render graph: stable labels in order, the
// clear before the atomics, and each pass waiting for what the one before it wrote (extents ->
// edge terms, which add themselves into the pixels).
#include "passes/ebpi/ebpi_image_passes.h"

#include <gtest/gtest.h>

namespace vkc {
namespace {

// Whether pass `pass` has a barrier on buffer `resource` from a compute write to a compute read.
bool waitsForComputeWrite(const Graph& graph, uint32_t pass, uint32_t resource) {
    for (const GraphBarrier& b : graph.passBarriers(pass))
        if (!b.isImage && b.resource == resource && (b.srcAccess & VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT) &&
            (b.dstAccess & VK_ACCESS_2_SHADER_STORAGE_READ_BIT))
            return true;
    return false;
}

TEST(EbpiImagePasses, PassesAreOrderedByTheirDependencies) {
    Graph graph;
    uintptr_t nextBuffer = 0x1000;
    auto imported = [&](const char* name) {
        ImportedBuffer b;
        b.buffer = VkBuffer(nextBuffer += 0x10);
        return graph.importBuffer(name, b);
    };
    EbpiImagePassInputs in;
    in.viewCount = 2;
    in.jobCount = 3;
    in.mostEdgesPerJob = 1000;
    in.pixelCount = 4096;
    in.objects = imported("objects");
    in.views = imported("views");
    in.jobs = imported("jobs");
    in.edges = imported("edges");
    in.vertices = {imported("vertices")};
    in.extents = graph.createBuffer("extents", GraphBufferDesc{48});
    in.pixels = imported("pixels");
    in.status = imported("status");
    const EbpiImagePassOutputs out = addEbpiImagePasses(graph, in);
    ASSERT_TRUE(graph.compile().ok());

    std::vector<std::string> names;
    for (uint32_t p = 0; p < graph.passCount(); ++p) names.push_back(graph.passName(p));
    EXPECT_EQ(names, (std::vector<std::string>{kEbpiImageClearPassName, kEbpiDepthExtentPassName,
                                               kEbpiEdgeTermsPassName}));
    EXPECT_TRUE(waitsForComputeWrite(graph, 2, in.extents.index));
    // The atomics wait for the clear's fill.
    bool pixelsCleared = false;
    for (const GraphBarrier& b : graph.passBarriers(2))
        pixelsCleared =
            pixelsCleared || (b.resource == in.pixels.index && (b.srcAccess & VK_ACCESS_2_TRANSFER_WRITE_BIT));
    EXPECT_TRUE(pixelsCleared);
    // Later passes (pyramid, read-back) continue from the edge terms' versions.
    EXPECT_EQ(out.pixels.index, in.pixels.index);
    EXPECT_GT(out.pixels.version, in.pixels.version);
    EXPECT_GT(out.status.version, in.status.version);
}

TEST(EbpiImagePasses, NoJobsStillClearsTheImage) {
    Graph graph;
    ImportedBuffer b;
    b.buffer = VkBuffer(uintptr_t(0x2000));
    EbpiImagePassInputs in;
    in.viewCount = 1;
    in.pixelCount = 16;
    in.pixels = graph.importBuffer("pixels", b);
    in.status = graph.importBuffer("status", b);
    addEbpiImagePasses(graph, in);
    ASSERT_TRUE(graph.compile().ok());
    ASSERT_EQ(graph.passCount(), 1u);
    EXPECT_EQ(graph.passName(0), kEbpiImageClearPassName);
}

}  // namespace
}  // namespace vkc
