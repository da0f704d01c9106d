// Layouts and limits of method `aabb-tree` (paper 4, Greß & Zachmann), shared by aabb_*.comp and
// collision/aabb_tree/*.cpp. All structs are std430 and made of
// 4-byte scalars or 16-byte vectors only, so the C++ mirror has the same offsets (sizes are
// static_assert'ed in collision/aabb_tree/aabb_tree.h). Levels: level 0 is the root, leaves are the last.
#ifndef VKC_SHARED_AABB_TREE_H
#define VKC_SHARED_AABB_TREE_H

#include "glsl_cpp.h"
#include "vertex_fetch.h"  // VertexSourceGpu, the vertex-buffer array
#include "tri_tri.h"  // VKC_PRECISE / VKC_INLINE and the C++ math shims

VKC_NAMESPACE_BEGIN

// Most levels one tree (and one padded pair traversal) may have: 2^31 triangles, far beyond
// any device buffer; fixes the size of the per-level arrays below.
VKC_CONSTANT(uint, kAabbMaxLevels, 32u)
// Threads per workgroup of the refit pass (one thread per node of one level of one tree).
VKC_CONSTANT(uint, kAabbRefitGroupSize, 64u)
// Threads per workgroup of the traversal pass (one thread per node pair); 64 is a whole subgroup
// on most desktop GPUs (two on NVIDIA) so the aggregated append costs one atomic per subgroup.
VKC_CONSTANT(uint, kAabbTraverseGroupSize, 64u)
// Threads of the one workgroup of the pair setup pass (aabb_pairs.comp): it walks the frame's
// candidate pairs in order, a chunk of this many at a time, so the seed table comes out sorted.
VKC_CONSTANT(uint, kAabbPairsGroupSize, 256u)
// Workgroup-count limit of one dimension every device supports (maxComputeWorkGroupCount[0]);
// larger levels are covered by a grid-stride loop.
VKC_CONSTANT(uint, kAabbMaxGroups, 65535u)
// Entrance-level heuristic (paper 4, section 5): a pair starts at the deepest level at which more
// than this fraction of the tested box pairs overlapped; "more than half" is the paper's example.
VKC_CONSTANT(float, kAabbEntranceOverlapFraction, 0.5)
// Box-test slack relative to the pair's coordinate scale (sum of both root-box radii and the
// translation): ~170 float ulps, far above the rounding of the transform and of the tri-tri
// predicates, so a box pair is never rejected while its triangles may still test as touching.
VKC_CONSTANT(float, kAabbBoxSlackRelative, 1.0e-5)

// Descriptor bindings (set 0) of the three passes; each pass uses a subset.
VKC_CONSTANT(uint, kAabbBindingTrees, 0u)        // AabbTreeGpu[], read
VKC_CONSTANT(uint, kAabbBindingNodes, 1u)        // AabbNodeGpu[], written by refit, read by traverse
VKC_CONSTANT(uint, kAabbBindingLeaves, 2u)       // uvec4[] per leaf: vertex indices xyz, triangle w
VKC_CONSTANT(uint, kAabbBindingRefitTrees, 3u)   // uint[] tree ids to refit this frame
VKC_CONSTANT(uint, kAabbBindingPairs, 4u)        // AabbPairGpu[], read
VKC_CONSTANT(uint, kAabbBindingSeedLevels, 5u)   // AabbSeedLevelGpu[kAabbMaxLevels], read
VKC_CONSTANT(uint, kAabbBindingSeeds, 6u)        // AabbSeedGpu[], read
VKC_CONSTANT(uint, kAabbBindingState, 7u)        // AabbTraversalStateGpu, read-write
VKC_CONSTANT(uint, kAabbBindingNodePairs, 8u)    // AabbNodePairGpu[2 * listCapacity] (ping-pong)
VKC_CONSTANT(uint, kAabbBindingTrianglePairs, 9u)// AabbTrianglePairGpu[trianglePairCapacity]
VKC_CONSTANT(uint, kAabbBindingPairStats, 10u)   // AabbPairStatsGpu[], one per object pair
VKC_CONSTANT(uint, kAabbBindingObjects, 11u)     // AabbObjectGpu[] per scene object, read by aabb_pairs.comp
VKC_CONSTANT(uint, kAabbBindingCandidates, 12u)  // the frame's candidate pair list (broadphase.h layout), read
VKC_CONSTANT(uint, kAabbBindingEntrances, 13u)   // AabbEntranceGpu[] hash table (temporal coherence), read

// One node's box, in the tree's space. w components are unused (0) and keep 16-byte vectors.
struct AabbNodeGpu {
    vec4 lo;
    vec4 hi;
};

// One tree (one mesh). Nodes of real level L are nodes[nodeOffset + levelStart[L] + i],
// i < levelStart[L + 1] - levelStart[L]; node i of level L has children 2i and 2i+1 (when that
// is below the next level's size) of level L + 1; leaf i is leaves[leafOffset + i].
struct AabbTreeGpu {
    uint nodeOffset;      // first node of this tree in the shared node buffer
    uint leafOffset;      // first leaf of this tree in the shared leaf buffer
    uint levelCount;      // real levels, root to leaves, 1..kAabbMaxLevels
    uint triangleCount;   // == leaves == size of the last level
    VertexSourceGpu vertices;  // the positions, in the tree's space
    uint levelStart[kAabbMaxLevels + 1u];  // prefix of level sizes; [levelCount] = node count
};

// One object pair to traverse (batched: every node pair carries the index of one of these).
// Trees of different depth are padded at the top (paper 4, section 4.1) without storage: pair
// level p maps to real level p - (levelCount - tree.levelCount) of each tree; a negative real
// level is a padding level whose single node has the root's box and the root as only child.
struct AabbPairGpu {
    mat4 bToA;            // maps tree B's space into tree A's (paper: matC); affine, invertible
    mat4 aToB;            // its inverse (paper: matCInv)
    uint treeA;
    uint treeB;
    uint levelCount;      // max of both trees' level counts: pair levels 0..levelCount-1
    uint globalLevelBase; // global (batched dispatch) level of pair level 0
    float slackA;         // box-test slack in A's units (kAabbBoxSlackRelative x pair scale)
    float slackB;         // the same slack in B's units
    uint objectA;         // caller's ids, passed through for results
    uint objectB;
};

// One node pair to test at the current level (entries of the node pair lists).
struct AabbNodePairGpu {
    uint pair;            // index into AabbPairGpu[]
    uint nodeA;           // index within tree A's (real or padding) level
    uint nodeB;
    uint pad0;
};

// Entrance seeds (paper 4, section 5): a pair entering at pair level e contributes every node
// pair (i < countA, j < countB) of that level. Seeds are grouped by global level; thread s of the
// seed range of a level belongs to the last seed with threadStart <= s.
struct AabbSeedGpu {
    uint pair;
    uint threadStart;     // prefix of countA * countB within its level's seeds
    uint countA;          // node count of tree A at the entrance level (1 on padding levels)
    uint countB;
};

// A scene object as the pair setup sees it: its placement in double (pair transforms are composed
// from the world ones, so their precision follows the pair's size, not the scene's), its mesh's
// tree, and the object-space box the pair's box-test slack is computed from (AabbTreeCache's
// slackBox). 160 bytes, a multiple of the dvec4 alignment.
struct AabbObjectGpu {
    dvec4 row0;           // objectToWorld rows; the fourth row is (0, 0, 0, 1)
    dvec4 row1;
    dvec4 row2;
    vec4 slackLo;
    vec4 slackHi;
    uint tree;            // index into AabbTreeGpu[]
    uint pad0;
    uint pad1;
    uint pad2;
    uvec4 pad3;
};

// Temporal coherence (paper 4, section 5) on the GPU: the entrance level chosen for an object
// pair from an earlier frame's counters, in an open-addressing table the host writes (linear
// probing from aabbEntranceSlot; an entry with used == 0 ends the probe).
struct AabbEntranceGpu {
    uint a;
    uint b;
    uint level;
    uint used;
};

struct AabbSeedLevelGpu {
    uint first;           // first AabbSeedGpu of this global level
    uint count;           // seeds of this level
    uint threads;         // sum of countA * countB over them
    uint pad0;
};

// Output: one intersecting triangle pair. Triangle ids are positions in the mesh's index list / 3.
struct AabbTrianglePairGpu {
    uint pair;
    uint triangleA;
    uint triangleB;
    uint pad0;
};

// Traversal state, zero-filled by the host before the first level. dispatch[g] is the
// VkDispatchIndirectCommand of global level g (offset 16 * g), its w the explicit list entries
// (clamped to capacity) that level reads before its seeds.
struct AabbTraversalStateGpu {
    uvec4 dispatch[kAabbMaxLevels];
    uint listCount[2];           // entries appended to ping-pong list k (exact, may exceed capacity)
    uint nodePairOverflow;       // 0, or the largest overflowing list count (a lower bound of the
                                 // capacity needed): results are then incomplete
    uint trianglePairCount;      // exact count of intersecting triangle pairs (all object pairs)
    uint levelTested[kAabbMaxLevels];    // per global level: box pairs tested (paper: the query)
    uint levelOverlaps[kAabbMaxLevels];  // per global level: box pairs that overlapped
    uint pairCount;              // object pairs the setup pass entered (aabb_pairs.comp)
    uint candidatePairs;         // pairs the candidate list counted (exact: may exceed what it or
                                 // the pair table holds; then pairs were left out)
    uint seedOverflow;           // 1: a level would seed more than 2^32 node pairs (results incomplete)
    uint pad0;
};

// Per object pair, indexed by pair level. Read back for results and the entrance heuristic.
struct AabbPairStatsGpu {
    uint trianglePairs;          // exact, even when the output list was truncated
    uint objectA;                // the pair's objects, written by the setup pass
    uint objectB;
    uint pad0;
    uint tested[kAabbMaxLevels];
    uint overlaps[kAabbMaxLevels];
};

struct AabbRefitPush {
    uint bottomUpLevel;          // 0 = leaves, 1 = their parents, ...
    uint treeCount;              // entries in the refit tree list (= dispatch y)
    uint pad0;
    uint pad1;
};

struct AabbPairsPush {
    uint storedPairs;            // entries the candidate list holds at most
    uint maxPairs;               // entries of the pair table, seeds and pair stats
    uint entranceMask;           // entrance table size - 1 (a power of two)
    uint globalLevels;           // levels of the batched traversal (the scene's deepest tree)
};

struct AabbTraversePush {
    uint globalLevel;            // level processed (traverse) or prepared (indirect)
    uint globalLevelCount;       // levels of the whole batched traversal
    uint listCapacity;           // entries per ping-pong node pair list
    uint trianglePairCapacity;   // entries of the triangle pair output
};

// ---- Functions shared verbatim by the shaders and the CPU traversal (same text, same rounding:
// VKC_PRECISE forbids FMA contraction on the GPU; C++ in ISO mode does not contract either).

// Real level of a tree at pair level p of a traversal with pairLevels levels; negative = padding.
VKC_INLINE int aabbRealLevel(uint pairLevel, uint pairLevels, uint treeLevels) {
    return int(pairLevel) - int(pairLevels - treeLevels);
}

// Children of node `node` whose next level has `nextSize` nodes: 2 except the last node of an
// odd level (paper 4, section 4.1: at most one inner node per level has one child).
VKC_INLINE uint aabbChildCount(uint node, uint nextSize) {
    return min(2u, nextSize - 2u * node);
}

// p' = m * (p, 1) with a fixed summation order, so CPU and GPU round identically.
VKC_INLINE vec3 aabbTransformPoint(mat4 m, vec3 p) {
    VKC_PRECISE vec3 r = ((vec3(m[0]) * p.x + vec3(m[1]) * p.y) + vec3(m[2]) * p.z) + vec3(m[3]);
    return r;
}

// SAT lite (paper 4, Appendix A; van den Bergen 1997): the face axes of A, then those of B, i.e.
// 6 of the 15 separating axes. It may accept separated boxes (the nine edge-edge axes are
// skipped; the traversal only loses a little culling) but never rejects overlapping ones; the
// slacks (kAabbBoxSlackRelative) keep that true under float rounding. Boxes given as min/max.
VKC_INLINE bool aabbSatLite(vec3 loA, vec3 hiA, vec3 loB, vec3 hiB, mat4 bToA, mat4 aToB,
                            float slackA, float slackB) {
    VKC_PRECISE vec3 centerA = (loA + hiA) * 0.5f;
    VKC_PRECISE vec3 extentA = (hiA - loA) * 0.5f;
    VKC_PRECISE vec3 centerB = (loB + hiB) * 0.5f;
    VKC_PRECISE vec3 extentB = (hiB - loB) * 0.5f;
    // Axes of A: B's centre moved into A's space; B's radius along each of A's axes is |C| eB.
    VKC_PRECISE vec3 dist = aabbTransformPoint(bToA, centerB) - centerA;
    VKC_PRECISE vec3 extSum = ((extentA + abs(vec3(bToA[0])) * extentB.x) +
                               abs(vec3(bToA[1])) * extentB.y) + abs(vec3(bToA[2])) * extentB.z;
    if (any(greaterThan(abs(dist), extSum + vec3(slackA)))) return false;
    // Axes of B: the same distance vector seen in B's space (linear part of aToB only).
    VKC_PRECISE vec3 distB = (vec3(aToB[0]) * dist.x + vec3(aToB[1]) * dist.y) + vec3(aToB[2]) * dist.z;
    VKC_PRECISE vec3 extSumB = ((extentB + abs(vec3(aToB[0])) * extentA.x) +
                                abs(vec3(aToB[1])) * extentA.y) + abs(vec3(aToB[2])) * extentA.z;
    return !any(greaterThan(abs(distB), extSumB + vec3(slackB)));
}

// Largest |coordinate| of a box: the magnitude its coordinates round at.
VKC_INLINE float aabbMaxAbsCoordinate(vec4 lo, vec4 hi) {
    vec3 m = max(abs(vec3(lo)), abs(vec3(hi)));
    return max(m.x, max(m.y, m.z));
}

// Largest |row sum| of the linear part, and largest |translation|: how far m moves magnitudes.
VKC_INLINE float aabbLinearNorm(mat4 m) {
    float norm = 0.0f;
    for (int row = 0; row < 3; ++row) norm = max(norm, (abs(m[0][row]) + abs(m[1][row])) + abs(m[2][row]));
    return norm;
}

VKC_INLINE float aabbTranslationNorm(mat4 m) { return max(abs(m[3][0]), max(abs(m[3][1]), abs(m[3][2]))); }

// Box-test slacks (x: in A's units, y: in B's) for boxes inside the slack boxes of A and B:
// kAabbBoxSlackRelative times the largest coordinate magnitude each side computes with.
VKC_INLINE vec2 aabbBoxSlack(vec4 loA, vec4 hiA, vec4 loB, vec4 hiB, mat4 bToA, mat4 aToB) {
    float magnitudeA = aabbMaxAbsCoordinate(loA, hiA);
    float magnitudeB = aabbMaxAbsCoordinate(loB, hiB);
    VKC_PRECISE float slackA =
        kAabbBoxSlackRelative * ((magnitudeA + aabbLinearNorm(bToA) * magnitudeB) + aabbTranslationNorm(bToA));
    VKC_PRECISE float slackB =
        kAabbBoxSlackRelative * ((magnitudeB + aabbLinearNorm(aToB) * magnitudeA) + aabbTranslationNorm(aToB));
    return vec2(slackA, slackB);
}

// First probe of the entrance table for pair (a, b).
VKC_INLINE uint aabbEntranceSlot(uint a, uint b, uint mask) { return ((a * 2654435761u) ^ (b * 2246822519u)) & mask; }

VKC_NAMESPACE_END

#endif
