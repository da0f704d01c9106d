// The frame's object pairs of method aabb-tree, set up on the GPU from the candidate list the
// broadphase (or the host) wrote, so no CPU sees the pairs before the traversal: per pair its
// AabbPairGpu (aabbPairEntry), its entrance level (temporal coherence, paper 4 section 5: looked
// up in the host's table of earlier frames' choices), its objects in the pair stats, and the seed
// table (grouped by global level, within a level in pair order, thread starts the running sum of
// countA * countB), equal to buildAabbSeedTable's on the same pairs.
// One workgroup walks the pairs in order, kAabbPairsGroupSize at a time; per chunk and level a
// workgroup scan gives each pair its rank and thread start, so the table is deterministic. Sums
// are kept in double (exact far past 2^32; shaderFloat64 is required anyway) to flag a level
// that would seed more than 2^32 node pairs.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/aabb_pair_setup.h"
#include "shared/broadphase.h"  // PairListHeader

layout(local_size_x = kAabbPairsGroupSize) in;

layout(set = 0, binding = kAabbBindingTrees, std430) readonly buffer Trees { AabbTreeGpu trees[]; };
layout(set = 0, binding = kAabbBindingPairs, std430) writeonly buffer Pairs { AabbPairGpu pairs[]; };
layout(set = 0, binding = kAabbBindingSeedLevels, std430) writeonly buffer SeedLevels {
    AabbSeedLevelGpu seedLevels[kAabbMaxLevels];
};
layout(set = 0, binding = kAabbBindingSeeds, std430) writeonly buffer Seeds { AabbSeedGpu seeds[]; };
layout(set = 0, binding = kAabbBindingState, std430) buffer State { AabbTraversalStateGpu state; };
layout(set = 0, binding = kAabbBindingPairStats, std430) buffer PairStats { AabbPairStatsGpu pairStats[]; };
layout(set = 0, binding = kAabbBindingObjects, std430) readonly buffer Objects { AabbObjectGpu objects[]; };
layout(set = 0, binding = kAabbBindingCandidates, std430) readonly buffer Candidates {
    PairListHeader candidateHeader;
    uvec2 candidates[];
};
layout(set = 0, binding = kAabbBindingEntrances, std430) readonly buffer Entrances { AabbEntranceGpu entrances[]; };

layout(push_constant) uniform Push { AabbPairsPush push; };

shared uint levelSeeds[kAabbMaxLevels];  // per global level: seeds, in all
shared uint levelFirst[kAabbMaxLevels];  // per global level: its first seed
shared uint levelRank[kAabbMaxLevels];   // per global level: seeds placed by earlier chunks
shared double levelThreads[kAabbMaxLevels];
shared uint levelUsed[kAabbMaxLevels];   // per global level: whether the current chunk seeds it
shared uint scanSeeds[kAabbPairsGroupSize];
shared double scanThreads[kAabbPairsGroupSize];

// Where pair k enters the traversal: its global level and the node counts there.
struct Entrance {
    uint level;
    uint countA;
    uint countB;
};

// Node count of padded level `level` of a tree inside a traversal of `paddedLevels` levels.
uint paddedLevelSize(uint tree, uint level, uint paddedLevels) {
    int real = aabbRealLevel(level, paddedLevels, trees[tree].levelCount);
    return real < 0 ? 1u : trees[tree].levelStart[real + 1] - trees[tree].levelStart[real];
}

// The entrance level an earlier frame chose for (a, b); 0 when the table has none.
uint chosenEntrance(uint a, uint b) {
    uint slot = aabbEntranceSlot(a, b, push.entranceMask);
    for (uint probe = 0u; probe <= push.entranceMask; ++probe) {
        AabbEntranceGpu e = entrances[slot];
        if (e.used == 0u) break;
        if (e.a == a && e.b == b) return e.level;
        slot = (slot + 1u) & push.entranceMask;
    }
    return 0u;
}

Entrance entranceOf(uint k) {
    uvec2 objectPair = candidates[k];
    uint treeA = objects[objectPair.x].tree;
    uint treeB = objects[objectPair.y].tree;
    uint levels = max(trees[treeA].levelCount, trees[treeB].levelCount);
    uint entrance = min(chosenEntrance(objectPair.x, objectPair.y), levels - 1u);
    return Entrance(push.globalLevels - levels + entrance, paddedLevelSize(treeA, entrance, levels),
                    paddedLevelSize(treeB, entrance, levels));
}

// Inclusive workgroup scan of scanSeeds and scanThreads (Hillis-Steele).
void scan(uint t) {
    for (uint offset = 1u; offset < kAabbPairsGroupSize; offset <<= 1u) {
        uint seedsBefore = t >= offset ? scanSeeds[t - offset] : 0u;
        double threadsBefore = t >= offset ? scanThreads[t - offset] : 0.0lf;
        barrier();
        scanSeeds[t] += seedsBefore;
        scanThreads[t] += threadsBefore;
        barrier();
    }
}

void main() {
    uint t = gl_LocalInvocationID.x;
    uint n = min(candidateHeader.count, min(push.storedPairs, push.maxPairs));
    if (t < kAabbMaxLevels) {
        levelSeeds[t] = 0u;
        levelRank[t] = 0u;
        levelThreads[t] = 0.0lf;
    }
    barrier();

    // Every pair's entry and objects; each level's seed count.
    for (uint k = t; k < n; k += kAabbPairsGroupSize) {
        uvec2 objectPair = candidates[k];
        AabbObjectGpu a = objects[objectPair.x];
        AabbObjectGpu b = objects[objectPair.y];
        AabbPairGpu pair = aabbPairEntry(a, b, objectPair.x, objectPair.y, trees[a.tree].levelCount,
                                         trees[b.tree].levelCount);
        pair.globalLevelBase = push.globalLevels - pair.levelCount;
        pairs[k] = pair;
        pairStats[k].objectA = objectPair.x;
        pairStats[k].objectB = objectPair.y;
        atomicAdd(levelSeeds[entranceOf(k).level], 1u);
    }
    barrier();
    if (t == 0u) {
        uint first = 0u;
        for (uint l = 0u; l < kAabbMaxLevels; ++l) {
            levelFirst[l] = first;
            first += levelSeeds[l];
        }
    }
    barrier();

    // The seeds in pair order: chunk by chunk, and within a chunk level by level.
    for (uint base = 0u; base < n; base += kAabbPairsGroupSize) {
        uint k = base + t;
        Entrance e = Entrance(0xffffffffu, 0u, 0u);
        if (t < kAabbMaxLevels) levelUsed[t] = 0u;
        barrier();
        if (k < n) {
            e = entranceOf(k);
            levelUsed[e.level] = 1u;
        }
        barrier();
        for (uint l = 0u; l < push.globalLevels; ++l) {
            if (levelUsed[l] == 0u) continue;  // uniform: every thread reads the same flag
            bool mine = e.level == l;
            double threads = double(e.countA) * double(e.countB);
            scanSeeds[t] = mine ? 1u : 0u;
            scanThreads[t] = mine ? threads : 0.0lf;
            barrier();
            scan(t);
            if (mine) {
                double start = levelThreads[l] + scanThreads[t] - threads;
                if (start + threads > 4294967295.0lf) state.seedOverflow = 1u;
                seeds[levelFirst[l] + levelRank[l] + scanSeeds[t] - 1u] = AabbSeedGpu(k, uint(start), e.countA, e.countB);
            }
            barrier();
            if (t == 0u) {
                levelRank[l] += scanSeeds[kAabbPairsGroupSize - 1u];
                levelThreads[l] += scanThreads[kAabbPairsGroupSize - 1u];
            }
            barrier();
        }
    }
    if (t == 0u) {
        state.pairCount = n;
        state.candidatePairs = candidateHeader.count;
        for (uint l = 0u; l < kAabbMaxLevels; ++l)
            seedLevels[l] = AabbSeedLevelGpu(levelFirst[l], levelSeeds[l], uint(min(levelThreads[l], 4294967295.0lf)), 0u);
    }
}
