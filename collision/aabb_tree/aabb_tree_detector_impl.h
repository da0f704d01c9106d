// Internals of AabbTreeDetector shared by its three source files: creation and the public calls
// (aabb_tree_detector.cpp), per-frame recording (aabb_tree_detector_record.cpp) and decoding of
// the read-back slot (aabb_tree_detector_results.cpp).
// Invariant: a frame slot's buffers are touched by the host only while the frame that last used
// them has completed (checked with the read-back ring's timeline before recording).
#pragma once

#include "collision/aabb_tree/aabb_tree.h"
#include "passes/graph/graph.h"
#include "vk/buffer.h"
#include "vk/pipeline.h"
#include "vk/query_pool.h"
#include "collision/frames/detector_frames.h"
#include "vkcollide/aabb_tree.h"

#include "collision/frames/vulkan_graph.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace vkc {

struct SceneImpl;

inline constexpr uint32_t kAabbDefaultNodePairCapacity = 1u << 19;
inline constexpr uint32_t kAabbDefaultTrianglePairCapacity = 1u << 16;
inline constexpr uint32_t kAabbDefaultMaxCandidatePairs = 4096;

inline constexpr VkDeviceSize kAabbStateBytes = sizeof(gpu::AabbTraversalStateGpu);
inline VkDeviceSize aabbAlign16(VkDeviceSize bytes) { return (bytes + 15) & ~VkDeviceSize(15); }

// builtGeneration of a tree whose CPU positions are not the mesh's current ones (host-deformed).
inline constexpr uint64_t kAabbUnknownGeneration = ~uint64_t(0);

struct AabbCachedTree {
    AabbTree tree;
    uint64_t builtGeneration = 0;  // the mesh's deformedGeneration whose positions built the boxes
};

// Everything one frame in flight uses; reused once that frame has been read back. Its buffers
// are the graph's (`resources`): host-written staging uploaded each frame to device-local inputs,
// the slot's node boxes (refit on the GPU, kept across its frames) and the traversal's lists.
struct AabbFrameSlot {
    VkDescriptorSet set = VK_NULL_HANDLE;
    std::unique_ptr<Graph> graph;  // kept for pass names when reading timings

    std::vector<MeshId> layout;              // trees in node-buffer order
    bool nodesValid = false;                 // the node buffer holds `layout`'s boxes
    std::vector<uint64_t> boxGenerations;    // per tree: generation its boxes in `nodes` reflect
    std::vector<ObjectPair> objectPairs;     // per stats entry
    std::vector<gpu::AabbPairGpu> gpuPairs;  // as uploaded (entrance heuristic needs them)
    std::vector<uint32_t> entrance;          // pair level each pair entered at
    uint32_t globalLevels = 0;
    uint32_t refitTrees = 0;
};

struct AabbTreeDetectorImpl {
    VulkanContext* ctx = nullptr;
    Context* context = nullptr;  // run(scene) creates its broadphase on it
    AabbTreeSettings settings;
    Pipeline refitPipeline, indirectPipeline, traversePipeline;
    DetectorFrames frames;
    std::vector<AabbFrameSlot> slots;
    uint64_t sceneId = 0;                    // the scene `trees` and `entranceLevels` belong to
    std::map<MeshId, AabbCachedTree> trees;  // std::map: stable addresses for AabbFrameSlot users
    std::map<ObjectPair, uint32_t> entranceLevels;

    ~AabbTreeDetectorImpl();
    Status createResources();
    Status recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, const CandidateSet& candidates, uint64_t frame);
    Result<const AabbCachedTree*> tree(const SceneImpl& scene, MeshId mesh);
    uint32_t trianglePairCapacity() const { return settings.keepTrianglePairList ? settings.trianglePairCapacity : 0; }
};

}  // namespace vkc
