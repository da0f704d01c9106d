// Internals of AabbTreeDetector shared by its three source files: creation and the public calls
// (aabb_tree_detector.cpp), per-frame recording (aabb_tree_detector_record.cpp) and decoding of
// the read-back slot (aabb_tree_detector_results.cpp).
// Invariant: a frame slot's buffers are touched by the host only while the frame that last used
// them has completed (checked with the read-back ring's timeline before recording).
#pragma once

#include "collision/aabb_tree.h"
#include "passes/graph.h"
#include "vk/buffer.h"
#include "vk/pipeline.h"
#include "vk/query_pool.h"
#include "vk/readback_ring.h"
#include "vkcollide/aabb_tree.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace vkc {

struct SceneImpl;

inline constexpr uint32_t kAabbDefaultNodePairCapacity = 1u << 19;
inline constexpr uint32_t kAabbDefaultTrianglePairCapacity = 1u << 16;
inline constexpr uint32_t kAabbDefaultMaxObjectPairs = 4096;
inline constexpr uint32_t kAabbDefaultFramesInFlight = 2;
// Passes per frame at most: upload + refit levels + clear + (indirect + traverse) per level + readback.
inline constexpr uint32_t kAabbMaxPasses = 3 * gpu::kAabbMaxLevels + 3;

inline constexpr VkDeviceSize kAabbStateBytes = sizeof(gpu::AabbTraversalStateGpu);
inline VkDeviceSize aabbAlign16(VkDeviceSize bytes) { return (bytes + 15) & ~VkDeviceSize(15); }

// builtGeneration of a tree whose CPU positions are not the mesh's current ones (host-deformed).
inline constexpr uint64_t kAabbUnknownGeneration = ~uint64_t(0);

struct AabbCachedTree {
    AabbTree tree;
    uint64_t builtGeneration = 0;  // the mesh's deformedGeneration whose positions built the boxes
};

// Everything one frame in flight uses; reused once that frame has been read back.
struct AabbFrameSlot {
    // Host-written each frame or on change (Upload memory, staging), grown on demand while the slot
    // is free, and their device-local mirrors that the shaders read (copied by the aabb-upload pass).
    Buffer trees, nodes, leaves, refitList, pairs, seedLevels, seeds;
    Buffer treesGpu, nodesGpu, leavesGpu, refitListGpu, pairsGpu, seedLevelsGpu, seedsGpu;
    // GPU-only, fixed size.
    Buffer state, nodePairs, trianglePairs, pairStats;
    VkDescriptorSet set = VK_NULL_HANDLE;
    QueryPool timestamps;
    std::unique_ptr<Graph> graph;  // kept for pass names when reading timings

    std::vector<MeshId> layout;              // trees in node-buffer order
    std::vector<uint64_t> boxGenerations;    // per tree: generation its boxes in `nodes` reflect
    std::vector<ObjectPair> objectPairs;     // per stats entry
    std::vector<gpu::AabbPairGpu> gpuPairs;  // as uploaded (entrance heuristic needs them)
    std::vector<uint32_t> entrance;          // pair level each pair entered at
    uint32_t globalLevels = 0;
    uint32_t refitTrees = 0;
};

struct AabbTreeDetectorImpl {
    VulkanContext* ctx = nullptr;
    AabbTreeSettings settings;
    Pipeline refitPipeline, indirectPipeline, traversePipeline;
    VkDescriptorPool descriptorPool = VK_NULL_HANDLE;
    uint32_t vertexBufferCapacity = 0;  // length of each set's vertex-buffer array (vertex_buffer_slots.h)
    std::vector<AabbFrameSlot> slots;
    ReadbackRing ring;
    VkDeviceSize readbackStatsOffset = 0;
    VkDeviceSize readbackTrianglesOffset = 0;
    uint64_t sceneId = 0;                    // the scene `trees` and `entranceLevels` belong to
    std::map<MeshId, AabbCachedTree> trees;  // std::map: stable addresses for AabbFrameSlot users
    std::map<ObjectPair, uint32_t> entranceLevels;
    uint64_t nextRunFrame = 0;

    ~AabbTreeDetectorImpl();
    Status createResources();
    Status recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, std::span<const ObjectPair> pairs, uint64_t frame);
    Result<const AabbCachedTree*> tree(const SceneImpl& scene, MeshId mesh);
    Status ensureBuffer(Buffer& buffer, VkDeviceSize bytes, MemoryUsage memory, const std::string& name,
                        VkBufferUsageFlags extraUsage = 0);
    // A staging buffer and its device-local mirror, both at least `bytes`.
    Status ensureMirrored(Buffer& staging, Buffer& device, VkDeviceSize bytes, const std::string& name);
    uint32_t trianglePairCapacity() const { return settings.keepTrianglePairList ? settings.trianglePairCapacity : 0; }
};

}  // namespace vkc
