// The state behind vkc::LdiDetector: pipelines, one set of buffers / atlas / queries per frame in
// flight, and the read-back ring. ldi_detector.cpp creates it; ldi_detector_frame.cpp records pair
// frames and point queries, ldi_detector_results.cpp decodes them.
#pragma once

#include "collision/frames/detector_frames.h"
#include "collision/frames/gpu_candidates.h"
#include "collision/frames/pair_selection_frame.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "collision/ldi/ldi_drawn_bound_topology.h"
#include "collision/ldi/ldi_error_bound.h"
#include "collision/ldi/ldi_views.h"
#include "collision/ldi/ldi_voi.h"
#include "collision/scene/scene_index_cache.h"
#include "passes/graph/graph.h"
#include "passes/ldi/ldi_passes.h"
#include "vk/buffer.h"
#include "vk/image.h"
#include "vk/pipeline.h"
#include "vk/query_pool.h"
#include "vkcollide/ldi.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vkc {

struct SceneImpl;
class SceneSelfIntersections;

// Everything one frame in flight uses; reused once that frame has been read back.
// Its buffers and images are the graph's (DetectorFrames::slots).
struct LdiSlot {
    VkDescriptorSet drawSet = VK_NULL_HANDLE;
    VkDescriptorSet tileLayersSet = VK_NULL_HANDLE;
    VkDescriptorSet computeSet = VK_NULL_HANDLE;
    VkDescriptorSet setupSet = VK_NULL_HANDLE;  // ldi-pair-setup's (GPU-driven frames)
    PairSelectionSlot pairSelection;            // likewise
    std::unique_ptr<Graph> graph;  // kept for pass names when reading timings

    SceneIndexCache indices;  // every mesh's triangles, rebuilt when the scene's meshes change
    LdiDrawnBoundTopology drawnBoundTopology;  // likewise, built for frames with ldi-drawn-bound

    // What the frame recorded, for results(); the pairs themselves come back with the frame
    // (LdiPairInfoGpu), whoever chose them.
    bool pointQuery = false;
    uint32_t tileCount = 0;
    uint32_t layerCap = 0;  // the frame's: settings.layerCap grows between frames
    // The recorded scene's self-intersection verdicts, to confirm the frame's §7 flags.
    std::weak_ptr<SceneSelfIntersections> selfIntersections;
};

// A frame's tables (shaders_glsl/shared/ldi.h) as the host writes them: for host candidates and
// point queries. A GPU-driven frame's are written by ldi-pair-setup instead.
struct LdiHostTables {
    std::vector<gpu::LdiTileGpu> tiles;
    std::vector<VkDrawIndexedIndirectCommand> firstDraws;  // per tile
    std::vector<gpu::LdiPointTestGpu> pointTests;
    std::vector<VkDispatchIndirectCommand> pointDispatches;  // per point test
    std::vector<gpu::LdiPairInfoGpu> pairs;
    bool boundFromDrawn = false;  // some pair's tiles ask ldi_drawn_bound.comp for its bound
};

// What a GPU-driven frame's ldi-pair-setup reads besides the candidates.
struct LdiGpuSetup {
    CandidateBuffers candidates;
    std::vector<gpu::LdiSceneObjectGpu> objects;  // per scene object
    gpu::LdiSetupParamsGpu params{};
};

struct LdiDetectorImpl {
    VulkanContext* ctx = nullptr;
    Context* context = nullptr;  // for the broadphase of run(scene)
    LdiSettings settings;
    uint32_t maxTiles = 0;
    uint32_t atlasColumns = 0;
    VkFormat depthStencilFormat = VK_FORMAT_UNDEFINED;
    Pipeline peel, stencilClear, layerCount, indirect, sort, volume, volumeSum, points, drawnBound;
    Pipeline pairVerdicts, pairSetup;  // ldi_pair_verdicts.comp, ldi_pair_setup.comp (GPU-driven frames)
    PairSelectionPrograms pairSelection;
    DetectorFrames frames;
    std::vector<LdiSlot> slots;

    ~LdiDetectorImpl();
    Status createPipelines();
    Status createResources();
    // Per tested pair (candidate order), the tile and point-test entries of pair slot `p` on the
    // host: the VoI's two LDIs, each object's vertices against the other's (§3.3b).
    Status addHostPair(const SceneImpl& scene, uint32_t a, uint32_t b, const LdiVoi& voi, VertexBufferSlots& vertexSlots,
                       const SceneIndexCache& indices, LdiHostTables& tables) const;
    // One LDI tile of `object` (its vertex-buffer slot assigned) at atlas position `tile`.
    Result<gpu::LdiTileGpu> hostTile(const SceneImpl& scene, uint32_t object, const LdiView& view, uint32_t tile,
                                     VertexBufferSlots& vertexSlots, const SceneIndexCache& indices) const;
    void writeDescriptors(const LdiSlot& slot, const Graph& graph, const LdiPassInputs& in,
                          const LdiPairSetupInputs* setup, std::span<const VkDescriptorBufferInfo> meshBuffers);
    // The frame's passes over `pairSlots` pairs (tileCount tiles): tables from `host`, or from
    // ldi-pair-setup over `gpu` (candidates imported into `graph` already).
    Status recordGraph(VkCommandBuffer cmd, LdiSlot& slot, uint64_t frame, std::unique_ptr<Graph> graph,
                       const VertexBufferSlots& vertexSlots, uint32_t pairSlots, uint32_t tileCount,
                       const LdiHostTables* host, const LdiGpuSetup* gpu);
    Status recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, const CandidateSet& candidates, uint64_t frame);
    Status recordGpuDriven(VkCommandBuffer cmd, const SceneImpl& scene, const GpuCandidates& candidates, uint64_t frame);
    Status recordPoints(VkCommandBuffer cmd, const SceneImpl& scene, uint32_t object, const Aabb& bounds,
                        VkBuffer points, VkDeviceSize offset, uint32_t stride, uint32_t count, uint64_t frame);
    Status readResults(uint64_t frame, FrameResults& out, LdiFrameDetails* details);
    // After a frame whose pairs needed more layers than it peeled: room for them in the frames
    // recorded next, within settings.layerMemoryBudget and one binding (a warning in `out` past it).
    void growLayers(const LdiFrameDetails& frame, FrameResults& out);
    Status readPointResults(uint64_t frame, LdiPointResults& out);
};

// The library's and the tests' way into an LdiDetector (its public header holds the contract only).
struct LdiDetectorAccess {
    static LdiDetectorImpl& impl(const LdiDetector& detector) { return *detector.impl_; }
};

}  // namespace vkc
