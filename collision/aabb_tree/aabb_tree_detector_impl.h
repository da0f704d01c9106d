// Internals of AabbTreeDetector shared by its three source files: creation and the public calls
// (aabb_tree_detector.cpp), per-frame recording (aabb_tree_detector_record.cpp) and decoding of
// the read-back slot (aabb_tree_detector_results.cpp).
// Invariant: a frame slot's buffers are touched by the host only while the frame that last used
// them has completed (checked with the read-back ring's timeline before recording).
#pragma once

#include "collision/aabb_tree/aabb_traversal_frame.h"
#include "passes/graph/graph.h"
#include "vk/buffer.h"
#include "vk/pipeline.h"
#include "vk/query_pool.h"
#include "collision/frames/detector_frames.h"
#include "collision/frames/gpu_candidates.h"
#include "vkcollide/aabb_tree.h"

#include "collision/frames/vulkan_graph.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace vkc {

struct SceneImpl;

inline constexpr uint32_t kAabbDefaultNodePairCapacity = 1u << 19;
inline constexpr uint64_t kAabbDefaultNodePairMemoryBudget = uint64_t(512) << 20;
inline constexpr uint32_t kAabbDefaultTrianglePairCapacity = 1u << 16;
inline constexpr uint32_t kAabbDefaultMaxCandidatePairs = 4096;


// Everything one frame in flight uses; reused once that frame has been read back: the traversal's
// slot (descriptor set, node boxes refit on the GPU and kept across its frames, what it traversed).
struct AabbFrameSlot {
    AabbTraversalSlot traversal;
    uint32_t nodePairCapacity = 0;  // the frame's: settings.nodePairCapacity grows between frames
    std::unique_ptr<Graph> graph;  // kept for pass names when reading timings
};

struct AabbTreeDetectorImpl {
    VulkanContext* ctx = nullptr;
    Context* context = nullptr;  // run(scene) creates its broadphase on it
    AabbTreeSettings settings;
    Pipeline pairsPipeline, refitPipeline, indirectPipeline, traversePipeline;
    DetectorFrames frames;
    std::vector<AabbFrameSlot> slots;
    AabbTreeCache trees;
    std::map<ObjectPair, uint32_t> entranceLevels;  // of the scene of `trees`

    ~AabbTreeDetectorImpl();
    Status createResources();
    Status recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, const CandidateSource& candidates, uint64_t frame);
    // After a frame whose node-pair lists overflowed (`seen`: the largest count, a lower bound of
    // the need): room for the frames recorded next, within settings.nodePairMemoryBudget (a
    // warning in `out` past it).
    void growNodePairs(uint32_t seen, FrameResults& out);
    uint32_t trianglePairCapacity() const { return settings.keepTrianglePairList ? settings.trianglePairCapacity : 0; }
};

}  // namespace vkc
