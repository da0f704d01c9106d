// Broadphase passes (DESIGN.md "shared by all methods"): clear → world bounds → overlapping
// pairs → copy into the read-back ring slot.
// Reads: per-object transforms, mesh vertex buffers (ours or the host's, in place).
// Writes: world AABBs (ordered-uint encoded) and a capacity-bounded pair list with exact count.
// Invariant: the count in the pair header is exact even when pairs were dropped for capacity.
#pragma once

#include "passes/graph/graph.h"
#include "passes/graph/readback_layout.h"
#include "shaders_glsl/shared/broadphase.h"
#include "vk/pipeline.h"

#include <vector>

namespace vkc {

struct BroadphasePassInputs {
    const Pipeline* boundsPipeline = nullptr;
    const Pipeline* pairsPipeline = nullptr;
    VkDescriptorSet boundsSet = VK_NULL_HANDLE;  // objects, bounds, mesh vertices
    VkDescriptorSet pairsSet = VK_NULL_HANDLE;   // bounds, pairs
    gpu::BroadphasePush push = {};
    uint32_t pairCapacity = 0;
    uint32_t maxVertexCount = 0;  // over all objects: the bounds dispatch's x extent
    uint32_t maxPairGroups = 0;   // device limit on workgroups in x

    BufferHandle objects;                    // gpu::ObjectGpu per object
    std::vector<BufferHandle> meshVertices;  // every vertex buffer the objects read
    BufferHandle bounds;                     // 6 uints per object
    BufferHandle pairs;                      // PairListHeader + uvec2 * pairCapacity
    BufferHandle readback;                   // the frame's ring slot
    const ReadbackLayout* readbackLayout = nullptr;  // broadphaseReadbackLayout
};

// Descriptor layouts of broadphase_bounds.comp and broadphase_pairs.comp (checked against the
// SPIR-V by tests/collision/broadphase_test.cpp).
extern const PipelineLayoutDesc kBroadphaseBoundsLayout;
extern const PipelineLayoutDesc kBroadphasePairsLayout;

// Byte sizes of the regions the passes write.
inline VkDeviceSize broadphaseBoundsBytes(uint32_t objectCount) { return VkDeviceSize(objectCount) * 6 * 4; }
inline VkDeviceSize broadphasePairsBytes(uint32_t pairCapacity) {
    return sizeof(gpu::PairListHeader) + VkDeviceSize(pairCapacity) * 8;
}

// Read-back regions: the world bounds (6 uints per object), then the pair list.
enum BroadphaseReadback : uint32_t { kBroadphaseReadbackBounds, kBroadphaseReadbackPairs };
ReadbackLayout broadphaseReadbackLayout(uint32_t maxObjects, uint32_t pairCapacity);

void addBroadphasePasses(Graph& graph, const BroadphasePassInputs& inputs);

}  // namespace vkc
