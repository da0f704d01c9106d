// CPU traversal (paper 4, 4.2-4.3 and 5) against brute force (every triangle pair x the same
// tri-tri): generated meshes with triangle counts that are not multiples of 64, trees of different
// depths (padding), several object pairs batched, seeded random rigid motions, a deforming mesh
// (refit), capacity/overflow reporting, zero-group levels, and temporal coherence on == off.
#include "aabb_test_support.h"

#include <gtest/gtest.h>

#include <map>

namespace vkc {
namespace {

using aabbtest::TriPair;

struct Scene {
    std::vector<MeshData> meshes;  // mesh i has tree i
    std::vector<AabbTree> trees;
    std::vector<std::vector<glm::vec3>> positions;  // current (possibly deformed) positions
    std::vector<uint32_t> objectMesh;                // object -> mesh
};

Scene makeScene() {
    Scene scene;
    scene.meshes = {aabbtest::uvSphere(13, 9, 1.0f), aabbtest::subdividedBox(5, {0.8f, 0.6f, 0.7f}),
                    aabbtest::icosphere(2, 0.9f, 23), aabbtest::tetrahedron(0.6f)};
    for (const MeshData& mesh : scene.meshes) {
        EXPECT_NE(mesh.triangleCount() % 64, 0u) << mesh.name;
        Result<AabbTree> tree = buildAabbTree(mesh);
        EXPECT_TRUE(tree.ok()) << tree.status().describe();
        scene.trees.push_back(tree.value());
        scene.positions.push_back(mesh.positions);
    }
    scene.objectMesh = {0, 1, 2, 3, 0};  // object 4 is a second instance of the sphere
    return scene;
}

std::vector<AabbTreeView> views(const Scene& scene) {
    std::vector<AabbTreeView> result;
    for (size_t i = 0; i < scene.trees.size(); ++i) result.push_back({&scene.trees[i], scene.positions[i]});
    return result;
}

// Every object pair a < b of the scene, batched, under the given world transforms.
std::vector<gpu::AabbPairGpu> makePairs(const Scene& scene, const std::vector<glm::mat4>& world, uint32_t& levels) {
    std::vector<gpu::AabbPairGpu> pairs;
    for (uint32_t a = 0; a < world.size(); ++a) {
        for (uint32_t b = a + 1; b < world.size(); ++b) {
            uint32_t ma = scene.objectMesh[a], mb = scene.objectMesh[b];
            Result<gpu::AabbPairGpu> pair =
                makeAabbPair(scene.trees[ma], ma, scene.trees[mb], mb, glm::inverse(world[a]) * world[b], a, b);
            EXPECT_TRUE(pair.ok()) << pair.status().describe();
            pairs.push_back(pair.value());
        }
    }
    levels = assignAabbGlobalLevels(pairs);
    return pairs;
}

std::set<TriPair> asSet(const AabbTraversalOutput& out) {
    std::set<TriPair> result;
    for (const gpu::AabbTrianglePairGpu& p : out.trianglePairs) {
        EXPECT_TRUE(result.insert({p.pair, p.triangleA, p.triangleB}).second) << "duplicate triangle pair";
    }
    return result;
}

AabbTraversalOutput traverse(const Scene& scene, const std::vector<gpu::AabbPairGpu>& pairs, uint32_t levels,
                             std::span<const uint32_t> entrance = {}, AabbTraversalSettings settings = {}) {
    std::vector<AabbTreeView> trees = views(scene);
    Result<AabbSeedTable> seeds = buildAabbSeedTable(trees, pairs, entrance);
    EXPECT_TRUE(seeds.ok()) << seeds.status().describe();
    AabbTraversalOutput out;
    Status status = traverseAabbTreesCpu(trees, pairs, seeds.value(), levels, settings, out);
    EXPECT_TRUE(status.ok()) << status.describe();
    return out;
}

std::vector<MeshData> currentMeshes(const Scene& scene) {
    std::vector<MeshData> meshes = scene.meshes;
    for (size_t i = 0; i < meshes.size(); ++i) meshes[i].positions = scene.positions[i];
    return meshes;
}

TEST(AabbTraversalCpu, FindsExactlyTheBruteForcePairs) {
    Scene scene = makeScene();
    std::mt19937 rng(77);
    std::uniform_real_distribution<float> wobble(-0.05f, 0.05f);
    size_t totalHits = 0, framesWithSeparatedPair = 0;
    uint64_t leafTests = 0, allTrianglePairs = 0;
    for (int frame = 0; frame < 12; ++frame) {
        std::vector<glm::mat4> world;
        for (size_t o = 0; o < scene.objectMesh.size(); ++o) world.push_back(aabbtest::randomRigid(rng, 0.7f));
        if (frame % 2 == 1) {  // the box deforms on odd frames: refit, as the GPU refit pass would
            for (size_t v = 0; v < scene.positions[1].size(); ++v) {
                scene.positions[1][v] = scene.meshes[1].positions[v] + glm::vec3(wobble(rng), wobble(rng), wobble(rng));
            }
            ASSERT_TRUE(refitAabbTree(scene.trees[1], scene.positions[1]).ok());
        }
        uint32_t levels = 0;
        std::vector<gpu::AabbPairGpu> pairs = makePairs(scene, world, levels);
        ASSERT_EQ(levels, 10u);  // the 300-triangle box: padding for the sphere (9) and tetrahedron (3)
        AabbTraversalOutput out = traverse(scene, pairs, levels);
        std::set<TriPair> expected = aabbtest::bruteForce(currentMeshes(scene), pairs);
        std::set<TriPair> found = asSet(out);
        ASSERT_EQ(found, expected) << "frame " << frame;
        EXPECT_EQ(out.state.trianglePairCount, expected.size());
        EXPECT_FALSE(out.truncated());
        EXPECT_EQ(out.state.nodePairOverflow, 0u);
        // Per-pair counts are exact, and the per-level totals add up to the per-pair ones.
        std::map<uint32_t, uint32_t> perPair;
        for (const TriPair& p : expected) ++perPair[p.pair];
        bool separated = false;
        for (uint32_t k = 0; k < pairs.size(); ++k) {
            EXPECT_EQ(out.pairStats[k].trianglePairs, perPair[k]) << "pair " << k;
            separated = separated || perPair[k] == 0;
            leafTests += out.pairStats[k].tested[pairs[k].levelCount - 1];
            allTrianglePairs += uint64_t(scene.trees[pairs[k].treeA].triangleCount) * scene.trees[pairs[k].treeB].triangleCount;
        }
        for (uint32_t g = 0; g < levels; ++g) {
            uint32_t tested = 0, overlaps = 0;
            for (uint32_t k = 0; k < pairs.size(); ++k) {
                if (g >= pairs[k].globalLevelBase) {
                    tested += out.pairStats[k].tested[g - pairs[k].globalLevelBase];
                    overlaps += out.pairStats[k].overlaps[g - pairs[k].globalLevelBase];
                }
            }
            EXPECT_EQ(out.state.levelTested[g], tested);
            EXPECT_EQ(out.state.levelOverlaps[g], overlaps);
        }
        totalHits += expected.size();
        framesWithSeparatedPair += separated ? 1 : 0;
    }
    EXPECT_GT(totalHits, 500u);  // the motions do make the objects intersect
    EXPECT_GT(framesWithSeparatedPair, 0u);
    EXPECT_LT(leafTests * 10, allTrianglePairs);  // the hierarchy culls (else it is brute force)
}

TEST(AabbTraversalCpu, CapacitiesKeepCountsExactAndFlagTruncation) {
    Scene scene = makeScene();
    std::mt19937 rng(5);
    std::vector<glm::mat4> world;
    for (size_t o = 0; o < scene.objectMesh.size(); ++o) world.push_back(aabbtest::randomRigid(rng, 0.3f));
    uint32_t levels = 0;
    std::vector<gpu::AabbPairGpu> pairs = makePairs(scene, world, levels);
    AabbTraversalOutput full = traverse(scene, pairs, levels);
    ASSERT_GT(full.state.trianglePairCount, 20u);

    AabbTraversalSettings small;
    small.trianglePairCapacity = full.state.trianglePairCount / 3;
    AabbTraversalOutput cut = traverse(scene, pairs, levels, {}, small);
    EXPECT_EQ(cut.state.trianglePairCount, full.state.trianglePairCount);  // exact past capacity
    EXPECT_EQ(cut.trianglePairs.size(), small.trianglePairCapacity);
    EXPECT_TRUE(cut.truncated());
    std::set<TriPair> all = asSet(full);
    for (const TriPair& p : asSet(cut)) EXPECT_TRUE(all.count(p));

    AabbTraversalSettings tinyLists;
    tinyLists.listCapacity = 16;
    AabbTraversalOutput overflow = traverse(scene, pairs, levels, {}, tinyLists);
    EXPECT_GT(overflow.state.nodePairOverflow, 16u);  // the largest overflowing count: a capacity hint
    EXPECT_TRUE(overflow.truncated());
    for (uint32_t g = 0; g < levels; ++g) EXPECT_LE(overflow.state.dispatch[g].w, 16u);
}

TEST(AabbTraversalCpu, SeparatedObjectsLeaveLaterLevelsWithZeroGroups) {
    Scene scene = makeScene();
    std::vector<glm::mat4> world = {glm::mat4(1.0f), glm::translate(glm::mat4(1.0f), glm::vec3(5.0f, 0.0f, 0.0f))};
    scene.objectMesh = {1, 1};
    uint32_t levels = 0;
    std::vector<gpu::AabbPairGpu> pairs = makePairs(scene, world, levels);
    AabbTraversalOutput out = traverse(scene, pairs, levels);
    EXPECT_EQ(out.state.dispatch[0], glm::uvec4(1, 1, 1, 0));  // the root pair, from its seed
    EXPECT_EQ(out.state.levelTested[0], 1u);
    EXPECT_EQ(out.state.levelOverlaps[0], 0u);
    for (uint32_t g = 1; g < levels; ++g) EXPECT_EQ(out.state.dispatch[g].x, 0u) << "level " << g;
    EXPECT_EQ(out.state.trianglePairCount, 0u);

    // Touching: the same boxes side by side share a face; the closed test reports the contact.
    world[1] = glm::translate(glm::mat4(1.0f), glm::vec3(1.6f, 0.0f, 0.0f));
    pairs = makePairs(scene, world, levels);
    out = traverse(scene, pairs, levels);
    EXPECT_GT(out.state.trianglePairCount, 0u);
    EXPECT_EQ(asSet(out), aabbtest::bruteForce(currentMeshes(scene), pairs));
}

// Any entrance level gives the same triangle pairs (seeding a level = every node pair there).
TEST(AabbTraversalCpu, RandomEntranceLevelsChangeNothing) {
    Scene scene = makeScene();
    std::mt19937 rng(9);
    for (int frame = 0; frame < 6; ++frame) {
        std::vector<glm::mat4> world;
        for (size_t o = 0; o < scene.objectMesh.size(); ++o) world.push_back(aabbtest::randomRigid(rng, 0.5f));
        uint32_t levels = 0;
        std::vector<gpu::AabbPairGpu> pairs = makePairs(scene, world, levels);
        std::vector<uint32_t> entrance(pairs.size());
        for (size_t k = 0; k < pairs.size(); ++k) entrance[k] = std::uniform_int_distribution<uint32_t>(0, pairs[k].levelCount - 1)(rng);
        AabbTraversalOutput out = traverse(scene, pairs, levels, entrance);
        ASSERT_EQ(asSet(out), aabbtest::bruteForce(currentMeshes(scene), pairs)) << "frame " << frame;
        for (size_t k = 0; k < pairs.size(); ++k) {
            for (uint32_t p = 0; p < entrance[k]; ++p) EXPECT_EQ(out.pairStats[k].tested[p], 0u) << "skipped level tested";
            EXPECT_GT(out.pairStats[k].tested[entrance[k]], 0u);
        }
    }
}

TEST(AabbTraversalCpu, TemporalCoherenceOnAndOffGiveIdenticalResults) {
    Scene scene = makeScene();
    scene.objectMesh = {0, 1, 2};
    std::vector<uint32_t> entrance;  // per pair, carried from frame to frame (the GPU keeps it too)
    uint32_t maxEntrance = 0;
    uint64_t testsOn = 0, testsOff = 0;
    size_t hits = 0;
    for (int frame = 0; frame < 40; ++frame) {
        // Smooth motion: the objects drift through each other while turning.
        float t = float(frame) / 39.0f;
        std::vector<glm::mat4> world = {
            glm::rotate(glm::mat4(1.0f), 2.0f * t, glm::vec3(0, 0, 1)),
            glm::rotate(glm::translate(glm::mat4(1.0f), glm::vec3(2.2f - 2.6f * t, 0.1f, 0.0f)), 1.5f * t, glm::vec3(1, 1, 0)),
            glm::rotate(glm::translate(glm::mat4(1.0f), glm::vec3(0.3f, 2.0f - 2.2f * t, 0.2f)), 0.7f, glm::vec3(0, 1, 1))};
        uint32_t levels = 0;
        std::vector<gpu::AabbPairGpu> pairs = makePairs(scene, world, levels);
        if (entrance.empty()) entrance.assign(pairs.size(), 0);
        AabbTraversalOutput on = traverse(scene, pairs, levels, entrance);
        AabbTraversalOutput off = traverse(scene, pairs, levels);
        ASSERT_EQ(asSet(on), asSet(off)) << "frame " << frame;
        ASSERT_EQ(on.state.trianglePairCount, off.state.trianglePairCount);
        for (size_t k = 0; k < pairs.size(); ++k) {
            ASSERT_EQ(on.pairStats[k].trianglePairs, off.pairStats[k].trianglePairs);
            for (uint32_t g = 0; g < levels; ++g) testsOn += on.pairStats[k].tested[g], testsOff += off.pairStats[k].tested[g];
        }
        hits += off.state.trianglePairCount;
        for (size_t k = 0; k < pairs.size(); ++k) {
            uint32_t a = pairs[k].treeA, b = pairs[k].treeB;
            entrance[k] = nextAabbEntranceLevel(pairs[k], scene.trees[a], scene.trees[b], on.pairStats[k], entrance[k]);
            maxEntrance = std::max(maxEntrance, entrance[k]);
        }
    }
    EXPECT_GT(hits, 100u);
    EXPECT_GE(maxEntrance, 3u);  // coherence really started deeper than the root
    EXPECT_NE(testsOn, testsOff);
    std::printf("[ coherence ] box pair tests over 40 frames: on %llu, off %llu\n", (unsigned long long)testsOn,
                (unsigned long long)testsOff);
}

TEST(AabbTraversalCpu, EntranceLevelHeuristic) {
    Scene scene = makeScene();
    uint32_t levels = 0;
    std::vector<gpu::AabbPairGpu> pairs = makePairs(scene, {glm::mat4(1.0f), glm::mat4(1.0f)}, levels);
    const AabbTree& a = scene.trees[0];
    const AabbTree& b = scene.trees[1];
    gpu::AabbPairStatsGpu stats{};
    // Level 4: all pairs overlap; level 5: a quarter do -> enter at 4.
    stats.overlaps[4] = aabbPaddedLevelSize(a, 4, levels) * aabbPaddedLevelSize(b, 4, levels);
    stats.overlaps[5] = aabbPaddedLevelSize(a, 5, levels) * aabbPaddedLevelSize(b, 5, levels) / 4;
    EXPECT_EQ(nextAabbEntranceLevel(pairs[0], a, b, stats, 2), 4u);
    // Nothing above the fraction at or below the entrance: move one level up.
    EXPECT_EQ(nextAabbEntranceLevel(pairs[0], a, b, gpu::AabbPairStatsGpu{}, 6), 5u);
    EXPECT_EQ(nextAabbEntranceLevel(pairs[0], a, b, gpu::AabbPairStatsGpu{}, 0), 0u);
}

TEST(AabbTraversalCpu, BadPairsAreRefused) {
    Scene scene = makeScene();
    glm::mat4 singular(1.0f);
    singular[2] = glm::vec4(0.0f);
    EXPECT_FALSE(makeAabbPair(scene.trees[0], 0, scene.trees[1], 1, singular).ok());
    glm::mat4 projective(1.0f);
    projective[0][3] = 0.5f;
    EXPECT_FALSE(makeAabbPair(scene.trees[0], 0, scene.trees[1], 1, projective).ok());

    uint32_t levels = 0;
    std::vector<gpu::AabbPairGpu> pairs = makePairs(scene, {glm::mat4(1.0f), glm::mat4(1.0f)}, levels);
    pairs[0].treeB = 17;
    std::vector<AabbTreeView> trees = views(scene);
    EXPECT_FALSE(buildAabbSeedTable(trees, pairs, {}).ok());
    AabbSeedTable empty;
    AabbTraversalOutput out;
    EXPECT_EQ(traverseAabbTreesCpu(trees, pairs, empty, levels, {}, out).code, ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace vkc
