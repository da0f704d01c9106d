// Simultaneous breadth-first traversal of AABB-tree pairs on the CPU (paper 4, sections 4.2-4.3
// and 5): the reference for aabb_traverse.comp and a benchmark baseline. It uses the GPU's data
// layout (AabbPairGpu, node pair lists, seeds, AabbTraversalStateGpu, AabbPairStatsGpu) and its
// shared box and triangle tests, level by level, many object pairs batched in each level.
// Inputs: trees + positions, object pairs, entrance seeds. Outputs: triangle pairs, counts, stats.
#pragma once

#include "collision/aabb_tree/aabb_tree.h"

#include <vkcollide/status.h>

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace vkc {

// A tree and the current positions of its mesh, in the tree's space. positions may be empty where
// only the structure is needed (seeding, entrance levels).
struct AabbTreeView {
    const AabbTree* tree = nullptr;
    std::span<const glm::vec3> positions;
};

// Describes one object pair for the traversal (CPU and GPU alike). bToA maps tree B's space into
// tree A's (for rigid objects inverse(objectToWorldA) * objectToWorldB, composed in double so that
// objects far from the origin keep their relative pose); it must be an invertible affine map. The box-test slacks are derived from both root boxes (kAabbBoxSlackRelative times
// the largest coordinate magnitude each side sees). globalLevelBase is set by assignAabbGlobalLevels.
// Errors: InvalidArgument when bToA is not finite, not affine or not invertible.
Result<gpu::AabbPairGpu> makeAabbPair(const AabbTree& treeA, uint32_t treeIndexA, const AabbTree& treeB,
                                      uint32_t treeIndexB, const glm::dmat4& bToA, uint32_t objectA = 0,
                                      uint32_t objectB = 0);

// A scene object as the GPU pair setup (aabb_pairs.comp, gpu::aabbPairEntry) reads it: the rows
// of its placement in double, its tree, and the object-space box its pairs' slacks come from.
gpu::AabbObjectGpu aabbObject(const glm::dmat4& objectToWorld, uint32_t tree, const gpu::AabbNodeGpu& slackBox);

// Box-test slacks (x: in A's units, y: in B's) for boxes inside rootA / rootB, as makeAabbPair
// stores them: kAabbBoxSlackRelative times the largest coordinate magnitude each side computes with.
glm::vec2 aabbBoxSlack(const gpu::AabbNodeGpu& rootA, const gpu::AabbNodeGpu& rootB, const glm::mat4& bToA,
                       const glm::mat4& aToB);

// Aligns all pairs at the leaves of one batched traversal: a pair of L levels starts at global
// level G - L, G = the most levels of any pair (returned; 0 for no pairs).
uint32_t assignAabbGlobalLevels(std::span<gpu::AabbPairGpu> pairs);

// Entrance seeds of one frame, in upload order (levels: binding kAabbBindingSeedLevels, seeds:
// kAabbBindingSeeds). Without temporal coherence every entrance level is 0: one root seed per pair.
struct AabbSeedTable {
    std::array<gpu::AabbSeedLevelGpu, gpu::kAabbMaxLevels> levels{};
    std::vector<gpu::AabbSeedGpu> seeds;
};

// entranceLevels: one pair level per pair (clamped to levelCount - 1), or empty for all zero.
// Errors: InvalidArgument for a size mismatch, a tree index out of range, or a level's seed threads
// exceeding 2^32.
Result<AabbSeedTable> buildAabbSeedTable(std::span<const AabbTreeView> trees, std::span<const gpu::AabbPairGpu> pairs,
                                         std::span<const uint32_t> entranceLevels);

// Temporal coherence (paper 4, section 5): the next frame's entrance level of one pair from this
// frame's stats: the deepest level >= `entrance` where more than `fraction` of ALL box pairs of
// that level overlapped (then seeding the whole level costs less than twice what it finds);
// if there is none, one level up (the fraction only grows towards the root, which always passes
// while the roots overlap). Results never depend on the entrance level, only the work does.
uint32_t nextAabbEntranceLevel(const gpu::AabbPairGpu& pair, const AabbTree& treeA, const AabbTree& treeB,
                               const gpu::AabbPairStatsGpu& stats, uint32_t entrance,
                               float fraction = gpu::kAabbEntranceOverlapFraction);

struct AabbTraversalSettings {
    uint32_t listCapacity = std::numeric_limits<uint32_t>::max();          // entries per node pair list
    uint32_t trianglePairCapacity = std::numeric_limits<uint32_t>::max();  // entries of the output list
};

struct AabbTraversalOutput {
    // The first min(count, capacity) pairs found; order: level order (the GPU's is unspecified).
    std::vector<gpu::AabbTrianglePairGpu> trianglePairs;
    // Exactly what the GPU leaves in its state buffer: dispatches, list counts, overflow flag,
    // exact triangle pair count, per global level tested/overlapping box pairs.
    gpu::AabbTraversalStateGpu state{};
    std::vector<gpu::AabbPairStatsGpu> pairStats;  // one per pair, indexed by pair level

    // The output list was cut (count stays exact) or a node pair list overflowed (count too low).
    bool truncated() const { return state.nodePairOverflow != 0 || state.trianglePairCount > trianglePairs.size(); }
};

// Runs all global levels 0 .. globalLevelCount-1 exactly as the GPU passes do (indirect step,
// then one traverse step per level: seeds after explicit entries, SAT-lite box test with the pair's
// slack, children appended to the other ping-pong list, triangle tests on the leaf level).
// Errors: InvalidArgument when a pair names a missing tree, a tree lacks positions, the levels
// do not add up, or the seed table does not match the pairs.
Status traverseAabbTreesCpu(std::span<const AabbTreeView> trees, std::span<const gpu::AabbPairGpu> pairs,
                            const AabbSeedTable& seeds, uint32_t globalLevelCount,
                            const AabbTraversalSettings& settings, AabbTraversalOutput& out);

}  // namespace vkc
