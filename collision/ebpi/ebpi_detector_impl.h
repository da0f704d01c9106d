// The state behind vkc::EbpiDetector: pipelines, one set of descriptor sets per frame in flight,
// the read-back ring. ebpi_detector.cpp creates it; ebpi_detector_frame.cpp records a frame's
// graph (pair setup -> directions -> EBPI -> rays -> casting -> volume, one graph, no read-back
// inside it); ebpi_detector_results.cpp decodes it.
#pragma once

#include "collision/aabb_tree/aabb_traversal_frame.h"
#include "collision/ebpi/ebpi_detector_accel.h"
#include "collision/ebpi/ebpi_pair_views.h"
#include "collision/ebpi/ebpi_scene_tables.h"
#include "collision/frames/gpu_candidates.h"
#include "collision/frames/detector_frames.h"
#include "collision/frames/pair_selection_frame.h"
#include "collision/scene/scene_index_cache.h"
#include "passes/ebpi/ebpi_trace_pipelines.h"
#include "passes/graph/graph.h"
#include "shaders_glsl/shared/ebpi_volume.h"
#include "vk/pipeline.h"
#include "vkcollide/ebpi.h"

#include <map>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace vkc {

struct SceneImpl;

// The frame's one copy into its read-back slot.
inline constexpr const char* kEbpiReadbackPassName = "ebpi-readback";

// Read-back regions of one frame.
enum EbpiReadback : uint32_t {
    kEbpiReadbackViewResults,  // EbpiRayViewResultGpu per view
    kEbpiReadbackCounters,     // EbpiRayCountersGpu
    kEbpiReadbackSums,         // EbpiPairVolumeGpu per (pair, axis)
    kEbpiReadbackGradients,    // 64-bit fixed point per (vertex slot, axis)
    kEbpiReadbackPixels,       // EbpiPixelGpu per pixel of every view (keepImages)
    kEbpiReadbackTiles,        // EbpiRayTileGpu per pyramid tile of every view (keepImages)
    kEbpiReadbackTraversal,    // AabbTraversalStateGpu of the transient edges' candidate search
    kEbpiReadbackAxes,         // 9 doubles per pair: the directions the GPU chose (columns)
    kEbpiReadbackViews,        // EbpiViewGpu per view, as the GPU fitted it
    kEbpiReadbackRayViews,     // EbpiRayViewGpu per view, likewise
    kEbpiReadbackSetup,        // EbpiSetupStateGpu, then EbpiSlotGpu per slot (ebpi_pair_setup.h)
    kEbpiReadbackVolumePairs,  // EbpiVolumePairGpu per slot: gradient slots and fixed-point scales
};

struct EbpiSlot {
    PairSelectionSlot pairSelection;  // the setup's
    VkDescriptorSet setupSet = VK_NULL_HANDLE, directionSet = VK_NULL_HANDLE, imageSet = VK_NULL_HANDLE,
                    raySet = VK_NULL_HANDLE, traceSet = VK_NULL_HANDLE, volumeSet = VK_NULL_HANDLE;
    std::unique_ptr<Graph> graph;  // kept for pass names when reading timings
    SceneIndexCache indices;
    SceneTopologyKey edgesUploaded;  // whose closed meshes' edges the slot's edge buffer holds
    EbpiAccelFrame accel;  // hardware ray backends
    AabbTraversalSlot traversal;  // the transient edges' candidate triangle pairs
    // The last frame's tables: pair slots (0: nothing was tested) and gradient slots.
    uint32_t pairSlots = 0, gradientSlots = 0;
    // The last frame's tolerance and ray budget: setTolerance, and growth to a frame's need
    // (growRays), change them between frames, so its results read them here.
    double tolerance = 0.0;
    uint32_t maxRays = 0, hitCapacity = 0;
};

struct EbpiDetectorImpl {
    VulkanContext* ctx = nullptr;
    Context* context = nullptr;  // for the broadphase of run(scene)
    EbpiSettings settings;
    EbpiRayBackend backend = EbpiRayBackend::Compute;
    // Rays whose hit slots one storage-buffer binding holds (at most maxRays): the casting and the
    // sums run in chunks of this many rays, so maxRays is not limited by the hits' binding.
    uint32_t hitChunkRays = 0;
    Pipeline pairVerdicts, setup, histogram, directions;  // ebpi_pair_verdicts.comp, ebpi_pair_setup.comp first
    PairSelectionPrograms pairSelection;
    Pipeline depthExtent, edgeTerms, transientTerms, pyramid, options, allocate, scan, generate, volume;
    Pipeline aabbPairs, aabbRefit, aabbIndirect, aabbTraverse;  // the traversal in leaf-box mode
    AabbTreeCache trees;
    EbpiTracePipelines tracePipelines;
    DetectorFrames frames;
    std::vector<EbpiSlot> slots;
    EbpiSceneCache sceneCache;
    // Warm starts (Sec. 4.4): each pair's axes as last read back from the GPU (of the scene of
    // `trees`) and the frame they came from, handed to the pair setup sorted; a pair not measured
    // for kEbpiAxesKeptFrames frames is forgotten, so the table follows the pairs in contact.
    struct LastAxes {
        glm::dmat3 axes;
        uint64_t frame = 0;
    };
    static constexpr uint64_t kEbpiAxesKeptFrames = 64;
    std::map<std::pair<uint32_t, uint32_t>, LastAxes> previousAxes;

    ~EbpiDetectorImpl();
    Status createPipelines();
    Status createResources();
    // A host's candidates checked on the CPU, so that record() refuses what the frame cannot test:
    // InvalidMesh for a pair with an open mesh, InvalidArgument past maxPairs or
    // maxGradientVertices. Returns those whose boxes overlap with a volume (the pairs uploaded).
    Result<std::vector<ObjectPair>> testedPairs(const SceneImpl& scene, const CandidateSet& candidates,
                                                std::span<const ObjectPair> pairs) const;
    Status recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, const CandidateSource& candidates, uint64_t frame);
    Status readResults(uint64_t frame, FrameResults& out, EbpiFrameDetails* details);
    std::pair<uint32_t, uint32_t> rayCapacity() const;  // maxRays, hitCapacity
    // After a frame that needed more rays or hit slots than it had: maxRays and hitCapacity for
    // the frames recorded next, within settings.rayMemoryBudget (a warning in `out` past it).
    void growRays(const EbpiFrameDetails& frame, FrameResults& out);
};

ReadbackLayout ebpiReadbackLayout(const EbpiSettings& settings);

// Device memory of one frame's rays (`rays` of them: ray, sample, volume ray, hit count) and the
// hit slots of a chunk of `chunkRays` rays of `hitCapacity` each: what rayMemoryBudget bounds.
uint64_t ebpiRayBytes(uint64_t rays, uint64_t hitCapacity, uint64_t chunkRays);

}  // namespace vkc
