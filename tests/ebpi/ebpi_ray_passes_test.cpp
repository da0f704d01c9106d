// Tier A (no device): the adaptivity passes in a compiled render graph: stable labels in order (one
// pyramid pass per level), each pass waiting for what the one before it wrote (pyramid level by
// level -> options -> allocation -> scan -> generate).
#include "passes/ebpi/ebpi_ray_passes.h"

#include <gtest/gtest.h>

namespace vkc {
namespace {

bool waitsFor(const Graph& graph, uint32_t pass, uint32_t resource, VkAccessFlags2 src) {
    for (const GraphBarrier& b : graph.passBarriers(pass))
        if (!b.isImage && b.resource == resource && (b.srcAccess & src) &&
            (b.dstAccess & VK_ACCESS_2_SHADER_STORAGE_READ_BIT))
            return true;
    return false;
}

TEST(EbpiRayPasses, PassesAreOrderedByTheirDependencies) {
    Graph graph;
    uintptr_t nextBuffer = 0x1000;
    auto imported = [&](const char* name) {
        ImportedBuffer b;
        b.buffer = VkBuffer(nextBuffer += 0x10);
        return graph.importBuffer(name, b);
    };
    EbpiRayPassInputs in;
    in.viewCount = 2;
    in.mostLevels = 3;
    in.mostTiles = 21;
    in.maxSplit = 8;
    in.maxRays = 1000;
    in.views = imported("views");
    in.rayViews = imported("ray views");
    in.pixels = imported("pixels");
    in.imageStatus = imported("image status");
    in.pyramid = graph.createBuffer("pyramid", GraphBufferDesc{42 * sizeof(gpu::EbpiPyramidTexelGpu)});
    in.tiles = graph.createBuffer("tiles", GraphBufferDesc{42 * sizeof(gpu::EbpiRayTileGpu)});
    in.costs = graph.createBuffer("costs", GraphBufferDesc{42 * sizeof(gpu::EbpiRayCostGpu)});
    in.options = graph.createBuffer("options", GraphBufferDesc{32 * sizeof(gpu::EbpiRayOptionsGpu)});
    in.flags = graph.createBuffer("flags", GraphBufferDesc{16});
    in.results = imported("results");
    in.counters = imported("counters");
    in.rays = imported("rays");
    in.samples = imported("samples");
    in.volumeRays = imported("volume rays");
    const EbpiRayPassOutputs out = addEbpiRayPasses(graph, in);
    ASSERT_TRUE(graph.compile().ok());

    std::vector<std::string> names;
    for (uint32_t p = 0; p < graph.passCount(); ++p) names.push_back(graph.passName(p));
    EXPECT_EQ(names, (std::vector<std::string>{"ebpi-pyramid level 0", "ebpi-pyramid level 1", "ebpi-pyramid level 2",
                                               kEbpiRayOptionsPassName, kEbpiRayAllocatePassName, kEbpiRayScanPassName,
                                               kEbpiRayGeneratePassName}));
    const VkAccessFlags2 shaderWrite = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
    EXPECT_TRUE(waitsFor(graph, 1, in.pyramid.index, shaderWrite));
    EXPECT_TRUE(waitsFor(graph, 2, in.pyramid.index, shaderWrite));
    EXPECT_TRUE(waitsFor(graph, 4, in.pyramid.index, shaderWrite));
    EXPECT_TRUE(waitsFor(graph, 4, in.options.index, shaderWrite));
    EXPECT_TRUE(waitsFor(graph, 5, in.tiles.index, shaderWrite));
    EXPECT_TRUE(waitsFor(graph, 5, in.flags.index, shaderWrite));
    EXPECT_TRUE(waitsFor(graph, 6, in.tiles.index, shaderWrite));
    // The consumer continues from the versions written here.
    EXPECT_GT(out.counters.version, in.counters.version);
    EXPECT_GT(out.rays.version, in.rays.version);
    EXPECT_GT(out.samples.version, in.samples.version);
    EXPECT_GT(out.volumeRays.version, in.volumeRays.version);
}

TEST(EbpiRayPasses, PlanSizesThatFitThirtyTwoBitCounts) {
    EXPECT_TRUE(ebpiRayPlanFits(3 * 349525, 349525, 24));  // three 512 x 512 views split up to 24 x 24
    EXPECT_FALSE(ebpiRayPlanFits(uint64_t(1) << 24, 1u << 20, 24));
    EXPECT_FALSE(ebpiRayPlanFits(100, gpu::kEbpiRayMaxTilesPerView + 1, 1));
    EXPECT_FALSE(ebpiRayPlanFits(100, 100, gpu::kEbpiRayMaxSplitLimit + 1));
    EXPECT_FALSE(ebpiRayPlanFits(100, 100, 0));
}

}  // namespace
}  // namespace vkc
