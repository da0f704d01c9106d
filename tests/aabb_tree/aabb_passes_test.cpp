// Tier A (no device): the aabb-tree passes in a compiled render graph: stable labels in order, the
// upload before the refit, the indirect-argument barrier between each level's preparation and its
// dispatch.
#include "passes/aabb_tree/aabb_tree_passes.h"

#include <gtest/gtest.h>

namespace vkc {
namespace {

TEST(AabbTreePasses, LevelsAreOrderedByIndirectBarriers) {
    Graph graph;
    auto imported = [&](const char* name) {
        ImportedBuffer b;
        b.buffer = VkBuffer(uintptr_t(graph.passCount() + 0x1000));
        return graph.importBuffer(name, b);
    };
    AabbTreePassInputs in;
    in.refitTreeCount = 2;
    in.refitLevels = 3;
    in.refitMaxLeaves = 5;
    in.globalLevels = 4;
    in.listCapacity = 64;
    in.trianglePairCapacity = 16;
    in.pairCount = 3;
    in.maxGroups = 65535;
    in.trees = imported("trees");
    in.nodes = imported("nodes");
    in.leaves = imported("leaves");
    in.refitList = imported("refit list");
    in.pairs = imported("pairs");
    in.seedLevels = imported("seed levels");
    in.seeds = imported("seeds");
    in.state = imported("state");
    in.nodePairs = imported("node pairs");
    in.trianglePairs = imported("triangle pairs");
    in.pairStats = imported("pair stats");
    in.vertices = {imported("vertices")};
    in.readback = imported("readback");
    static const ReadbackLayout layout = aabbTreeReadbackLayout(in.pairCount, in.trianglePairCapacity);
    in.readbackLayout = &layout;
    in.uploads = {{imported("nodes staging"), in.nodes, 256}, {imported("seeds staging"), in.seeds, 0}};
    addAabbTreePasses(graph, in);
    ASSERT_TRUE(graph.compile().ok());

    std::vector<std::string> names;
    for (uint32_t p = 0; p < graph.passCount(); ++p) names.push_back(graph.passName(p));
    // Zero-byte uploads are dropped; the nodes copy precedes the refit that reads and rewrites them.
    std::vector<std::string> expected = {"aabb-upload", "aabb-refit", "aabb-refit", "aabb-refit", "aabb-clear"};
    for (int g = 0; g < 4; ++g) expected.insert(expected.end(), {"aabb-indirect", "aabb-traverse"});
    expected.push_back("aabb-readback");
    EXPECT_EQ(names, expected);

    // Each traversal waits for its indirect arguments (written by the preparation in compute).
    const uint32_t stateIndex = in.state.index;
    for (uint32_t p = 0; p < graph.passCount(); ++p) {
        if (graph.passName(p) != "aabb-traverse") continue;
        bool indirect = false;
        for (const GraphBarrier& b : graph.passBarriers(p))
            indirect = indirect || (!b.isImage && b.resource == stateIndex &&
                                    (b.dstStages & VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT) &&
                                    (b.dstAccess & VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT) &&
                                    (b.srcStages & VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT));
        EXPECT_TRUE(indirect) << "pass " << p;
    }
    // The first refit waits for the upload's copy; each later level for the previous one's writes.
    for (uint32_t p = 1; p < 4; ++p) {
        const VkAccessFlags2 src = p == 1 ? VK_ACCESS_2_TRANSFER_WRITE_BIT : VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
        bool nodesBarrier = false;
        for (const GraphBarrier& b : graph.passBarriers(p))
            nodesBarrier = nodesBarrier || (!b.isImage && b.resource == in.nodes.index && (b.srcAccess & src));
        EXPECT_TRUE(nodesBarrier) << "refit pass " << p;
    }
    EXPECT_NE(graph.dump().find("IndirectRead"), std::string::npos);
}

}  // namespace
}  // namespace vkc
