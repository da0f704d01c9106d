// Broadphase passes (DESIGN.md "shared by all methods"): clear → world bounds → tree over the
// objects (centre box → Morton codes → radix sort → internal nodes → boxes bottom-up) → pair
// search → the pairs grouped by their first object (counts → offsets → scatter), so the host
// sorts a few pairs per group instead of the whole list → copy into the read-back ring slot. O(n log n) in the objects: the tree is a linear BVH
// built from scratch every frame (Karras 2012), so moving and deforming objects need nothing kept.
// Reads: per-object transforms, mesh vertex buffers (ours or the host's, in place).
// Writes: world AABBs (ordered-uint encoded) and a capacity-bounded pair list with exact count.
// Invariant: the count in the pair header is exact even when pairs were dropped for capacity.
#pragma once

#include "passes/graph/graph.h"
#include "passes/graph/readback_layout.h"
#include "passes/shared/radix_sort_passes.h"
#include "shaders_glsl/shared/broadphase.h"
#include "vk/pipeline.h"

#include <vector>

namespace vkc {

// The pipelines of the tree passes, which share kBroadphaseTreeLayout (one set binds to each).
struct BroadphaseTreePipelines {
    Pipeline centreBox;
    Pipeline morton;
    Pipeline build;
    Pipeline fit;
    Pipeline pairs;
    Pipeline pairGroup;
};

struct BroadphasePassInputs {
    const Pipeline* boundsPipeline = nullptr;
    const BroadphaseTreePipelines* treePipelines = nullptr;
    const RadixSortPipelines* sortPipelines = nullptr;  // its prefix scan also turns pair counts into offsets
    VkDescriptorSet boundsSet = VK_NULL_HANDLE;  // objects, bounds, mesh vertices
    VkDescriptorSet treeSet = VK_NULL_HANDLE;    // kBroadphaseTreeLayout's buffers
    VkDescriptorSet codesToScratch = VK_NULL_HANDLE;  // kRadixSortLayout: codes → codesScratch
    VkDescriptorSet scratchToCodes = VK_NULL_HANDLE;  // and back
    VkDescriptorSet histogramScan = VK_NULL_HANDLE;    // kPrefixScanLayout: sortHistogram, its block sums
    VkDescriptorSet pairOffsetsScan = VK_NULL_HANDLE;  // kPrefixScanLayout: pairOffsets, its block sums
    gpu::BroadphasePush push = {};
    uint32_t pairCapacity = 0;
    // Device limit on workgroups in x: the bounds' chunks go on in y, the grouping's threads loop past it.
    uint32_t maxGroupsX = 0;

    BufferHandle objects;                    // gpu::ObjectGpu per object
    BufferHandle chunkStarts;                // uint per object: its first bounds chunk (unread when each is one)
    std::vector<BufferHandle> meshVertices;  // every vertex buffer the objects read
    BufferHandle bounds;                     // 6 uints per object
    BufferHandle centreBox;                  // 6 uints
    BufferHandle codes;                      // radix sort buffer: Morton codes, then object indices
    BufferHandle codesScratch;               // the sort's other buffer
    BufferHandle sortHistogram;
    BufferHandle sortHistogramBlockSums;     // radixSortHistogramBlockSumsBytes
    BufferHandle treeNodes;                  // gpu::TreeNode per internal node
    BufferHandle leafParents;                // uint per leaf
    BufferHandle fitVisits;                  // uint per internal node
    BufferHandle leafBoxes;                  // broadphaseLeafBoxesBytes: the boxes in sorted order
    BufferHandle pairs;                      // PairListHeader + uvec2 * pairCapacity
    BufferHandle pairOffsets;                // uint per object: its pairs' count, then their offset
    BufferHandle pairOffsetsBlockSums;       // prefixScanBlockSumsBytes(objects)
    BufferHandle groupedPairs;               // as pairs, grouped by a (what is read back)
    BufferHandle readback;                   // the frame's ring slot
    const ReadbackLayout* readbackLayout = nullptr;  // broadphaseReadbackLayout
};

// Descriptor layouts of broadphase_bounds.comp and of the tree passes (checked against the SPIR-V
// by tests/collision/broadphase_test.cpp).
extern const PipelineLayoutDesc kBroadphaseBoundsLayout;
extern const PipelineLayoutDesc kBroadphaseTreeLayout;

// Byte sizes of the buffers the passes use (never zero: an empty scene still binds them).
inline VkDeviceSize broadphaseBoundsBytes(uint32_t objectCount) { return VkDeviceSize(objectCount) * 6 * 4; }
inline VkDeviceSize broadphasePairsBytes(uint32_t pairCapacity) {
    return sizeof(gpu::PairListHeader) + VkDeviceSize(pairCapacity) * 8;
}
inline VkDeviceSize broadphaseTreeNodesBytes(uint32_t objectCount) {
    return std::max<VkDeviceSize>(1, objectCount) * sizeof(gpu::TreeNode);
}
inline VkDeviceSize broadphasePerObjectBytes(uint32_t objectCount) { return std::max<VkDeviceSize>(1, objectCount) * 4; }
// The bounds pass's chunks of an object with `vertices` vertices (at least one, so each object has a thread).
inline uint32_t boundsChunkCount(uint32_t vertices) {
    return std::max(1u, (vertices + gpu::kBoundsChunkVertices - 1) / gpu::kBoundsChunkVertices);
}
inline VkDeviceSize broadphaseLeafBoxesBytes(uint32_t objectCount) { return std::max<VkDeviceSize>(1, objectCount) * 32; }

// The objects a broadphase can take: one thread per object in the tree passes, and the tree's
// nodes within one storage-buffer binding (2,796,202 on lavapipe's 128 MiB).
uint32_t broadphaseObjectLimit(const VulkanContext& ctx);

// Read-back regions: the world bounds (6 uints per object), then the pair list grouped by a.
enum BroadphaseReadback : uint32_t { kBroadphaseReadbackBounds, kBroadphaseReadbackPairs };
ReadbackLayout broadphaseReadbackLayout(uint32_t maxObjects, uint32_t pairCapacity);

void addBroadphasePasses(Graph& graph, const BroadphasePassInputs& inputs);

}  // namespace vkc
