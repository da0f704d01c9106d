// Tier A (no device): the ldi passes' declarations compile into a graph (no stale handles), in the
// frame order of passes/ldi/ldi_passes.h and ldi_peel_passes.h, and the number of passes depends on
// the layer cap only, never on the number of LDIs (the atlas keeps them in one set of passes).
#include "passes/ldi/ldi_passes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace vkc {
namespace {

LdiPassInputs fakeInputs(Graph& graph, uint32_t tiles, uint32_t layerCap) {
    LdiPassInputs in;
    in.peel.resolution = 32;
    in.peel.layerCap = layerCap;
    in.peel.atlasColumns = 4;
    in.peel.tileCount = tiles;
    in.pairCount = tiles / 2;
    in.insideCapacity = 16;
    in.pointTestCount = tiles;
    uintptr_t next = 0x1000;
    auto buffer = [&](const char* name) {
        ImportedBuffer imported;
        imported.buffer = reinterpret_cast<VkBuffer>(next++);
        return graph.importBuffer(name, imported);
    };
    in.peel.tileBuffer = buffer("tiles");
    in.peel.firstDraws = buffer("first draws");
    in.pointTests = buffer("point tests");
    in.pointDispatches = buffer("point dispatches");
    in.pairInfos = buffer("pair infos");
    in.peel.indices = buffer("indices");
    in.peel.meshVertices = {buffer("mesh vertices")};
    in.peel.layers = buffer("layers");
    in.peel.stencilCounts = buffer("stencil counts");
    in.peel.stats = buffer("stats");
    in.peel.commands = buffer("commands");
    in.pairResults = buffer("pair results");
    in.depthImage = buffer("depth image");
    in.volumePartials = buffer("volume partials");
    in.inside = buffer("inside");
    ImportedBuffer readback;
    readback.buffer = reinterpret_cast<VkBuffer>(uintptr_t(0x2000));
    readback.final = syncStateOf(Access::HostRead);
    in.readback = graph.importBuffer("readback", readback);
    static const ReadbackLayout layout = ldiReadbackLayout(16, 64, 128, 32, false);  // room for every test's tiles
    in.readbackLayout = &layout;
    ImportedImage atlas;
    atlas.desc.width = 128;
    atlas.desc.height = 64;
    atlas.desc.format = VK_FORMAT_D32_SFLOAT_S8_UINT;
    atlas.image = reinterpret_cast<VkImage>(uintptr_t(0x3000));
    in.peel.depthStencil = graph.importImage("atlas", atlas);
    return in;
}

std::vector<std::string> passNames(uint32_t tiles, uint32_t layerCap) {
    Graph graph;
    addLdiPasses(graph, fakeInputs(graph, tiles, layerCap));
    Status compiled = graph.compile();
    EXPECT_TRUE(compiled.ok()) << compiled.describe();
    std::vector<std::string> names;
    for (uint32_t i = 0; i < graph.passCount(); ++i) names.push_back(graph.passName(i));
    return names;
}

TEST(LdiPasses, DispatchGridStaysWithinTheWorkgroupCountLimit) {
    // 66 tiles of 256^2 at 64 threads a group: 67584 groups, above lavapipe's 65535 per dimension.
    const uint32_t threads = 66u * 256u * 256u;
    const VkExtent2D grid = ldiDispatchGrid(threads, 64, 65535);
    EXPECT_LE(grid.width, 65535u);
    EXPECT_GE(uint64_t(grid.width) * grid.height * 64, threads);
    EXPECT_LT(uint64_t(grid.width) * (grid.height - 1) * 64, threads);  // no row wasted
    const VkExtent2D small = ldiDispatchGrid(100, 64, 65535);  // not a multiple of the group size
    EXPECT_EQ(small.width, 2u);
    EXPECT_EQ(small.height, 1u);
    const VkExtent2D none = ldiDispatchGrid(0, 64, 65535);
    EXPECT_EQ(none.width, 0u);
    EXPECT_EQ(none.height, 0u);
}

TEST(LdiPasses, CompileInFrameOrderWithOnePassForAllLaterLayers) {
    const std::vector<std::string> expected = {"ldi-setup",  "ldi-peel-setup", "ldi-count",      "ldi-stencil-copy",
                                               "ldi-layer-count", "ldi-indirect", "ldi-layers",   "ldi-sort",
                                               "ldi-volume", "ldi-volume-sum", "ldi-points",     "ldi-readback"};
    EXPECT_EQ(passNames(2, 4), expected);
}

TEST(LdiPasses, PassCountGrowsNeitherWithTheCapNorWithTheLdis) {
    EXPECT_EQ(passNames(2, 8).size(), passNames(16, 8).size());
    EXPECT_EQ(passNames(2, 64).size(), passNames(2, 8).size());
    // A cap of one peels nothing after the count pass: no indirect draws, no layer pass.
    EXPECT_EQ(passNames(2, 1).size(), passNames(2, 8).size() - 2);
}

// A GPU-driven frame: the verdicts come first, the selection after them, ldi-pair-setup writes the
// tables from it before any pass reads them, and the count pass's indirect first draws wait for
// its compute writes.
TEST(LdiPasses, PairSetupWritesEveryTableBeforeTheCountPassDrawsFromThem) {
    Graph graph;
    LdiPassInputs in = fakeInputs(graph, 4, 4);
    LdiPairSetupInputs setup;
    setup.selection.candidateCapacity = 100;
    setup.selection.objectCount = 10;
    setup.selection.maxPairs = 2;
    setup.selection.label = "ldi-pair-select";
    for (BufferHandle* b : {&setup.selection.verdicts, &setup.selection.starts, &setup.selection.startSums,
                            &setup.selection.ranks, &setup.selection.rankSums, &setup.selection.state,
                            &setup.selection.selected})
        *b = graph.createBuffer("selection buffer", {64});
    setup.bounds = in.peel.layers;  // any imported buffers the pass only reads
    setup.candidates = in.peel.stats;
    setup.selection.candidates = setup.candidates;
    setup.sceneObjects = in.inside;
    setup.params = in.volumePartials;
    setup.tiles = in.peel.tileBuffer;
    setup.pointTests = in.pointTests;
    setup.pointDispatches = in.pointDispatches;
    setup.firstDraws = in.peel.firstDraws;
    setup.pairInfos = in.pairInfos;
    const LdiPairSetupInputs written = addLdiPairSetupPass(graph, setup);
    in.peel.tileBuffer = written.tiles;
    in.peel.firstDraws = written.firstDraws;
    in.pointTests = written.pointTests;
    in.pointDispatches = written.pointDispatches;
    in.pairInfos = written.pairInfos;
    addLdiPasses(graph, in);
    Status compiled = graph.compile();
    ASSERT_TRUE(compiled.ok()) << compiled.describe();
    ASSERT_EQ(graph.passName(0), "ldi-pair-verdicts");
    uint32_t tables = 0;
    while (tables < graph.passCount() && graph.passName(tables) != "ldi-pair-setup") ++tables;
    for (uint32_t p = 1; p < tables; ++p) EXPECT_EQ(graph.passName(p).rfind("ldi-pair-select-", 0), 0u) << graph.passName(p);
    uint32_t count = 0;
    while (count < graph.passCount() && graph.passName(count) != "ldi-count") ++count;
    ASSERT_LT(count, graph.passCount());
    bool indirectWaits = false;
    for (const GraphBarrier& barrier : graph.passBarriers(count))
        indirectWaits = indirectWaits || (!barrier.isImage && (barrier.srcAccess & VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT) &&
                                          (barrier.dstAccess & VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT));
    EXPECT_TRUE(indirectWaits) << graph.dump();
}

TEST(LdiPasses, StencilCopyReadsTheCountedAtlasAsATransferSource) {
    Graph graph;
    addLdiPasses(graph, fakeInputs(graph, 2, 4));
    ASSERT_TRUE(graph.compile().ok());
    bool transition = false;
    for (const GraphBarrier& barrier : graph.passBarriers(3))
        transition = transition || (barrier.isImage && barrier.newLayout == VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL &&
                                    (barrier.srcAccess & VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT));
    EXPECT_TRUE(transition) << graph.dump();
}

}  // namespace
}  // namespace vkc
