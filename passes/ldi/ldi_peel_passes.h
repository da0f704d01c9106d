// Stencil-routed depth peeling (paper 2, §3.2 and §4) of any number of LDIs in one set of passes:
// each LDI is a res x res tile of one depth-stencil atlas (tile t at column t % columns, row
// t / columns; viewport and scissor per tile), so a frame's passes grow with the layer cap, never
// with the number of LDIs. In frame order:
//   ldi-peel-setup  reset the per-tile stats
//   ldi-count       stencil EQUAL 0, increment-and-clamp on pass and fail: the stencil ends as the
//                   depth complexity, the first routed fragment stores layer 0; each tile's draw
//                   is indirect (firstDraws: written by the host, or by the GPU's pair setup)
//   ldi-stencil-copy, ldi-layer-count   the stencil aspect to a buffer, n_max per tile (atomicMax)
//   ldi-indirect    per (layer k, tile) an indexed indirect draw, instanceCount = k < n_max; per
//                   layer k the stencil clear's draw, instanceCount = k < n_max of some tile
//   ldi-layers      one render pass; per layer k in 1..cap-1 the stencil cleared by that draw,
//                   then EQUAL k: the (k+1)-th fragment stores layer k. The stencil is ordered by
//                   rasterization order and each draw writes only its (tile, layer) image, so the
//                   layers need no barriers between them, and a layer no tile has draws nothing
//   ldi-sort        per pixel: sort min(count, cap) layers from the near plane, count pixels whose
//                   entry / leave order is broken (§7)
// Reads: the tiles buffer (LdiTileGpu), the first draws, the index buffer, mesh vertices in place. Writes: layers
// (facing * (depth + 1), cap images of res^2 floats per tile), stencil counts, tile stats, commands.
// Invariant: the host never waits between passes; a tile with n_max > cap is truncated (its stats
// say so) and its layers beyond the cap are missing, in no particular order.
#pragma once

#include "passes/graph/graph.h"
#include "shaders_glsl/shared/ldi.h"
#include "vk/pipeline.h"

#include <algorithm>
#include <vector>

namespace vkc {

struct DepthPeelPipelines {
    const Pipeline* peel = nullptr;        // ldi_peel.vert/.frag, stencil EQUAL (dynamic reference), incr-clamp
    const Pipeline* clear = nullptr;       // fullscreen_triangle.vert, stencil ALWAYS, ZERO: a layer's clear
    const Pipeline* layerCount = nullptr;  // ldi_layer_count.comp
    const Pipeline* indirect = nullptr;    // ldi_indirect.comp
    const Pipeline* sort = nullptr;        // ldi_sort.comp
};

struct DepthPeelInputs {
    DepthPeelPipelines pipelines;
    VkDescriptorSet drawSet = VK_NULL_HANDLE;        // kLdiDrawLayout set 0
    VkDescriptorSet tileLayersSet = VK_NULL_HANDLE;  // kLdiDrawLayout set kLdiSetTileLayers (a dynamic range)
    VkDescriptorSet computeSet = VK_NULL_HANDLE;  // kLdiComputeLayout
    bool storeOpNone = false;                     // Vulkan 1.3: read-only attachments store nothing
    uint32_t resolution = 0;
    uint32_t layerCap = 0;                        // 1..kLdiMaxLayerCap
    uint32_t atlasColumns = 0;                    // tiles per atlas row
    uint32_t maxGroupsX = 65535;                  // maxComputeWorkGroupCount[0]: wider grids wrap into y
    uint32_t tileCount = 0;                       // tiles drawn (an unused one draws nothing)

    BufferHandle tileBuffer;                      // LdiTileGpu per tile
    BufferHandle firstDraws;                      // VkDrawIndexedIndirectCommand per tile: its count pass
    BufferHandle indices;                         // uint32 index buffer of every mesh
    std::vector<BufferHandle> meshVertices;       // every vertex buffer the tiles read
    BufferHandle layers;                          // tiles x cap x res^2 floats
    BufferHandle stencilCounts;                   // atlas bytes (the used area, tightly packed)
    BufferHandle stats;                           // LdiTileStatsGpu per tile
    BufferHandle commands;                        // ldiIndirectCommands(cap, tiles) x 20 bytes
    ImageHandle depthStencil;                     // the atlas, 8-bit stencil
};

// Handles the passes advance.
struct DepthPeelState {
    BufferHandle layers, stencilCounts, stats, commands;
    ImageHandle depthStencil;
};

// Descriptor layouts (checked against the SPIR-V by tests/ldi).
extern const PipelineLayoutDesc kLdiDrawLayout;
extern const PipelineLayoutDesc kLdiComputeLayout;

// Bytes of one layer of one tile (res^2 floats): the range and the dynamic offset step of the draw
// set's layer binding; a tile's layers lie one after another.
inline VkDeviceSize ldiLayerBytes(uint32_t resolution) { return VkDeviceSize(resolution) * resolution * sizeof(float); }
inline VkDeviceSize ldiTileLayerBytes(uint32_t resolution, uint32_t layerCap) { return ldiLayerBytes(resolution) * layerCap; }
// Indirect commands ldi-indirect writes, 5 uints each: (cap - 1) x tiles draws and (cap - 1) clears.
inline VkDeviceSize ldiIndirectCommands(uint32_t layerCap, uint32_t tileCount) {
    return VkDeviceSize(layerCap - 1) * (tileCount + 1);
}
// Which of them draws tile `tile` at layer `layer` (1..cap-1), and which clears before that layer.
inline VkDeviceSize ldiTileDrawCommand(uint32_t tileCount, uint32_t layer, uint32_t tile) {
    return VkDeviceSize(layer - 1) * tileCount + tile;
}
inline VkDeviceSize ldiClearCommand(uint32_t layerCap, uint32_t tileCount, uint32_t layer) {
    return VkDeviceSize(layerCap - 1) * tileCount + layer - 1;
}
// Workgroups for `threads` threads of `groupSize` as a grid of at most maxGroupsX columns (rows as
// needed): the shaders take the linear id from ldiThreadIndex() and bounds-check it.
inline VkExtent2D ldiDispatchGrid(uint32_t threads, uint32_t groupSize, uint32_t maxGroupsX) {
    const uint32_t groups = threads / groupSize + (threads % groupSize != 0 ? 1u : 0u);
    const uint32_t x = std::min(groups, maxGroupsX);
    return {x, x == 0 ? 0u : (groups + x - 1) / x};
}

// The atlas area the tiles use: min(tiles, columns) x rows tiles.
inline VkExtent2D ldiAtlasExtent(uint32_t tileCount, uint32_t columns, uint32_t resolution) {
    uint32_t rows = (tileCount + columns - 1) / columns;
    return {std::min(tileCount, columns) * resolution, rows * resolution};
}
// What every LDI compute shader is pushed besides its own fields.
gpu::LdiComputePush ldiComputePush(uint32_t resolution, uint32_t layerCap, uint32_t tileCount, uint32_t atlasColumns);

void addDepthPeelPasses(Graph& graph, const DepthPeelInputs& in, DepthPeelState& state);

}  // namespace vkc
