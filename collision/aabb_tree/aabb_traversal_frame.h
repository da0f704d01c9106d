// One frame's simultaneous AABB-tree traversal (paper 4) recorded into a caller's graph: the trees,
// built once per mesh on the CPU; a frame slot's node boxes, kept across its frames and refit on
// the GPU when a mesh deforms; the object pairs with their slacks, entrance levels and seeds; the
// passes of passes/aabb_tree. AabbTreeDetector reads the counts and triangle pairs back; EbpiDetector
// hands the pairs of triangles whose boxes meet to its transient-edge pass on the GPU.
// Refit policy: a slot's node buffer is refit for exactly the trees whose mesh's deformedGeneration
// differs from the one its boxes were last computed for in that slot (meshes deformed every frame:
// always), so rigid meshes cost nothing per frame and each slot catches up on its own.
// Invariant: a slot is touched only while the frame that last used it has completed.
#pragma once

#include "collision/aabb_tree/aabb_tree.h"
#include "collision/frames/vulkan_graph.h"
#include "passes/aabb_tree/aabb_tree_passes.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/scene.h"

#include <cstddef>
#include <map>
#include <vector>

namespace vkc {

struct SceneImpl;

// builtGeneration of a tree whose CPU positions are not the mesh's current ones (host-deformed).
inline constexpr uint64_t kAabbUnknownGeneration = ~uint64_t(0);

struct AabbCachedTree {
    AabbTree tree;
    uint64_t builtGeneration = 0;  // the mesh's deformedGeneration whose positions built the boxes
};

// The trees of one scene. Mesh ids mean something else in another scene: enterScene forgets them.
struct AabbTreeCache {
    uint64_t sceneId = 0;
    std::map<MeshId, AabbCachedTree> trees;  // std::map: stable addresses for the slots' users

    // True (and the trees forgotten) when `scene` is not the scene of the cached trees.
    bool enterScene(const SceneImpl& scene);
    // Topology never changes after addMesh, so one build per mesh; deformation only refits.
    Result<const AabbCachedTree*> tree(const SceneImpl& scene, MeshId mesh);
};

// What a frame slot keeps between its frames, and what its last frame traversed.
struct AabbTraversalSlot {
    VkDescriptorSet set = VK_NULL_HANDLE;    // kAabbPipelineLayout
    std::vector<MeshId> layout;              // trees in node-buffer order
    bool nodesValid = false;                 // the node buffer holds `layout`'s boxes
    std::vector<uint64_t> boxGenerations;    // per tree: generation its boxes in `nodes` reflect
    std::vector<ObjectPair> objectPairs;     // per pair entry (stats, triangle pairs' `pair`)
    std::vector<gpu::AabbPairGpu> gpuPairs;  // as uploaded (the entrance heuristic needs them)
    std::vector<uint32_t> entrance;          // pair level each pair entered at
    uint32_t globalLevels = 0;
    uint32_t refitTrees = 0;
};

struct AabbTraversalRequest {
    const char* method = "";  // names buffers and errors: "aabb-tree", "ebpi"
    const Pipeline* refitPipeline = nullptr;
    const Pipeline* indirectPipeline = nullptr;
    const Pipeline* traversePipeline = nullptr;
    uint32_t nodePairCapacity = 0;
    uint32_t trianglePairCapacity = 0;  // 0: counts only
    uint32_t pairCapacity = 0;          // entries of the pair stats buffer (most pairs per frame)
    uint32_t vertexBufferCapacity = 0;  // of the slot's descriptor set
    const std::map<ObjectPair, uint32_t>* entranceLevels = nullptr;  // section 5; null: every pair from the top
    BufferHandle readback;                           // the frame's ring slot, with
    const ReadbackLayout* readbackLayout = nullptr;  // aabbTreeReadbackLayout; null: no read-back pass
};

// A traversal added to a graph, waiting for the graph's compile to be bound.
struct AabbTraversalRecording {
    AabbTreePassInputs inputs;
    AabbTreePassOutputs outputs;  // the state, pair stats and triangle pairs the passes wrote
    std::vector<std::pair<BufferHandle, std::vector<std::byte>>> staged;  // host data per staging buffer
    std::vector<VkBuffer> vertexBuffers;
    bool rewriteTrees = false;
    AabbTraversalSlot next;  // the slot as this frame leaves it (its set aside)
};

// Adds the traversal of `objectPairs` (normalised, distinct) to `graph`.
Result<AabbTraversalRecording> addAabbTraversal(Graph& graph, const VulkanContext& ctx, AabbTreeCache& cache,
                                                const AabbTraversalSlot& slot, const SceneImpl& scene,
                                                std::vector<ObjectPair> objectPairs, const AabbTraversalRequest& request);

// After graph.compile: fills the staging buffers and the slot's descriptor set, and moves the
// recording's slot state into `slot`.
Status bindAabbTraversal(const VulkanContext& ctx, VulkanGraphAllocator& allocator, const Graph& graph,
                         VkBuffer placeholder, AabbTraversalRecording& recording, AabbTraversalSlot& slot);

}  // namespace vkc
