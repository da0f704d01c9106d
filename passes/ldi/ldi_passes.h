// Passes of method `ldi` (paper 2), in frame order:
//   ldi-setup (reset pair results and the inside list) -> depth peeling of every tile
//   (ldi_peel_passes.h) -> ldi-volume, ldi-volume-sum (§3.3a, pairs) -> ldi-drawn-bound (pairs
//   whose tiles ask for it) -> ldi-points (§3.3b) -> ldi-readback.
// Pair p's LDIs are tiles 2p (object a) and 2p + 1 (object b); a point query has one tile.
// Reads: the peeled, sorted layers and stencil counts, mesh vertices / caller points in place.
// Writes: per-pair interval-length sums and inside counts, the per-pixel intersection depth
// images, the inside list, and the ring slot: [inside list | pair results | tile stats | images].
// Invariant: the inside count is exact past the list's capacity; truncated tiles add nothing.
#pragma once

#include "passes/ldi/ldi_peel_passes.h"
#include "passes/graph/readback_layout.h"

#include <vector>

namespace vkc {

struct LdiPipelines {
    DepthPeelPipelines peel;
    const Pipeline* volume = nullptr;     // ldi_volume.comp
    const Pipeline* volumeSum = nullptr;  // ldi_volume_sum.comp
    const Pipeline* points = nullptr;  // ldi_points.comp
    const Pipeline* drawnBound = nullptr;  // ldi_drawn_bound.comp
};

// One dispatch of ldi_points.comp: points read like vertices tested against a tile.
struct LdiPointTest {
    glm::mat4 pointToTexel{1.0f};  // the points' space -> the tile's texels
    uint32_t tile = 0;
    uint32_t tag = 0;              // pair << 1 | side
    gpu::VertexSourceGpu points = {0, 3, 0, 0};
};

struct LdiPassInputs {
    DepthPeelInputs peel;          // pipelines.peel is copied in by addLdiPasses
    LdiPipelines pipelines;
    uint32_t pairCount = 0;        // pairs with a volume: tiles 2p, 2p + 1
    uint32_t insideCapacity = 0;
    std::vector<LdiPointTest> pointTests;
    bool boundFromDrawn = false;   // some pair's tiles ask ldi_drawn_bound.comp for its error bound

    BufferHandle pairResults;      // LdiPairResultGpu per pair
    BufferHandle depthImage;       // res^2 floats per pair
    BufferHandle volumePartials;   // ldiVolumeGroups(res) doubles per pair
    BufferHandle inside;           // LdiListHeader + uvec2 * insideCapacity
    BufferHandle readback;         // the frame's ring slot
    const ReadbackLayout* readbackLayout = nullptr;  // ldiReadbackLayout
    bool readImages = false;       // copy the intersection depth images too
};

// Workgroups of ldi_volume.comp per pair: its partial sums.
inline uint32_t ldiVolumeGroups(uint32_t resolution) {
    return (resolution * resolution + gpu::kLdiVolumeGroupSize - 1) / gpu::kLdiVolumeGroupSize;
}
inline VkDeviceSize ldiInsideBytes(uint32_t capacity) {
    return sizeof(gpu::LdiListHeader) + VkDeviceSize(capacity) * 2 * sizeof(uint32_t);
}

// Read-back regions: the inside list, per-pair results, per-tile stats, then (when kept) the
// intersection depth images.
enum LdiReadback : uint32_t { kLdiReadbackInside, kLdiReadbackPairs, kLdiReadbackTileStats, kLdiReadbackImages };
ReadbackLayout ldiReadbackLayout(uint32_t insideCapacity, uint32_t maxPairs, uint32_t maxTiles, uint32_t resolution,
                                 bool keepImages);

void addLdiPasses(Graph& graph, const LdiPassInputs& inputs);

}  // namespace vkc
