// CPU mirror of aabb_indirect.comp + aabb_traverse.comp (paper 4, sections 4.2-4.3, 5).
// Inputs: trees with positions, AabbPairGpu[], AabbSeedTable. Outputs: AabbTraversalOutput.
// Algorithm: per global level, the indirect step (clamp the appended count, flag overflow, reset
// the other list), then every node pair: SAT-lite, children appended, or tri-tri on the leaf level.
// Invariant: same shared functions and same list/stat bookkeeping as the shaders, so a GPU run
// must reproduce state, stats and the set of triangle pairs exactly.
#include "collision/aabb_tree/aabb_traversal_cpu.h"

#include "collision/scene/object_transform.h"
#include "shaders_glsl/shared/tri_tri.h"

#include <glm/common.hpp>
#include <glm/matrix.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace vkc {

namespace {

bool finiteMatrix(const glm::dmat4& m) {
    for (int c = 0; c < 4; ++c) {
        for (int r = 0; r < 4; ++r) {
            if (!std::isfinite(m[c][r])) return false;
        }
    }
    return true;
}

// Node box at pair level p of one tree (padding levels repeat the root, section 4.1).
const gpu::AabbNodeGpu& pairLevelNode(const AabbTree& tree, int realLevel, uint32_t node) {
    return realLevel < 0 ? tree.nodes[0] : tree.node(uint32_t(realLevel), node);
}

// First child and child count of `node` at real level `realLevel` (mirrors aabb_traverse.comp).
void children(const AabbTree& tree, int realLevel, uint32_t node, uint32_t& first, uint32_t& count) {
    if (realLevel < 0) {
        first = 0;
        count = 1;
        return;
    }
    first = 2 * node;
    count = gpu::aabbChildCount(node, tree.levelSize(uint32_t(realLevel + 1)));
}

}  // namespace

Result<gpu::AabbPairGpu> makeAabbPair(const AabbTree& treeA, uint32_t treeIndexA, const AabbTree& treeB,
                                      uint32_t treeIndexB, const glm::dmat4& bToA, uint32_t objectA, uint32_t objectB) {
    if (!finiteMatrix(bToA) || bToA[0][3] != 0.0 || bToA[1][3] != 0.0 || bToA[2][3] != 0.0 || bToA[3][3] != 1.0) {
        return makeError(ErrorCode::InvalidArgument, "aabb pair (objects " + std::to_string(objectA) + ", " +
                                                         std::to_string(objectB) + "): transform is not a finite affine map");
    }
    // The inverse is taken as an affine map in double, so its last row stays exactly (0, 0, 0, 1)
    // and the float copies the shaders use are rounded once.
    const glm::dmat4 aToBExact = affineInverse(bToA);
    const glm::mat4 aToB(aToBExact);
    if (glm::determinant(glm::dmat3(bToA)) == 0.0 || !finiteMatrix(aToBExact) || !finiteMatrix(aToB) ||
        !finiteMatrix(glm::mat4(bToA))) {
        return makeError(ErrorCode::InvalidArgument, "aabb pair (objects " + std::to_string(objectA) + ", " +
                                                         std::to_string(objectB) + "): transform is not invertible");
    }
    if (treeA.levelCount == 0 || treeB.levelCount == 0) {
        return makeError(ErrorCode::InvalidArgument, "aabb pair: empty tree");
    }
    gpu::AabbPairGpu pair{};
    pair.bToA = glm::mat4(bToA);
    pair.aToB = aToB;
    pair.treeA = treeIndexA;
    pair.treeB = treeIndexB;
    pair.levelCount = std::max(treeA.levelCount, treeB.levelCount);
    pair.globalLevelBase = 0;
    glm::vec2 slack = aabbBoxSlack(treeA.nodes[0], treeB.nodes[0], pair.bToA, pair.aToB);
    pair.slackA = slack.x;
    pair.slackB = slack.y;
    pair.objectA = objectA;
    pair.objectB = objectB;
    return pair;
}

gpu::AabbObjectGpu aabbObject(const glm::dmat4& objectToWorld, uint32_t tree, const gpu::AabbNodeGpu& slackBox) {
    gpu::AabbObjectGpu object{};
    const glm::dmat4 rows = glm::transpose(objectToWorld);
    object.row0 = rows[0];
    object.row1 = rows[1];
    object.row2 = rows[2];
    object.slackLo = slackBox.lo;
    object.slackHi = slackBox.hi;
    object.tree = tree;
    return object;
}

glm::vec2 aabbBoxSlack(const gpu::AabbNodeGpu& rootA, const gpu::AabbNodeGpu& rootB, const glm::mat4& bToA,
                       const glm::mat4& aToB) {
    return gpu::aabbBoxSlack(rootA.lo, rootA.hi, rootB.lo, rootB.hi, bToA, aToB);
}

uint32_t assignAabbGlobalLevels(std::span<gpu::AabbPairGpu> pairs) {
    uint32_t levels = 0;
    for (const gpu::AabbPairGpu& pair : pairs) levels = std::max(levels, pair.levelCount);
    for (gpu::AabbPairGpu& pair : pairs) pair.globalLevelBase = levels - pair.levelCount;
    return levels;
}

Result<AabbSeedTable> buildAabbSeedTable(std::span<const AabbTreeView> trees, std::span<const gpu::AabbPairGpu> pairs,
                                         std::span<const uint32_t> entranceLevels) {
    if (!entranceLevels.empty() && entranceLevels.size() != pairs.size()) {
        return makeError(ErrorCode::InvalidArgument, "aabb seeds: " + std::to_string(entranceLevels.size()) +
                                                         " entrance levels for " + std::to_string(pairs.size()) + " pairs");
    }
    // Seeds grouped by global level; within a level in pair order (stable, so runs are reproducible).
    std::array<std::vector<gpu::AabbSeedGpu>, gpu::kAabbMaxLevels> byLevel;
    for (uint32_t k = 0; k < pairs.size(); ++k) {
        const gpu::AabbPairGpu& pair = pairs[k];
        if (pair.treeA >= trees.size() || pair.treeB >= trees.size() || !trees[pair.treeA].tree || !trees[pair.treeB].tree) {
            return makeError(ErrorCode::InvalidArgument, "aabb seeds: pair " + std::to_string(k) + " names a missing tree");
        }
        if (pair.levelCount == 0 || pair.globalLevelBase + pair.levelCount > gpu::kAabbMaxLevels) {
            return makeError(ErrorCode::InvalidArgument, "aabb seeds: pair " + std::to_string(k) + " has bad levels");
        }
        uint32_t entrance = entranceLevels.empty() ? 0 : std::min(entranceLevels[k], pair.levelCount - 1);
        gpu::AabbSeedGpu seed{};
        seed.pair = k;
        seed.countA = aabbPaddedLevelSize(*trees[pair.treeA].tree, entrance, pair.levelCount);
        seed.countB = aabbPaddedLevelSize(*trees[pair.treeB].tree, entrance, pair.levelCount);
        byLevel[pair.globalLevelBase + entrance].push_back(seed);
    }
    AabbSeedTable table;
    for (uint32_t level = 0; level < gpu::kAabbMaxLevels; ++level) {
        gpu::AabbSeedLevelGpu& info = table.levels[level];
        info.first = uint32_t(table.seeds.size());
        info.count = uint32_t(byLevel[level].size());
        uint64_t threads = 0;
        for (gpu::AabbSeedGpu seed : byLevel[level]) {
            seed.threadStart = uint32_t(threads);
            threads += uint64_t(seed.countA) * seed.countB;
            if (threads > std::numeric_limits<uint32_t>::max()) {
                return makeError(ErrorCode::InvalidArgument, "aabb seeds: level " + std::to_string(level) +
                                                                 " would seed more than 2^32 node pairs");
            }
            table.seeds.push_back(seed);
        }
        info.threads = uint32_t(threads);
    }
    return table;
}

uint32_t nextAabbEntranceLevel(const gpu::AabbPairGpu& pair, const AabbTree& treeA, const AabbTree& treeB,
                               const gpu::AabbPairStatsGpu& stats, uint32_t entrance, float fraction) {
    entrance = std::min(entrance, pair.levelCount - 1);
    for (uint32_t level = pair.levelCount; level-- > entrance;) {
        double all = double(aabbPaddedLevelSize(treeA, level, pair.levelCount)) *
                     double(aabbPaddedLevelSize(treeB, level, pair.levelCount));
        if (double(stats.overlaps[level]) > double(fraction) * all) return level;
    }
    return entrance > 0 ? entrance - 1 : 0;
}

Status traverseAabbTreesCpu(std::span<const AabbTreeView> trees, std::span<const gpu::AabbPairGpu> pairs,
                            const AabbSeedTable& seeds, uint32_t globalLevelCount,
                            const AabbTraversalSettings& settings, AabbTraversalOutput& out) {
    if (globalLevelCount > gpu::kAabbMaxLevels) {
        return makeError(ErrorCode::InvalidArgument, "aabb traversal: more than kAabbMaxLevels levels");
    }
    for (uint32_t k = 0; k < pairs.size(); ++k) {
        const gpu::AabbPairGpu& pair = pairs[k];
        bool treesOk = pair.treeA < trees.size() && pair.treeB < trees.size() && trees[pair.treeA].tree &&
                       trees[pair.treeB].tree;
        if (!treesOk || pair.globalLevelBase + pair.levelCount != globalLevelCount ||
            pair.levelCount < std::max(trees[pair.treeA].tree->levelCount, trees[pair.treeB].tree->levelCount)) {
            return makeError(ErrorCode::InvalidArgument,
                             "aabb traversal: pair " + std::to_string(k) + " names a missing tree or has inconsistent levels");
        }
    }
    for (const gpu::AabbSeedGpu& seed : seeds.seeds) {
        if (seed.pair >= pairs.size()) return makeError(ErrorCode::InvalidArgument, "aabb traversal: seed names a missing pair");
    }

    out = AabbTraversalOutput{};
    out.pairStats.assign(pairs.size(), gpu::AabbPairStatsGpu{});
    gpu::AabbTraversalStateGpu& state = out.state;
    const uint64_t listCapacity = settings.listCapacity;
    std::array<std::vector<gpu::AabbNodePairGpu>, 2> lists;

    for (uint32_t level = 0; level < globalLevelCount; ++level) {
        // aabb_indirect.comp: what this level reads, and the list the next level appends to.
        uint32_t readList = level & 1u;
        uint32_t explicitCount = uint32_t(std::min<uint64_t>(state.listCount[readList], listCapacity));
        if (state.listCount[readList] > listCapacity)
            state.nodePairOverflow = std::max(state.nodePairOverflow, state.listCount[readList]);
        const gpu::AabbSeedLevelGpu& seedLevel = seeds.levels[level];
        uint64_t threads = uint64_t(explicitCount) + seedLevel.threads;
        uint64_t groups = std::min<uint64_t>((threads + gpu::kAabbTraverseGroupSize - 1) / gpu::kAabbTraverseGroupSize,
                                             gpu::kAabbMaxGroups);
        state.dispatch[level] = glm::uvec4(uint32_t(groups), 1u, 1u, explicitCount);
        state.listCount[readList ^ 1u] = 0;
        lists[readList ^ 1u].clear();

        // aabb_traverse.comp, one iteration per thread.
        for (uint64_t thread = 0; thread < threads; ++thread) {
            gpu::AabbNodePairGpu entry{};
            if (thread < explicitCount) {
                entry = lists[readList][thread];
            } else {
                uint32_t s = uint32_t(thread - explicitCount);
                // Last seed of this level whose threadStart <= s (binary search, as the shader).
                uint32_t lo = seedLevel.first, hi = seedLevel.first + seedLevel.count - 1;
                while (lo < hi) {
                    uint32_t mid = (lo + hi + 1) / 2;
                    if (seeds.seeds[mid].threadStart <= s) lo = mid; else hi = mid - 1;
                }
                const gpu::AabbSeedGpu& seed = seeds.seeds[lo];
                uint32_t local = s - seed.threadStart;
                entry.pair = seed.pair;
                entry.nodeA = local / seed.countB;
                entry.nodeB = local % seed.countB;
            }
            const gpu::AabbPairGpu& pair = pairs[entry.pair];
            const AabbTree& treeA = *trees[pair.treeA].tree;
            const AabbTree& treeB = *trees[pair.treeB].tree;
            uint32_t pairLevel = level - pair.globalLevelBase;
            int realA = gpu::aabbRealLevel(pairLevel, pair.levelCount, treeA.levelCount);
            int realB = gpu::aabbRealLevel(pairLevel, pair.levelCount, treeB.levelCount);
            const gpu::AabbNodeGpu& boxA = pairLevelNode(treeA, realA, entry.nodeA);
            const gpu::AabbNodeGpu& boxB = pairLevelNode(treeB, realB, entry.nodeB);
            bool overlap = gpu::aabbSatLite(glm::vec3(boxA.lo), glm::vec3(boxA.hi), glm::vec3(boxB.lo), glm::vec3(boxB.hi),
                                            pair.bToA, pair.aToB, pair.slackA, pair.slackB);
            gpu::AabbPairStatsGpu& stats = out.pairStats[entry.pair];
            ++stats.tested[pairLevel];
            ++state.levelTested[level];
            if (!overlap) continue;
            ++stats.overlaps[pairLevel];
            ++state.levelOverlaps[level];

            if (pairLevel + 1 == pair.levelCount) {
                // Leaf level of both trees: triangle B is moved into A's space, then tested.
                std::span<const glm::vec3> posA = trees[pair.treeA].positions, posB = trees[pair.treeB].positions;
                const glm::uvec4& leafA = treeA.leaves[entry.nodeA];
                const glm::uvec4& leafB = treeB.leaves[entry.nodeB];
                if (std::max({leafA.x, leafA.y, leafA.z}) >= posA.size() || std::max({leafB.x, leafB.y, leafB.z}) >= posB.size()) {
                    return makeError(ErrorCode::InvalidArgument, "aabb traversal: a tree's positions are missing or too few");
                }
                glm::vec3 b0 = gpu::aabbTransformPoint(pair.bToA, posB[leafB.x]);
                glm::vec3 b1 = gpu::aabbTransformPoint(pair.bToA, posB[leafB.y]);
                glm::vec3 b2 = gpu::aabbTransformPoint(pair.bToA, posB[leafB.z]);
                if (gpu::triTriIntersect(posA[leafA.x], posA[leafA.y], posA[leafA.z], b0, b1, b2)) {
                    uint32_t slot = state.trianglePairCount++;
                    ++stats.trianglePairs;
                    if (slot < settings.trianglePairCapacity) {
                        out.trianglePairs.push_back({entry.pair, leafA.w, leafB.w, 0u});
                    }
                }
                continue;
            }
            uint32_t firstA, countA, firstB, countB;
            children(treeA, realA, entry.nodeA, firstA, countA);
            children(treeB, realB, entry.nodeB, firstB, countB);
            for (uint32_t i = 0; i < countA; ++i) {
                for (uint32_t j = 0; j < countB; ++j) {
                    uint32_t slot = state.listCount[readList ^ 1u]++;
                    if (slot < listCapacity) lists[readList ^ 1u].push_back({entry.pair, firstA + i, firstB + j, 0u});
                }
            }
        }
    }
    return Status::success();
}

}  // namespace vkc
