// Tier A (no device): the consistent-pairs passes compile into a graph (no stale handles) in the
// frame order of passes/consistent_pairs/consistent_pairs_passes.h: every iteration recorded up front, later ones
// peeling one layer fewer (they start from the previous last layer), a decision before each
// iteration whose indirect draws and commands (clears, copies) the iteration reads; and every
// pipeline layout against its shader's SPIR-V.
#include "passes/consistent_pairs/consistent_pairs_passes.h"
#include "passes/stencil/stencil_passes.h"
#include "tests/support/reflection_check.h"

#include "spirv/consistent_pairs_back_clear.comp.h"
#include "spirv/consistent_pairs_back_id.frag.h"
#include "spirv/consistent_pairs_clear.frag.h"
#include "spirv/consistent_pairs_consistency.frag.h"
#include "spirv/consistent_pairs_decide.comp.h"
#include "spirv/consistent_pairs_determination.frag.h"
#include "spirv/consistent_pairs_geometry.vert.h"
#include "spirv/consistent_pairs_layer_copy.comp.h"
#include "spirv/consistent_pairs_peel.frag.h"
#include "spirv/fullscreen_triangle.vert.h"
#include "spirv/pair_compact.comp.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

namespace vkc {
namespace {

ConsistentPairsPassInputs fakeInputs(Graph& graph, uint32_t layers, uint32_t iterations) {
    ConsistentPairsPassInputs in;
    in.resolution = 64;
    in.layersPerIteration = layers;
    in.iterations = iterations;
    in.objectCount = 3;
    in.candidateCount = 2;
    in.pairCapacity = 16;
    in.pointCapacity = 16;
    uintptr_t next = 0x1000;
    auto buffer = [&](const char* name) {
        ImportedBuffer imported;
        imported.buffer = reinterpret_cast<VkBuffer>(next++);
        return graph.importBuffer(name, imported);
    };
    auto image = [&](const char* name, VkFormat format, uint32_t arrayLayers) {
        ImportedImage imported;
        imported.desc.width = imported.desc.height = 64;
        imported.desc.format = format;
        imported.desc.layers = arrayLayers;
        imported.image = reinterpret_cast<VkImage>(next++);
        return graph.importImage(name, imported);
    };
    in.objects = buffer("objects");
    in.frame = buffer("frame");
    in.indices = buffer("indices");
    in.meshVertices = {buffer("mesh vertices")};
    in.draws = buffer("draws");
    in.iterationCommands = buffer("iteration commands");
    in.candidates = buffer("candidates");
    in.bounds = buffer("bounds");
    in.objectDraws = buffer("draw ranges");
    in.view = buffer("view");
    in.drawn = buffer("drawn");
    in.candidateSlots = buffer("candidate slots");
    in.pairFlags = buffer("candidate flags");
    in.stats = buffer("stats");
    in.pairs = buffer("pairs");
    in.unfound = buffer("unfound");
    in.points = buffer("points");
    ImportedBuffer readback;
    readback.buffer = reinterpret_cast<VkBuffer>(next++);
    readback.final = syncStateOf(Access::HostRead);
    in.readback = graph.importBuffer("readback", readback);
    // Room for the most peels a test records (3 layers, 4 iterations).
    static const ReadbackLayout layout = consistentPairsReadbackLayout(16, 16, consistentPairsPeelCount(3, 4), 0, 3);
    in.readbackLayout = &layout;
    in.depth = image("depth", kConsistentPairsDepthFormat, 1);
    in.peelTarget = image("peel target", kConsistentPairsLayerFormat, 1);
    in.layers = image("layers", kConsistentPairsLayerFormat, layers);
    in.backDepth = image("back depth", kConsistentPairsBackDepthFormat, layers);
    in.backId = image("back id", kConsistentPairsBackIdFormat, layers);
    return in;
}

TEST(ConsistentPairsPasses, CompileInFrameOrderWithEveryIterationRecorded) {
    const uint32_t layers = 3, iterations = 3;
    Graph graph;
    addConsistentPairsPasses(graph, fakeInputs(graph, layers, iterations));
    Status compiled = graph.compile();
    ASSERT_TRUE(compiled.ok()) << compiled.describe();
    std::vector<std::string> expected = {"consistent-pairs-setup", "consistent-pairs-frame-reset",
                                         "consistent-pairs-frame-candidates", "consistent-pairs-frame-views",
                                         "consistent-pairs-candidate-index"};
    for (uint32_t iteration = 0; iteration < iterations; ++iteration) {
        if (iteration != 0) expected.push_back("consistent-pairs-query-copy");
        expected.push_back("consistent-pairs-decide");
        // The first iteration peels all its layers; later ones start from the previous last layer.
        for (uint32_t k = iteration == 0 ? 0 : 1; k < layers; ++k) {
            expected.push_back("consistent-pairs-peel");
            expected.push_back("consistent-pairs-peel-copy");
        }
        for (const char* pass : {"consistent-pairs-clear-back", "consistent-pairs-consistency", "consistent-pairs-back-id", "consistent-pairs-determination"})
            expected.push_back(pass);
    }
    expected.push_back("consistent-pairs-compact");
    expected.push_back("consistent-pairs-readback");
    ASSERT_EQ(graph.passCount(), expected.size());
    for (uint32_t i = 0; i < graph.passCount(); ++i) EXPECT_EQ(graph.passName(i), expected[i]) << "pass " << i;
    EXPECT_EQ(consistentPairsPeelCount(layers, iterations), 7u);

    // The peel after a decision waits for the decision's writes to the indirect draws and commands.
    bool indirectAfterDecide = false;
    for (uint32_t pass = 1; pass < graph.passCount(); ++pass) {
        if (graph.passName(pass - 1) != "consistent-pairs-decide") continue;
        for (const GraphBarrier& barrier : graph.passBarriers(pass))
            indirectAfterDecide = indirectAfterDecide || (!barrier.isImage &&
                                                          (barrier.srcStages & VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT) &&
                                                          (barrier.dstAccess & VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT));
    }
    EXPECT_TRUE(indirectAfterDecide) << graph.dump();
}

TEST(ConsistentPairsPasses, ASceneWithoutObjectsStillClearsAndReadsBack) {
    Graph graph;
    ConsistentPairsPassInputs in = fakeInputs(graph, 3, 4);
    in.objectCount = 0;
    addConsistentPairsPasses(graph, in);
    Status compiled = graph.compile();
    ASSERT_TRUE(compiled.ok()) << compiled.describe();
    ASSERT_EQ(graph.passCount(), 7u);
    EXPECT_EQ(graph.passName(0), "consistent-pairs-setup");
    EXPECT_EQ(graph.passName(6), "consistent-pairs-readback");
}

TEST(ConsistentPairsLayouts, MatchShaders) {
    for (auto [spirv, layout, name] :
         {std::tuple{std::span<const uint32_t>(kSpirv_consistent_pairs_geometry_vert), &kConsistentPairsDrawLayout, "geometry"},
          std::tuple{std::span<const uint32_t>(kSpirv_consistent_pairs_peel_frag), &kConsistentPairsDrawLayout, "peel"},
          std::tuple{std::span<const uint32_t>(kSpirv_consistent_pairs_consistency_frag), &kConsistentPairsDrawLayout, "consistency"},
          std::tuple{std::span<const uint32_t>(kSpirv_consistent_pairs_back_id_frag), &kConsistentPairsDrawLayout, "back id"},
          std::tuple{std::span<const uint32_t>(kSpirv_consistent_pairs_determination_frag), &kConsistentPairsDrawLayout,
                     "determination"},
          std::tuple{std::span<const uint32_t>(kSpirv_consistent_pairs_decide_comp), &kConsistentPairsDecideLayout, "decide"},
          std::tuple{std::span<const uint32_t>(kSpirv_consistent_pairs_layer_copy_comp), &kConsistentPairsImagesLayout,
                     "layer copy"},
          std::tuple{std::span<const uint32_t>(kSpirv_consistent_pairs_back_clear_comp), &kConsistentPairsImagesLayout,
                     "back clear"},
          std::tuple{std::span<const uint32_t>(kSpirv_fullscreen_triangle_vert), &kConsistentPairsClearLayout, "clear vertex"},
          std::tuple{std::span<const uint32_t>(kSpirv_consistent_pairs_clear_frag), &kConsistentPairsClearLayout, "clear"},
          std::tuple{std::span<const uint32_t>(kSpirv_pair_compact_comp), &kStencilCompactLayout, "compact"}}) {
        Status status = test::checkPipelineLayout(spirv, *layout, name);
        EXPECT_TRUE(status.ok()) << status.describe();
    }
}

}  // namespace
}  // namespace vkc
