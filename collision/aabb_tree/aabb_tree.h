// Balanced AABB tree of one mesh in its own space (paper 4, section 4.1), stored level by level
// in flat arrays ready for upload (node boxes as float min/max, leaf -> vertex ids + triangle).
// Inputs: MeshData (or fresh positions for a refit). Outputs: AabbTree.
// Invariants: leaves only on the last level, one per triangle; n(L) = ceil(n(L+1) / 2); node i of
// level L has children 2i, 2i+1 of level L+1; every box contains its children's (exactly: min/max).
#pragma once

#include "shaders_glsl/shared/aabb_tree.h"

#include <vkcollide/mesh.h>
#include <vkcollide/status.h>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace vkc {

static_assert(sizeof(gpu::AabbNodeGpu) == 32);
static_assert(sizeof(gpu::AabbTreeGpu) == 8 * 4 + (gpu::kAabbMaxLevels + 1) * 4);
static_assert(sizeof(gpu::AabbPairGpu) == 2 * 64 + 8 * 4);
static_assert(sizeof(gpu::AabbNodePairGpu) == 16);
static_assert(sizeof(gpu::AabbSeedGpu) == 16);
static_assert(sizeof(gpu::AabbSeedLevelGpu) == 16);
static_assert(sizeof(gpu::AabbTrianglePairGpu) == 16);
static_assert(sizeof(gpu::AabbTraversalStateGpu) == 16 * gpu::kAabbMaxLevels + 4 * 4 + 2 * 4 * gpu::kAabbMaxLevels + 16);
static_assert(sizeof(gpu::AabbObjectGpu) == 160 && sizeof(gpu::AabbEntranceGpu) == 16 && sizeof(gpu::AabbPairsPush) == 16);
static_assert(sizeof(gpu::AabbPairStatsGpu) == 16 + 2 * 4 * gpu::kAabbMaxLevels);
static_assert(sizeof(gpu::AabbRefitPush) == 16 && sizeof(gpu::AabbTraversePush) == 16);

struct AabbTree {
    uint32_t triangleCount = 0;
    uint32_t levelCount = 0;              // real levels: 0 = root ... levelCount - 1 = leaves
    std::vector<uint32_t> levelStart;     // levelCount + 1 entries; level L = nodes[levelStart[L] ..)
    std::vector<gpu::AabbNodeGpu> nodes;  // level by level, root first (upload as is)
    std::vector<glm::uvec4> leaves;       // leaf i: vertex ids (x, y, z), triangle id (w)

    uint32_t levelSize(uint32_t level) const { return levelStart[level + 1] - levelStart[level]; }
    const gpu::AabbNodeGpu& node(uint32_t level, uint32_t index) const { return nodes[levelStart[level] + index]; }
    // The GPU header for this tree once its nodes/leaves sit at the given offsets of the shared
    // buffers and its positions in `vertices`.
    gpu::AabbTreeGpu gpuHeader(uint32_t nodeOffset, uint32_t leafOffset, const gpu::VertexSourceGpu& vertices) const;
};

// Levels of a tree with `triangleCount` leaves (>= 1): 1 + ceil(log2(triangleCount)).
uint32_t aabbTreeLevelCount(uint32_t triangleCount);
// Its nodes over every level (the levels' sizes halve, rounding up): known before it is built.
uint64_t aabbTreeNodeCount(uint64_t triangleCount);

// Builds the tree. Leaf order: top-down split of the triangle centroids along the longest axis,
// at exactly the position the implicit layout imposes (the left child of a node k levels above
// the leaves owns 2^(k-1) leaves), found with nth_element; ties broken by triangle id so the
// result is deterministic. Why not a Morton sort: siblings are fixed power-of-two leaf ranges, and
// a split that respects those ranges adapts to the mesh's extent where Morton cells would not.
// Errors (InvalidMesh, naming mesh.name): no triangles, index count not a multiple of 3, index out
// of range, non-finite position, more than 2^31 triangles. Degenerate triangles are kept.
Result<AabbTree> buildAabbTree(const MeshData& mesh);

// Refit after the vertices moved (same triangles): leaves from the positions, then inner levels
// bottom-up from their children, level by level exactly like aabb_refit.comp. Positions are in
// the tree's space (object space, or already transformed: the boxes live wherever they do).
// Errors: InvalidArgument when a leaf names a vertex >= positions.size(); InvalidMesh on NaN/Inf.
Status refitAabbTree(AabbTree& tree, std::span<const glm::vec3> positions);

// ---- Padding at the top (paper 4, section 4.1), without storage: a tree of d levels inside a
// traversal of `paddedLevels` >= d levels sees padding levels 0 .. paddedLevels-d-1, each one
// node whose box is the root's and whose only child is the next level's node 0.

// Nodes of padded level `level` (1 on padding levels).
uint32_t aabbPaddedLevelSize(const AabbTree& tree, uint32_t level, uint32_t paddedLevels);
// Box of node `index` of padded level `level`.
gpu::AabbNodeGpu aabbPaddedNode(const AabbTree& tree, uint32_t level, uint32_t paddedLevels, uint32_t index);

}  // namespace vkc
