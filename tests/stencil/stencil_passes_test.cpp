// Tier A (no device): the stencil passes' declarations compile into a graph (no stale handles),
// in the frame order of passes/stencil/stencil_passes.h (the GPU's frame setup first), with the
// layout transitions the render passes need (depth-stencil written, then read-only, then written
// again by the recounts).
#include "passes/stencil/stencil_passes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace vkc {
namespace {

StencilPassInputs fakeInputs(Graph& graph, uint32_t views) {
    StencilPassInputs in;
    in.resolution = 64;
    in.normalDispatches.resize(1);
    in.views = views;
    in.objectCount = 3;
    in.candidateCount = 2;
    in.pairCapacity = 16;
    in.pointCapacity = 16;
    auto buffer = [&](const char* name) {
        ImportedBuffer imported;
        imported.buffer = reinterpret_cast<VkBuffer>(uintptr_t(0x1000 + graph.passCount()));
        return graph.importBuffer(name, imported);
    };
    auto image = [&](const char* name, VkFormat format) {
        ImportedImage imported;
        imported.desc.width = imported.desc.height = 64;
        imported.desc.format = format;
        imported.image = reinterpret_cast<VkImage>(uintptr_t(0x3000 + uintptr_t(format)));
        return graph.importImage(name, imported);
    };
    in.topology = buffer("topology");
    in.objects = buffer("objects");
    in.normals = buffer("normals");
    in.meshVertices = {buffer("mesh vertices")};
    in.candidates = buffer("candidates");
    in.bounds = buffer("bounds");
    in.draws = buffer("draw ranges");
    in.frame = buffer("frame");
    in.drawn = buffer("drawn");
    in.commands = buffer("commands");
    in.candidateSlots = buffer("candidate slots");
    in.pairFlags = buffer("candidate flags");
    in.pairs = buffer("pairs");
    in.unfound = buffer("unfound");
    in.points = buffer("points");
    in.objectFlags = buffer("object flags");
    ImportedBuffer readback;
    readback.buffer = reinterpret_cast<VkBuffer>(uintptr_t(0x2000));
    readback.final = syncStateOf(Access::HostRead);
    in.readback = graph.importBuffer("readback", readback);
    static const ReadbackLayout layout = stencilReadbackLayout(16, 16, 3, 3, 0);
    in.readbackLayout = &layout;
    in.depthStencil = image("depth-stencil", VK_FORMAT_D32_SFLOAT_S8_UINT);
    in.penetratingImage = image("penetrating ids", kStencilPenetratingFormat);
    in.penetratedImage = image("penetrated ids", kStencilPenetratedFormat);
    return in;
}

TEST(StencilPasses, CompileInFrameOrderForThreeViews) {
    Graph graph;
    addStencilPasses(graph, fakeInputs(graph, 3));
    Status compiled = graph.compile();
    ASSERT_TRUE(compiled.ok()) << compiled.describe();
    std::vector<std::string> expected = {"stencil-setup", "stencil-frame-reset", "stencil-frame-candidates",
                                         "stencil-frame-views", "stencil-candidate-index", "stencil-normals"};
    for (int view = 0; view < 3; ++view)
        for (const char* pass : {"stencil-edges", "stencil-count", "stencil-boolean", "stencil-penetrating",
                                 "stencil-penetrated", "stencil-scan"})
            expected.push_back(pass);
    expected.push_back("stencil-compact");
    expected.push_back("stencil-readback");
    ASSERT_EQ(graph.passCount(), expected.size());
    for (uint32_t i = 0; i < graph.passCount(); ++i) EXPECT_EQ(graph.passName(i), expected[i]);

    // The boolean pass reads the counted stencil: a transition to the read-only layout after the
    // count pass's attachment writes.
    bool readOnly = false;
    for (const GraphBarrier& barrier : graph.passBarriers(8))
        readOnly = readOnly || (barrier.isImage && barrier.newLayout == VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL &&
                                (barrier.srcAccess & VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT));
    EXPECT_TRUE(readOnly) << graph.dump();
}

TEST(StencilPasses, ASceneWithoutObjectsStillClearsAndReadsBack) {
    Graph graph;
    StencilPassInputs in = fakeInputs(graph, 3);
    in.objectCount = 0;
    in.normalDispatches.clear();
    addStencilPasses(graph, in);
    Status compiled = graph.compile();
    ASSERT_TRUE(compiled.ok()) << compiled.describe();
    ASSERT_EQ(graph.passCount(), 7u);
    EXPECT_EQ(graph.passName(0), "stencil-setup");
    EXPECT_EQ(graph.passName(6), "stencil-readback");
}

}  // namespace
}  // namespace vkc
