// One frame's simultaneous AABB-tree traversal (paper 4) recorded into a caller's graph: the trees,
// built once per mesh on the CPU (every mesh the scene's objects use); a frame slot's node boxes,
// kept across its frames and refit on the GPU when a mesh deforms; the object pairs, read from a
// candidate list on the GPU (the same frame's broadphase output, or one the caller wrote) and set
// up there (aabb_pairs.comp: transforms, slacks, entrance levels, seeds); the passes of
// passes/aabb_tree. AabbTreeDetector reads the counts and triangle pairs back, each pair's objects
// with them; EbpiDetector hands the pairs of triangles whose boxes meet to its transient-edge pass.
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
#include <memory>
#include <span>
#include <string>
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
    std::vector<uint32_t> objectTrees;       // per scene object: its tree (index into layout)
    std::map<ObjectPair, uint32_t> entrances;  // the entrance levels the frame's pairs looked up
    uint32_t globalLevels = 0;
    uint32_t refitTrees = 0;
};

// The frame's object pairs on the GPU: a pair list in the broadphase's layout
// (shaders_glsl/shared/broadphase.h), a < b, each object of the scene.
struct AabbCandidatePairs {
    BufferHandle list;
    uint32_t storedPairs = 0;  // entries the list holds at most
};

struct AabbTraversalRequest {
    const char* method = "";  // names buffers and errors: "aabb-tree", "ebpi"
    const Pipeline* pairsPipeline = nullptr;
    const Pipeline* refitPipeline = nullptr;
    const Pipeline* indirectPipeline = nullptr;
    const Pipeline* traversePipeline = nullptr;
    uint32_t nodePairCapacity = 0;
    uint32_t trianglePairCapacity = 0;  // 0: counts only
    uint32_t pairCapacity = 0;          // entries of the pair table and stats (most pairs per frame)
    uint32_t vertexBufferCapacity = 0;  // of the slot's descriptor set
    const std::map<ObjectPair, uint32_t>* entranceLevels = nullptr;  // section 5; null: every pair from the top
    BufferHandle readback;                           // the frame's ring slot, with
    const ReadbackLayout* readbackLayout = nullptr;  // aabbTreeReadbackLayout; null: no read-back pass
};

// One mesh's tree as the frame's node and leaf buffers hold it.
struct AabbTreeFootprint {
    std::string mesh;
    uint64_t triangles = 0;
    uint64_t nodes = 0;
    uint64_t leaves = 0;
};
// The frame binds all trees' nodes and all their leaves as one storage buffer each, which the
// shaders index with uint: Unsupported when either exceeds `bindingLimit` bytes, saying how many
// bytes it needs and naming the largest mesh; success otherwise. (A binding past the device's
// maxStorageBufferRange would be undefined behaviour, not an error.)
Status aabbTreesFitBindings(const std::string& method, std::span<const AabbTreeFootprint> trees,
                            VkDeviceSize bindingLimit);

// A traversal added to a graph, waiting for the graph's compile to be bound.
struct AabbTraversalRecording {
    AabbTreePassInputs inputs;
    AabbTreePassOutputs outputs;  // the state, pair stats and triangle pairs the passes wrote
    // Host data per staging buffer: the frame's tables themselves, moved in (a copy of a 100,000
    // objects' table cost a fresh 16 MB per frame).
    struct Staged {
        BufferHandle staging;
        std::shared_ptr<const void> owner;
        std::span<const std::byte> bytes;  // into *owner
    };
    std::vector<Staged> staged;
    std::vector<VkDescriptorBufferInfo> vertexBuffers;
    bool rewriteTrees = false;
    AabbTraversalSlot next;  // the slot as this frame leaves it (its set aside)
};

// Adds the traversal of the pairs of `candidates` to `graph`.
Result<AabbTraversalRecording> addAabbTraversal(Graph& graph, const VulkanContext& ctx, AabbTreeCache& cache,
                                                const AabbTraversalSlot& slot, const SceneImpl& scene,
                                                const AabbCandidatePairs& candidates, const AabbTraversalRequest& request);

// After graph.compile: fills the staging buffers and the slot's descriptor set, and moves the
// recording's slot state into `slot`.
Status bindAabbTraversal(const VulkanContext& ctx, VulkanGraphAllocator& allocator, const Graph& graph,
                         VkBuffer placeholder, AabbTraversalRecording& recording, AabbTraversalSlot& slot);

}  // namespace vkc
