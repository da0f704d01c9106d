// Passes of method `ldi` (paper 2), in frame order:
//   [ldi-pair-verdicts, ldi-pair-select-*, ldi-pair-setup (GPU-driven frames: the pairs and
//   their tables from the broadphase's candidates, addLdiPairSetupPass)] -> ldi-setup (reset pair results and the inside list) ->
//   depth peeling of every tile
//   (ldi_peel_passes.h) -> ldi-volume, ldi-volume-sum (§3.3a, pairs) -> ldi-drawn-bound (pairs
//   whose tiles ask for it) -> ldi-points (§3.3b) -> ldi-readback.
// Pair p's LDIs are tiles 2p (object a) and 2p + 1 (object b); a point query has one tile.
// Reads: the tables (tiles, first draws, point tests and their dispatches, pair infos: host-written,
// or written by ldi-pair-setup), the peeled, sorted layers and stencil counts, mesh vertices /
// caller points in place. Writes: per-pair interval-length sums and inside counts, the per-pixel
// intersection depth images, the inside list, and the ring slot:
// [inside list | pair results | tile stats | setup state and pair infos | images].
// Invariant: the inside count is exact past the list's capacity; truncated tiles add nothing.
#pragma once

#include "passes/ldi/ldi_peel_passes.h"
#include "passes/graph/readback_layout.h"
#include "passes/shared/pair_selection_passes.h"

#include <vector>

namespace vkc {

struct LdiPipelines {
    DepthPeelPipelines peel;
    const Pipeline* volume = nullptr;     // ldi_volume.comp
    const Pipeline* volumeSum = nullptr;  // ldi_volume_sum.comp
    const Pipeline* points = nullptr;  // ldi_points.comp
    const Pipeline* drawnBound = nullptr;  // ldi_drawn_bound.comp
};

// A GPU-driven frame's pair setup: ldi-pair-verdicts tests every candidate (many workgroups), the
// pair selection keeps the first maxPairs accepted, and ldi-pair-setup (one workgroup) writes
// every table of `maxPairs` pair slots from them.
struct LdiPairSetupInputs {
    const Pipeline* verdictsPipeline = nullptr;  // ldi_pair_verdicts.comp
    const Pipeline* tablesPipeline = nullptr;    // ldi_pair_setup.comp
    VkDescriptorSet set = VK_NULL_HANDLE;        // kLdiSetupLayout
    BufferHandle bounds, candidates;             // the broadphase's layout (gpu_candidates.h)
    BufferHandle sceneObjects, params;           // host-written
    // Of the same candidates (its capacity and grid limit size the verdicts' grid too); its
    // verdicts are written here.
    PairSelectionInputs selection;
    // Written: 2 x maxPairs tiles, point tests and dispatches, first draws; the setup state and
    // maxPairs pair infos.
    BufferHandle tiles, pointTests, pointDispatches, firstDraws, pairInfos;
};
extern const PipelineLayoutDesc kLdiSetupLayout;
// Returns `in` with the written handles advanced.
LdiPairSetupInputs addLdiPairSetupPass(Graph& graph, const LdiPairSetupInputs& in);

struct LdiPassInputs {
    DepthPeelInputs peel;          // pipelines.peel is copied in by addLdiPasses
    LdiPipelines pipelines;
    uint32_t pairCount = 0;        // pair slots: tiles 2p, 2p + 1 (a GPU-driven frame's unused ones draw nothing)
    uint32_t insideCapacity = 0;
    uint32_t pointTestCount = 0;   // dispatches of ldi_points.comp
    bool boundFromDrawn = false;   // some pair's tiles ask ldi_drawn_bound.comp for its error bound
    BufferHandle verticesAcross;   // with boundFromDrawn: per triangle side, the vertex across it
    BufferHandle cornerValences;   // with boundFromDrawn: per corner, the triangles holding its vertex

    BufferHandle pointTests;       // LdiPointTestGpu per test
    BufferHandle pointDispatches;  // VkDispatchIndirectCommand per test (a grid of ldiDispatchGrid)
    BufferHandle pairInfos;        // LdiSetupStateGpu, then LdiPairInfoGpu per pair: read back as they are

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

inline VkDeviceSize ldiPairInfoBytes(uint32_t pairs) {
    return sizeof(gpu::LdiSetupStateGpu) + VkDeviceSize(pairs) * sizeof(gpu::LdiPairInfoGpu);
}

// Read-back regions: the inside list, per-pair results, per-tile stats, the setup state and pair
// infos, then (when kept) the intersection depth images.
enum LdiReadback : uint32_t {
    kLdiReadbackInside,
    kLdiReadbackPairs,
    kLdiReadbackTileStats,
    kLdiReadbackPairInfos,
    kLdiReadbackImages
};
ReadbackLayout ldiReadbackLayout(uint32_t insideCapacity, uint32_t maxPairs, uint32_t maxTiles, uint32_t resolution,
                                 bool keepImages);

void addLdiPasses(Graph& graph, const LdiPassInputs& inputs);

}  // namespace vkc
