// Tier B: the depth-peeling passes of method ldi (paper 2, §3.2/§4) on a device. Every pipeline
// layout against its SPIR-V; the peeled, sorted GPU layers against the CPU reference LDI
// (collision/reference/ldi_cpu.h, which samples like the GPU), pixel by pixel; and, independently of
// that reference, against brute-force ray/triangle crossings in double at the pixel centres.
#include "collision/ldi/ldi_detector_impl.h"
#include "tests/ldi/ldi_gpu_support.h"
#include "tests/ldi/ldi_ray_crossings.h"
#include "tests/support/reflection_check.h"
#include "collision/scene/generated_solids.h"

#include "spirv/ldi_drawn_bound.comp.h"
#include "spirv/ldi_indirect.comp.h"
#include "spirv/ldi_layer_count.comp.h"
#include "spirv/ldi_peel.frag.h"
#include "spirv/ldi_peel.vert.h"
#include "spirv/ldi_points.comp.h"
#include "spirv/ldi_sort.comp.h"
#include "spirv/ldi_volume.comp.h"
#include "spirv/ldi_volume_sum.comp.h"

#include <cstdio>

namespace vkc {
namespace {

TEST(LdiLayouts, MatchShaders) {
    for (auto [spirv, layout, name] :
         {std::tuple{std::span<const uint32_t>(kSpirv_ldi_peel_vert), &kLdiDrawLayout, "peel.vert"},
          std::tuple{std::span<const uint32_t>(kSpirv_ldi_peel_frag), &kLdiDrawLayout, "peel.frag"},
          std::tuple{std::span<const uint32_t>(kSpirv_ldi_layer_count_comp), &kLdiComputeLayout, "layer_count"},
          std::tuple{std::span<const uint32_t>(kSpirv_ldi_indirect_comp), &kLdiComputeLayout, "indirect"},
          std::tuple{std::span<const uint32_t>(kSpirv_ldi_sort_comp), &kLdiComputeLayout, "sort"},
          std::tuple{std::span<const uint32_t>(kSpirv_ldi_volume_comp), &kLdiComputeLayout, "volume"},
          std::tuple{std::span<const uint32_t>(kSpirv_ldi_volume_sum_comp), &kLdiComputeLayout, "volume_sum"},
          std::tuple{std::span<const uint32_t>(kSpirv_ldi_points_comp), &kLdiComputeLayout, "points"},
          std::tuple{std::span<const uint32_t>(kSpirv_ldi_drawn_bound_comp), &kLdiComputeLayout, "drawn_bound"}}) {
        Status status = test::checkPipelineLayout(spirv, *layout, name);
        EXPECT_TRUE(status.ok()) << status.describe();
    }
}

class LdiGpuLayers : public test::VulkanTest {};

// The GPU layers of one tile, read back after the frame: per pixel, world depths and facings.
struct GpuLdi {
    std::vector<std::vector<std::pair<double, int>>> pixels;
};

// A buffer of the slot's last graph, by name, as readBuffer takes it.
Buffer frameBuffer(const LdiSlot& slot, const char* name) {
    const BufferHandle handle = slot.graph->findBuffer(name);
    EXPECT_TRUE(handle.valid()) << name;
    Buffer buffer;
    buffer.buffer = slot.graph->buffer(handle);
    buffer.size = slot.graph->bufferSize(handle);
    return buffer;
}

// Tile 0 (a) or 1 (b) of the frame's one pair, whose VoI `pair` reports.
GpuLdi readTile(VulkanContext& vk, LdiDetector& detector, const LdiPairDetails& pair, uint32_t tile) {
    LdiDetectorImpl& impl = LdiDetectorAccess::impl(detector);
    const LdiSlot& slot = impl.slots[0];
    const uint32_t res = impl.settings.resolution, cap = impl.settings.layerCap, perTile = res * res;
    std::vector<float> layers(size_t(perTile) * cap);
    EXPECT_TRUE(readBuffer(vk, frameBuffer(slot, "ldi layers"), layers.data(), layers.size() * 4,
                           VkDeviceSize(tile) * perTile * cap * 4).ok());
    VkExtent2D atlas = ldiAtlasExtent(slot.tileCount, impl.atlasColumns, res);
    std::vector<uint8_t> counts(size_t(atlas.width) * atlas.height);
    EXPECT_TRUE(readBuffer(vk, frameBuffer(slot, "ldi stencil counts"), counts.data(), counts.size()).ok());
    LdiVoi voi;
    voi.box = pair.box;
    voi.axis = pair.axis;
    voi.aFromMin = pair.aFromMin;
    const LdiView view = ldiView(voi, tile == 0, res);
    GpuLdi out;
    out.pixels.resize(perTile);
    const uint32_t x0 = (tile % impl.atlasColumns) * res, y0 = (tile / impl.atlasColumns) * res;
    for (uint32_t p = 0; p < perTile; ++p) {
        uint32_t n = std::min<uint32_t>(counts[size_t(y0 + p / res) * atlas.width + x0 + p % res], cap);
        for (uint32_t k = 0; k < n; ++k) {
            float stored = layers[size_t(k) * perTile + p];  // a tile's layers are res^2 images
            double z = std::abs(stored) - 1.0;
            out.pixels[p].push_back({view.nearWorld + z * (double(view.farWorld) - view.nearWorld), stored > 0 ? 1 : -1});
        }
    }
    return out;
}

// Pixels whose layer count, any facing, or any depth (beyond float precision) differ.
uint32_t differingPixels(const GpuLdi& gpu, const CpuLdi& cpu, double depthTolerance, uint32_t& compared) {
    uint32_t differing = 0;
    compared = 0;
    for (uint32_t p = 0; p < gpu.pixels.size(); ++p) {
        uint32_t first = cpu.offsets[p], n = cpu.offsets[p + 1] - first;
        compared += n != 0 || !gpu.pixels[p].empty();
        bool same = gpu.pixels[p].size() == n;
        for (uint32_t k = 0; same && k < n; ++k)
            same = gpu.pixels[p][k].second == cpu.facing[first + k] &&
                   std::abs(gpu.pixels[p][k].first - cpu.depths[first + k]) <= depthTolerance;
        differing += !same;
    }
    return differing;
}

// Two overlapping pairs with several layers per pixel: torus.stl with a turned copy, knot.off turned
// and a shifted copy.
struct LayerCase {
    const MeshData* a;
    glm::mat4 ta;
    const MeshData* b;
    glm::mat4 tb;
};

std::vector<LayerCase> layerCases(const std::vector<MeshData>& torusAndKnot) {
    const MeshData &torus = torusAndKnot[0], &knot = torusAndKnot[1];
    const glm::mat4 turn = glm::rotate(glm::mat4(1.0f), 0.7f, glm::vec3(1, 2, 0.5f));
    return {{&torus, glm::mat4(1.0f), &torus, glm::translate(turn, {1.2f, 0.1f, 0.2f})},
            {&knot, turn, &knot, glm::translate(glm::mat4(1.0f), {0.1f, 0.05f, 0.0f})}};
}

// Both snap vertices to 1/256 pixel and interpolate depth over the snapped triangle (the peeling
// vertex shader snaps itself). What remains: a vertex whose float transform (GPU) and double one
// (CPU) round to neighbouring sub-pixel positions moves its triangles' samples and depths a little,
// at a few pixels around it; 1% of the covered pixels is the budget (measured: at most 0.3%).
// Everywhere else count and facings agree exactly and depths within 2^-16 of the depth range: the
// float plane equation's rounding, amplified by the depth slope of steep triangles.
TEST_F(LdiGpuLayers, SortedLayersMatchTheCpuReference) {
    auto meshes = ldi_test::sharedMeshes({"torus.stl", "knot.off"});
    VKC_REQUIRE_SHARED_MESH(meshes);
    const std::vector<LayerCase> cases = layerCases(*meshes);
    auto detector = LdiDetector::create(context_, ldi_test::settingsAt(128));
    ASSERT_TRUE(detector) << detector.status().describe();
    for (const LayerCase& c : cases) {
        auto gpu = ldi_test::runPair(context_, detector.value(), *c.a, c.ta, *c.b, c.tb);
        ASSERT_TRUE(gpu);
        auto voi = computeLdiVoi(placedMeshBounds(*c.a, c.ta), placedMeshBounds(*c.b, c.tb));
        ASSERT_TRUE(voi);
        for (uint32_t tile = 0; tile < 2; ++tile) {
            CpuLdi cpu = tile == 0 ? buildCpuLdi(*c.a, c.ta, *voi, true, 128) : buildCpuLdi(*c.b, c.tb, *voi, false, 128);
            GpuLdi layers = readTile(vk(), detector.value(), gpu->details.pairs[0], tile);
            const double tolerance = std::ldexp(1.0, -16) * voi->depthExtent();
            uint32_t compared = 0;
            uint32_t differing = differingPixels(layers, cpu, tolerance, compared);
            const uint32_t n = tile == 0 ? gpu->details.pairs[0].layersA : gpu->details.pairs[0].layersB;
            std::printf("%-10s tile %u: n_max gpu %u cpu %u, %u of %u covered pixels differ\n", c.a->name.c_str(), tile,
                        n, cpu.maxDepthComplexity, differing, compared);
            EXPECT_EQ(n, cpu.maxDepthComplexity);
            EXPECT_GT(compared, 1000u);
            EXPECT_LE(differing, compared / 100) << c.a->name << " tile " << tile;
            EXPECT_EQ(tile == 0 ? gpu->details.pairs[0].invalidOrderPixelsA : gpu->details.pairs[0].invalidOrderPixelsB,
                      cpu.invalidOrderPixels());
        }
    }
}

// The layers against an independent truth: per pixel centre, the crossings of its ray with the
// unsnapped double triangles (tests/ldi/ldi_ray_crossings.h), sharing neither the rasterizer nor
// the CPU reference LDI's sampling. Pixels whose ray passes within 0.02 pixel of a projected edge
// are left out (the fill rule and the 1/256-pixel snapping decide those); at every other pixel the
// layer count (n_p) and every facing must agree exactly, and every depth within 2^-16 of the depth
// range plus 0.01 pixel times the triangle's depth slope (the snapping's shift).
// Issue 14: a layer no tile has costs neither its draws nor its stencil clear. The indirect
// commands the GPU wrote for the frame: tile t's draw of layer k exists iff k < its n_max, and
// layer k's clear iff some tile has it, against the CPU reference's n_max.
TEST_F(LdiGpuLayers, OnlyTheLayersATileHasAreDrawnAndCleared) {
    auto meshes = ldi_test::sharedMeshes({"torus.stl", "knot.off"});
    VKC_REQUIRE_SHARED_MESH(meshes);
    const LdiSettings settings = ldi_test::settingsAt(64, 12);
    auto detector = LdiDetector::create(context_, settings);
    ASSERT_TRUE(detector) << detector.status().describe();
    for (const LayerCase& c : layerCases(*meshes)) {
        auto gpu = ldi_test::runPair(context_, detector.value(), *c.a, c.ta, *c.b, c.tb);
        ASSERT_TRUE(gpu);
        auto voi = computeLdiVoi(placedMeshBounds(*c.a, c.ta), placedMeshBounds(*c.b, c.tb));
        ASSERT_TRUE(voi);
        const uint32_t layers[2] = {buildCpuLdi(*c.a, c.ta, *voi, true, 64).maxDepthComplexity,
                                    buildCpuLdi(*c.b, c.tb, *voi, false, 64).maxDepthComplexity};
        ASSERT_LT(std::max(layers[0], layers[1]), settings.layerCap) << c.a->name << ": the case must leave layers unused";
        const LdiSlot& slot = LdiDetectorAccess::impl(detector.value()).slots[0];
        ASSERT_EQ(slot.tileCount, 2u);
        const uint32_t cap = settings.layerCap, tiles = slot.tileCount;
        std::vector<uint32_t> commands(ldiIndirectCommands(cap, tiles) * 5);
        ASSERT_TRUE(readBuffer(vk(), frameBuffer(slot, "ldi layer draws"), commands.data(), commands.size() * 4).ok());
        for (uint32_t k = 1; k < cap; ++k) {
            for (uint32_t t = 0; t < tiles; ++t)
                EXPECT_EQ(commands[ldiTileDrawCommand(tiles, k, t) * 5 + 1], k < layers[t] ? 1u : 0u)
                    << c.a->name << " tile " << t << " layer " << k;
            const VkDeviceSize clear = ldiClearCommand(cap, tiles, k);
            EXPECT_EQ(commands[clear * 5], 3u);
            EXPECT_EQ(commands[clear * 5 + 1], k < std::max(layers[0], layers[1]) ? 1u : 0u)
                << c.a->name << " clear of layer " << k;
        }
    }
}

TEST_F(LdiGpuLayers, LayersMatchBruteForceRayCrossings) {
    auto meshes = ldi_test::sharedMeshes({"torus.stl", "knot.off"});
    VKC_REQUIRE_SHARED_MESH(meshes);
    const std::vector<LayerCase> cases = layerCases(*meshes);
    constexpr uint32_t kRes = 96;  // not a multiple of the workgroup size
    auto detector = LdiDetector::create(context_, ldi_test::settingsAt(kRes));
    ASSERT_TRUE(detector) << detector.status().describe();
    for (const LayerCase& c : cases) {
        auto gpu = ldi_test::runPair(context_, detector.value(), *c.a, c.ta, *c.b, c.tb);
        ASSERT_TRUE(gpu);
        ASSERT_EQ(gpu->details.pairs.size(), 1u);
        const LdiPairDetails& d = gpu->details.pairs[0];
        ASSERT_FALSE(d.truncated);
        const double extent = double(d.box.max[d.axis]) - d.box.min[d.axis];
        for (uint32_t tile = 0; tile < 2; ++tile) {
            const ldi_test::RayView view{d.box, d.axis, tile == 0 ? d.aFromMin : !d.aFromMin, kRes};
            ldi_test::RayPixels truth = tile == 0 ? ldi_test::castPixelRays(*c.a, c.ta, view)
                                                  : ldi_test::castPixelRays(*c.b, c.tb, view);
            GpuLdi layers = readTile(vk(), detector.value(), gpu->details.pairs[0], tile);
            uint32_t compared = 0, crossed = 0, countDiffers = 0, facingDiffers = 0, depthDiffers = 0, maxLayers = 0;
            for (uint32_t p = 0; p < kRes * kRes; ++p) {
                if (truth.ambiguous[p]) continue;
                const auto& expected = truth.crossings[p];
                const auto& got = layers.pixels[p];
                ++compared;
                crossed += !expected.empty();
                maxLayers = std::max(maxLayers, uint32_t(expected.size()));
                if (got.size() != expected.size()) {
                    if (countDiffers++ < 5)
                        ADD_FAILURE() << c.a->name << " tile " << tile << " pixel (" << p % kRes << ", " << p / kRes
                                      << "): " << got.size() << " layers, the ray crosses " << expected.size();
                    continue;
                }
                for (size_t k = 0; k < got.size(); ++k) {
                    facingDiffers += got[k].second != expected[k].facing;
                    depthDiffers += std::abs(got[k].first - expected[k].depth) >
                                    std::ldexp(extent, -16) + 0.01 * expected[k].slope;
                }
            }
            std::printf("%-10s tile %u at %u^2: %u pixels compared (%u crossed, n_max %u), %u ambiguous; differing: "
                        "%u counts, %u facings, %u depths\n",
                        c.a->name.c_str(), tile, kRes, compared, crossed, maxLayers, truth.ambiguousCount(),
                        countDiffers, facingDiffers, depthDiffers);
            EXPECT_GT(crossed, 1000u) << c.a->name << " tile " << tile;
            EXPECT_GE(maxLayers, 2u) << "rays cross more than one layer somewhere";
            EXPECT_EQ(countDiffers, 0u) << c.a->name << " tile " << tile;
            EXPECT_EQ(facingDiffers, 0u) << c.a->name << " tile " << tile;
            EXPECT_EQ(depthDiffers, 0u) << c.a->name << " tile " << tile;
            // n_max may come from a pixel left out here, never be below the compared pixels' maximum.
            EXPECT_GE(tile == 0 ? d.layersA : d.layersB, maxLayers) << c.a->name << " tile " << tile;
        }
    }
}

}  // namespace
}  // namespace vkc
