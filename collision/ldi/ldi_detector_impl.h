// The state behind vkc::LdiDetector: pipelines, one set of buffers / atlas / queries per frame in
// flight, and the read-back ring. ldi_detector.cpp creates it; ldi_detector_frame.cpp records pair
// frames and point queries, ldi_detector_results.cpp decodes them.
#pragma once

#include "collision/frames/detector_frames.h"
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

// A pair as recorded: what results() needs besides the GPU's numbers.
struct LdiRecordedPair {
    uint32_t a = 0, b = 0;
    LdiVoi voi;
    // ldiVolumeErrorBound; the float-depth term needs n_max. Unless boundFromDrawn: a mesh the host
    // deforms in its own buffer, whose CPU positions are a rest pose, and the GPU bounds the pair
    // from the triangles it drew (ldi_drawn_bound.comp).
    double boundWithoutDepth = 0.0;
    bool boundFromDrawn = false;
    double pixelArea = 0.0;
};

// Everything one frame in flight uses; reused once that frame has been read back.
// Its buffers and images are the graph's (DetectorFrames::slots).
struct LdiSlot {
    VkDescriptorSet drawSet = VK_NULL_HANDLE;
    VkDescriptorSet tileLayersSet = VK_NULL_HANDLE;
    VkDescriptorSet computeSet = VK_NULL_HANDLE;
    std::unique_ptr<Graph> graph;  // kept for pass names when reading timings

    SceneIndexCache indices;  // every mesh's triangles, rebuilt when the scene's meshes change

    // What the frame recorded, for results().
    bool pointQuery = false;
    std::vector<LdiRecordedPair> pairs;
    uint32_t tileCount = 0;
    std::vector<uint32_t> tileObjects;  // object drawn in each tile
    std::vector<LdiView> tileViews;
};

struct LdiDetectorImpl {
    VulkanContext* ctx = nullptr;
    Context* context = nullptr;  // for the broadphase of run(scene)
    LdiSettings settings;
    uint32_t maxTiles = 0;
    uint32_t atlasColumns = 0;
    VkFormat depthStencilFormat = VK_FORMAT_UNDEFINED;
    Pipeline peel, stencilClear, layerCount, indirect, sort, volume, volumeSum, points, drawnBound;
    DetectorFrames frames;
    std::vector<LdiSlot> slots;

    ~LdiDetectorImpl();
    Status createPipelines();
    Status createResources();
    // One LDI per entry of `tiles` (object, view), then the pair volumes and point tests.
    struct TileRequest {
        uint32_t object;
        LdiView view;
        std::optional<LdiDrawnBoundRegion> drawnBound;  // set: ldi_drawn_bound.comp bounds the pair
    };
    // Points read from `buffer` (its descriptor slot is filled in here).
    struct PointRequest {
        VkBuffer buffer;
        LdiPointTest test;
    };
    void writeDescriptors(const LdiSlot& slot, const Graph& graph, const LdiPassInputs& in,
                          std::span<const VkBuffer> meshBuffers);
    Status recordTiles(VkCommandBuffer cmd, const SceneImpl& scene, LdiSlot& slot, uint64_t frame,
                       std::span<const TileRequest> tiles, uint32_t pairCount, std::span<const PointRequest> points);
    Status recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, const CandidateSet& candidates, uint64_t frame);
    Status recordPoints(VkCommandBuffer cmd, const SceneImpl& scene, uint32_t object, const Aabb& bounds,
                        VkBuffer points, VkDeviceSize offset, uint32_t stride, uint32_t count, uint64_t frame);
    Status readResults(uint64_t frame, FrameResults& out, LdiFrameDetails* details);
    Status readPointResults(uint64_t frame, LdiPointResults& out);
};

// The library's and the tests' way into an LdiDetector (its public header holds the contract only).
struct LdiDetectorAccess {
    static LdiDetectorImpl& impl(const LdiDetector& detector) { return *detector.impl_; }
};

}  // namespace vkc
