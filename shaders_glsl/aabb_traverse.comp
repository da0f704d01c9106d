// One level of the simultaneous AABB-tree traversal, all object pairs batched (paper 4, 4.2-4.3).
// Reads: this level's node pairs (explicit list entries, then the level's entrance seeds), trees,
// boxes, pair transforms; on the leaf level the triangles. Writes: children of overlapping pairs
// to the other ping-pong list, intersecting triangle pairs, per-level and per-pair counts.
// Algorithm: SAT lite (Appendix A) per node pair; appends aggregated per subgroup (one atomic
// each) instead of the paper's mip-map prefix sums (4.4); Guigue-Devillers tri-tri on leaves
// (or, with kLeafBoxesOnly, every leaf pair whose boxes overlap).
// Invariants: counts stay exact past capacity; same shared tests as traverseAabbTreesCpu().
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require

#include "shared/aabb_tree.h"
#include "vertex_fetch.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint kGroupSize = kAabbTraverseGroupSize;
// 1: a leaf pair whose boxes overlap is reported without the triangle test (method ebpi wants
// every pair of triangles that may cross, and tests them itself in its own coordinates).
layout(constant_id = 1) const uint kLeafBoxesOnly = 0u;

layout(set = 0, binding = kAabbBindingTrees, std430) readonly buffer Trees { AabbTreeGpu trees[]; };
layout(set = 0, binding = kAabbBindingNodes, std430) readonly buffer Nodes { AabbNodeGpu nodes[]; };
layout(set = 0, binding = kAabbBindingLeaves, std430) readonly buffer Leaves { uvec4 leaves[]; };
layout(set = 0, binding = kAabbBindingPairs, std430) readonly buffer Pairs { AabbPairGpu pairs[]; };
layout(set = 0, binding = kAabbBindingSeedLevels, std430) readonly buffer SeedLevels {
    AabbSeedLevelGpu seedLevels[kAabbMaxLevels];
};
layout(set = 0, binding = kAabbBindingSeeds, std430) readonly buffer Seeds { AabbSeedGpu seeds[]; };
layout(set = 0, binding = kAabbBindingState, std430) buffer State { AabbTraversalStateGpu state; };
layout(set = 0, binding = kAabbBindingNodePairs, std430) buffer NodePairs { AabbNodePairGpu nodePairs[]; };
layout(set = 0, binding = kAabbBindingTrianglePairs, std430) writeonly buffer TrianglePairs {
    AabbTrianglePairGpu trianglePairs[];
};
layout(set = 0, binding = kAabbBindingPairStats, std430) buffer PairStats { AabbPairStatsGpu pairStats[]; };

layout(push_constant) uniform Push { AabbTraversePush push; };

// Box of `node` at real level `realLevel` of `tree`; a padding level (< 0) repeats the root (4.1).
AabbNodeGpu nodeBox(uint tree, int realLevel, uint node) {
    uint index = realLevel < 0 ? 0u : trees[tree].levelStart[realLevel] + node;
    return nodes[trees[tree].nodeOffset + index];
}

// Lanes of one subgroup may read different vertex buffers (pairs of different meshes share a subgroup).
vec3 treeVertex(uint tree, uint vertex) { return fetchVertex(trees[tree].vertices, vertex); }

// Node pair number `s` of this level's seeds: the last seed with threadStart <= s (binary search).
AabbNodePairGpu seedEntry(AabbSeedLevelGpu seedLevel, uint s) {
    uint lo = seedLevel.first;
    uint hi = seedLevel.first + seedLevel.count - 1u;
    while (lo < hi) {
        uint mid = (lo + hi + 1u) / 2u;
        if (seeds[mid].threadStart <= s) lo = mid; else hi = mid - 1u;
    }
    AabbSeedGpu seed = seeds[lo];
    uint local = s - seed.threadStart;
    return AabbNodePairGpu(seed.pair, local / seed.countB, local % seed.countB, 0u);
}

// First child and child count of a node (padding levels have the single child 0).
uvec2 children(uint tree, int realLevel, uint node) {
    if (realLevel < 0) return uvec2(0u, 1u);
    uint nextSize = trees[tree].levelStart[realLevel + 2] - trees[tree].levelStart[realLevel + 1];
    return uvec2(2u * node, aabbChildCount(node, nextSize));
}

void main() {
    uint level = push.globalLevel;
    uint explicitCount = state.dispatch[level].w;
    AabbSeedLevelGpu seedLevel = seedLevels[level];
    uint total = explicitCount + seedLevel.threads;
    uint readBase = (level & 1u) * push.listCapacity;
    uint writeList = (level & 1u) ^ 1u;
    uint writeBase = writeList * push.listCapacity;

    // Grid-stride loop (levels can exceed 65535 groups); every lane runs the same number of
    // iterations so the subgroup operations below stay uniform.
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint iterations = total / stride + ((total % stride) != 0u ? 1u : 0u);
    for (uint iteration = 0u; iteration < iterations; ++iteration) {
        uint t = gl_GlobalInvocationID.x + iteration * stride;
        bool inRange = t < total;
        bool overlap = false;
        bool hit = false;
        uint pairIndex = 0xffffffffu;
        uint pairLevel = 0u;
        uint childCount = 0u;
        uvec2 childA = uvec2(0u);
        uvec2 childB = uvec2(0u);
        AabbNodePairGpu entry = AabbNodePairGpu(0u, 0u, 0u, 0u);
        uint triangleA = 0u;
        uint triangleB = 0u;

        if (inRange) {
            // (if/else, not ?: -- glslang 11 emits an invalid OpStore for a ?: mixing a buffer struct.)
            if (t < explicitCount) {
                entry = nodePairs[readBase + t];
            } else {
                entry = seedEntry(seedLevel, t - explicitCount);
            }
            pairIndex = entry.pair;
            AabbPairGpu pair = pairs[pairIndex];
            pairLevel = level - pair.globalLevelBase;
            int realA = aabbRealLevel(pairLevel, pair.levelCount, trees[pair.treeA].levelCount);
            int realB = aabbRealLevel(pairLevel, pair.levelCount, trees[pair.treeB].levelCount);
            AabbNodeGpu boxA = nodeBox(pair.treeA, realA, entry.nodeA);
            AabbNodeGpu boxB = nodeBox(pair.treeB, realB, entry.nodeB);
            overlap = aabbSatLite(boxA.lo.xyz, boxA.hi.xyz, boxB.lo.xyz, boxB.hi.xyz, pair.bToA, pair.aToB,
                                  pair.slackA, pair.slackB);
            if (overlap && pairLevel + 1u == pair.levelCount && kLeafBoxesOnly != 0u) {
                hit = true;
                triangleA = leaves[trees[pair.treeA].leafOffset + entry.nodeA].w;
                triangleB = leaves[trees[pair.treeB].leafOffset + entry.nodeB].w;
            } else if (overlap && pairLevel + 1u == pair.levelCount) {
                // Leaf level of both trees (padding is at the top): move triangle B into A's space.
                uvec4 leafA = leaves[trees[pair.treeA].leafOffset + entry.nodeA];
                uvec4 leafB = leaves[trees[pair.treeB].leafOffset + entry.nodeB];
                vec3 b0 = aabbTransformPoint(pair.bToA, treeVertex(pair.treeB, leafB.x));
                vec3 b1 = aabbTransformPoint(pair.bToA, treeVertex(pair.treeB, leafB.y));
                vec3 b2 = aabbTransformPoint(pair.bToA, treeVertex(pair.treeB, leafB.z));
                hit = triTriIntersect(treeVertex(pair.treeA, leafA.x), treeVertex(pair.treeA, leafA.y),
                                      treeVertex(pair.treeA, leafA.z), b0, b1, b2);
                triangleA = leafA.w;
                triangleB = leafB.w;
            } else if (overlap) {
                childA = children(pair.treeA, realA, entry.nodeA);
                childB = children(pair.treeB, realB, entry.nodeB);
                childCount = childA.y * childB.y;
            }
        }

        // Counts: what the paper read with occlusion queries, per global level and per pair level.
        uint testedSum = subgroupAdd(inRange ? 1u : 0u);
        uint overlapSum = subgroupAdd(overlap ? 1u : 0u);
        uint hitSum = subgroupAdd(hit ? 1u : 0u);
        if (subgroupElect() && testedSum > 0u) {
            atomicAdd(state.levelTested[level], testedSum);
            if (overlapSum > 0u) atomicAdd(state.levelOverlaps[level], overlapSum);
        }
        // Lanes usually share a pair (children are appended next to each other): one atomic then.
        if (subgroupAllEqual(pairIndex)) {
            if (subgroupElect() && pairIndex != 0xffffffffu) {
                atomicAdd(pairStats[pairIndex].tested[pairLevel], testedSum);
                if (overlapSum > 0u) atomicAdd(pairStats[pairIndex].overlaps[pairLevel], overlapSum);
                if (hitSum > 0u) atomicAdd(pairStats[pairIndex].trianglePairs, hitSum);
            }
        } else if (inRange) {
            atomicAdd(pairStats[pairIndex].tested[pairLevel], 1u);
            if (overlap) atomicAdd(pairStats[pairIndex].overlaps[pairLevel], 1u);
            if (hit) atomicAdd(pairStats[pairIndex].trianglePairs, 1u);
        }

        // Children of overlapping pairs: one atomicAdd per subgroup reserves room for all lanes.
        uint childTotal = subgroupAdd(childCount);
        uint childOffset = subgroupExclusiveAdd(childCount);
        uint childBase = 0u;
        if (subgroupElect() && childTotal > 0u) childBase = atomicAdd(state.listCount[writeList], childTotal);
        childBase = subgroupBroadcastFirst(childBase);
        uint k = 0u;
        for (uint i = 0u; i < childA.y; ++i) {
            for (uint j = 0u; j < childB.y; ++j) {
                uint slot = childBase + childOffset + k;
                if (slot < push.listCapacity) {
                    nodePairs[writeBase + slot] = AabbNodePairGpu(pairIndex, childA.x + i, childB.x + j, 0u);
                }
                ++k;
            }
        }

        // Intersecting triangle pairs: the same aggregated append; the count stays exact.
        uvec4 ballot = subgroupBallot(hit);
        uint hitBase = 0u;
        if (subgroupElect() && hitSum > 0u) hitBase = atomicAdd(state.trianglePairCount, hitSum);
        hitBase = subgroupBroadcastFirst(hitBase);
        if (hit) {
            uint slot = hitBase + subgroupBallotExclusiveBitCount(ballot);
            if (slot < push.trianglePairCapacity) {
                trianglePairs[slot] = AabbTrianglePairGpu(pairIndex, triangleA, triangleB, 0u);
            }
        }
    }
}
