// Passes of method `aabb-tree` (paper 4): upload → refit (bottom-up, one pass per level) → clear →
// pair setup (the object pairs, their transforms and entrance seeds from a candidate list on the
// GPU) → per global level: indirect preparation + traversal → copy into the read-back ring slot.
// Reads: trees, leaves, vertex buffers (the host's, in place), objects, candidate pairs.
// Writes: refit boxes; node-pair ping-pong lists; triangle pairs (capacity-bounded); per-level and
// per-pair counters (exact). Invariant: every level is recorded up front and sized on the GPU
// (vkCmdDispatchIndirect), so the CPU never waits between levels (the paper's 2003 read-backs).
#pragma once

#include "passes/graph/graph.h"
#include "passes/graph/readback_layout.h"
#include "shaders_glsl/shared/aabb_tree.h"
#include "vk/pipeline.h"

#include <vector>

namespace vkc {

// One host-written staging range copied into its device-local buffer before the passes run.
struct AabbUpload {
    BufferHandle staging;  // host-visible, written by the CPU at record time
    BufferHandle device;   // device-local; must be one of the inputs' tree/pair/seed handles
    VkDeviceSize bytes = 0;
};

struct AabbTreePassInputs {
    // aabb_pairs.comp, which writes pairs, seedLevels and seeds from objects, candidates and
    // entrances; null when the caller uploads pairs and seeds itself (the CPU reference's tests).
    const Pipeline* pairsPipeline = nullptr;
    const Pipeline* refitPipeline = nullptr;
    const Pipeline* indirectPipeline = nullptr;
    const Pipeline* traversePipeline = nullptr;
    VkDescriptorSet set = VK_NULL_HANDLE;  // one set (kAabbPipelineLayout) serves all three pipelines

    uint32_t refitTreeCount = 0;     // entries of the refit list; 0: no refit passes
    uint32_t refitLevels = 0;        // most levels of a refit tree
    uint32_t refitMaxLeaves = 0;     // most leaves of a refit tree
    uint32_t globalLevels = 0;       // levels of the batched traversal; 0: nothing to traverse
    uint32_t listCapacity = 0;       // entries per node-pair list
    uint32_t trianglePairCapacity = 0;  // 0 when the list is not kept
    uint32_t pairCount = 0;          // object pairs (stats entries)
    uint32_t maxGroups = 0;          // device limit on workgroups in x
    gpu::AabbPairsPush pairsPush = {};  // with pairsPipeline

    // Device-local inputs; `uploads` refreshes the ones the CPU changed this frame.
    BufferHandle trees, nodes, leaves, refitList, pairs, seedLevels, seeds;
    BufferHandle objects, candidates, entrances;  // with pairsPipeline
    std::vector<AabbUpload> uploads;
    BufferHandle state, nodePairs, trianglePairs, pairStats;
    std::vector<BufferHandle> vertices;  // every vertex buffer the trees read
    BufferHandle readback;               // the frame's ring slot
    const ReadbackLayout* readbackLayout = nullptr;  // aabbTreeReadbackLayout; null: no read-back pass
};

// The versions of the counters and the triangle pair list the passes wrote, and of the trees as
// uploaded and refit (ebpi's compute backend traces rays through them), for later passes.
struct AabbTreePassOutputs {
    BufferHandle state, pairStats, trianglePairs;
    BufferHandle trees, nodes, leaves;
};

// The descriptor layout shared by aabb_pairs.comp, aabb_refit.comp, aabb_indirect.comp and
// aabb_traverse.comp (each uses a subset; tests/aabb_tree/aabb_detector_test.cpp checks it
// against their SPIR-V).
extern const PipelineLayoutDesc kAabbPipelineLayout;

// Stable pass labels (timings are summed per label across levels).
inline constexpr const char* kAabbUploadPassName = "aabb-upload";
inline constexpr const char* kAabbRefitPassName = "aabb-refit";
inline constexpr const char* kAabbClearPassName = "aabb-clear";
inline constexpr const char* kAabbPairsPassName = "aabb-pairs";
inline constexpr const char* kAabbIndirectPassName = "aabb-indirect";
inline constexpr const char* kAabbTraversePassName = "aabb-traverse";
inline constexpr const char* kAabbReadbackPassName = "aabb-readback";

// Read-back regions: the traversal state, per-pair stats, then (when kept) the triangle pairs.
enum AabbTreeReadback : uint32_t { kAabbReadbackState, kAabbReadbackPairStats, kAabbReadbackTrianglePairs };
ReadbackLayout aabbTreeReadbackLayout(uint32_t maxCandidatePairs, uint32_t trianglePairCapacity);

AabbTreePassOutputs addAabbTreePasses(Graph& graph, const AabbTreePassInputs& inputs);

}  // namespace vkc
