// AabbTree (paper 4, section 4.1): level sizes, containment, leaves as a permutation of the
// triangles, padding at the top, spatial leaf order, refit == rebuild, and bad-input errors.
#include "aabb_test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>

namespace vkc {
namespace {

using aabbtest::icosphere;
using aabbtest::subdividedBox;
using aabbtest::uvSphere;

// Random triangle soup of `count` triangles (the tree must not care about connectivity).
MeshData soup(uint32_t count, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-10.0f, 10.0f);
    MeshData mesh;
    mesh.name = "soup";
    for (uint32_t t = 0; t < count; ++t) {
        glm::vec3 c(u(rng), u(rng), u(rng));
        for (int k = 0; k < 3; ++k) {
            mesh.positions.push_back(c + 0.1f * glm::vec3(u(rng), u(rng), u(rng)));
            mesh.indices.push_back(uint32_t(mesh.positions.size() - 1));
        }
    }
    return mesh;
}

bool contains(const gpu::AabbNodeGpu& outer, const gpu::AabbNodeGpu& inner) {
    return glm::all(glm::lessThanEqual(glm::vec3(outer.lo), glm::vec3(inner.lo))) &&
           glm::all(glm::lessThanEqual(glm::vec3(inner.hi), glm::vec3(outer.hi)));
}

// Exact box of leaves [first, first + count) computed independently of the tree code.
gpu::AabbNodeGpu boxOfLeaves(const AabbTree& tree, std::span<const glm::vec3> positions, uint32_t first, uint32_t count) {
    glm::vec3 lo(std::numeric_limits<float>::infinity()), hi(-std::numeric_limits<float>::infinity());
    for (uint32_t i = first; i < first + count; ++i) {
        for (int k = 0; k < 3; ++k) {
            lo = glm::min(lo, positions[tree.leaves[i][k]]);
            hi = glm::max(hi, positions[tree.leaves[i][k]]);
        }
    }
    return {glm::vec4(lo, 0.0f), glm::vec4(hi, 0.0f)};
}

void expectExactBoxes(const AabbTree& tree, std::span<const glm::vec3> positions) {
    for (uint32_t level = 0; level < tree.levelCount; ++level) {
        uint32_t span = 1u << (tree.levelCount - 1 - level);  // leaves under one node of this level
        for (uint32_t i = 0; i < tree.levelSize(level); ++i) {
            uint32_t first = i * span, count = std::min(span, tree.triangleCount - first);
            gpu::AabbNodeGpu expected = boxOfLeaves(tree, positions, first, count);
            const gpu::AabbNodeGpu& got = tree.node(level, i);
            ASSERT_EQ(glm::vec3(got.lo), glm::vec3(expected.lo)) << "level " << level << " node " << i;
            ASSERT_EQ(glm::vec3(got.hi), glm::vec3(expected.hi)) << "level " << level << " node " << i;
        }
    }
}

TEST(AabbTree, LevelSizesFollowCeilHalf) {
    for (uint32_t count : {1u, 2u, 3u, 5u, 63u, 64u, 65u, 100u, 127u, 129u, 1000u, 1025u}) {
        Result<AabbTree> built = buildAabbTree(soup(count, count));
        ASSERT_TRUE(built.ok()) << built.status().describe();
        const AabbTree& tree = built.value();
        EXPECT_EQ(tree.triangleCount, count);
        EXPECT_EQ(tree.levelCount, aabbTreeLevelCount(count));
        EXPECT_EQ(tree.levelSize(0), 1u) << count;
        EXPECT_EQ(tree.levelSize(tree.levelCount - 1), count);
        for (uint32_t level = 0; level + 1 < tree.levelCount; ++level) {
            EXPECT_EQ(tree.levelSize(level), (tree.levelSize(level + 1) + 1) / 2) << count << " level " << level;
            // At most one node per level has a single child (section 4.1).
            uint32_t single = 0;
            for (uint32_t i = 0; i < tree.levelSize(level); ++i) {
                single += gpu::aabbChildCount(i, tree.levelSize(level + 1)) == 1 ? 1 : 0;
            }
            EXPECT_LE(single, 1u);
        }
        EXPECT_EQ(tree.levelStart.back(), tree.nodes.size());
        EXPECT_EQ(aabbTreeNodeCount(count), tree.nodes.size()) << count;  // known before the build
        EXPECT_EQ(tree.leaves.size(), count);
        // The header the GPU reads carries the same levels.
        gpu::AabbTreeGpu header = tree.gpuHeader(10, 20, {3, 4, 5, 6});
        EXPECT_EQ(header.levelCount, tree.levelCount);
        EXPECT_EQ(header.levelStart[tree.levelCount], uint32_t(tree.nodes.size()));
        EXPECT_EQ(header.nodeOffset, 10u);
        EXPECT_EQ(header.vertices.stride, 4u);
    }
    EXPECT_EQ(aabbTreeLevelCount(1), 1u);
    EXPECT_EQ(aabbTreeLevelCount(2), 2u);
    EXPECT_EQ(aabbTreeLevelCount(3), 3u);
    EXPECT_EQ(aabbTreeLevelCount(64), 7u);
    EXPECT_EQ(aabbTreeLevelCount(65), 8u);
}

TEST(AabbTree, EveryBoxContainsItsChildrenAndIsExact) {
    for (const MeshData& mesh : {uvSphere(13, 9, 1.0f), subdividedBox(5, {1.0f, 0.5f, 2.0f}), icosphere(2, 1.0f, 23), soup(777, 7)}) {
        Result<AabbTree> built = buildAabbTree(mesh);
        ASSERT_TRUE(built.ok()) << built.status().describe();
        const AabbTree& tree = built.value();
        for (uint32_t level = 0; level + 1 < tree.levelCount; ++level) {
            for (uint32_t i = 0; i < tree.levelSize(level); ++i) {
                uint32_t children = gpu::aabbChildCount(i, tree.levelSize(level + 1));
                for (uint32_t c = 0; c < children; ++c) {
                    EXPECT_TRUE(contains(tree.node(level, i), tree.node(level + 1, 2 * i + c)))
                        << mesh.name << " level " << level << " node " << i;
                }
            }
        }
        expectExactBoxes(tree, mesh.positions);
    }
}

TEST(AabbTree, EveryTriangleInExactlyOneLeaf) {
    MeshData mesh = icosphere(2, 1.0f, 23);
    Result<AabbTree> built = buildAabbTree(mesh);
    ASSERT_TRUE(built.ok());
    const AabbTree& tree = built.value();
    ASSERT_EQ(tree.leaves.size(), mesh.triangleCount());
    std::vector<int> seen(mesh.triangleCount(), 0);
    for (const glm::uvec4& leaf : tree.leaves) {
        ASSERT_LT(leaf.w, mesh.triangleCount());
        ++seen[leaf.w];
        // The leaf's vertex ids are that triangle's, in its winding.
        EXPECT_EQ(leaf.x, mesh.indices[3 * leaf.w]);
        EXPECT_EQ(leaf.y, mesh.indices[3 * leaf.w + 1]);
        EXPECT_EQ(leaf.z, mesh.indices[3 * leaf.w + 2]);
    }
    for (size_t t = 0; t < seen.size(); ++t) EXPECT_EQ(seen[t], 1) << "triangle " << t;
}

TEST(AabbTree, PaddingAtTheTopRepeatsTheRoot) {
    MeshData small = aabbtest::tetrahedron(1.0f);  // 4 triangles: 3 levels
    Result<AabbTree> built = buildAabbTree(small);
    ASSERT_TRUE(built.ok());
    const AabbTree& tree = built.value();
    ASSERT_EQ(tree.levelCount, 3u);
    const uint32_t padded = 7;  // as deep as a partner with 33..64 triangles
    for (uint32_t level = 0; level < padded - tree.levelCount; ++level) {
        EXPECT_EQ(aabbPaddedLevelSize(tree, level, padded), 1u);
        gpu::AabbNodeGpu node = aabbPaddedNode(tree, level, padded, 0);
        EXPECT_EQ(glm::vec3(node.lo), glm::vec3(tree.nodes[0].lo));
        EXPECT_EQ(glm::vec3(node.hi), glm::vec3(tree.nodes[0].hi));
        EXPECT_LT(gpu::aabbRealLevel(level, padded, tree.levelCount), 0);
    }
    for (uint32_t real = 0; real < tree.levelCount; ++real) {
        uint32_t level = padded - tree.levelCount + real;
        EXPECT_EQ(aabbPaddedLevelSize(tree, level, padded), tree.levelSize(real));
        EXPECT_EQ(gpu::aabbRealLevel(level, padded, tree.levelCount), int(real));
        for (uint32_t i = 0; i < tree.levelSize(real); ++i) {
            EXPECT_EQ(glm::vec3(aabbPaddedNode(tree, level, padded, i).lo), glm::vec3(tree.node(real, i).lo));
        }
    }
    // Unpadded: identical to the real levels.
    EXPECT_EQ(aabbPaddedLevelSize(tree, 2, 3), 4u);
}

// The leaf order must make siblings spatially close: the split tree's boxes are far smaller than
// those of the same tree over triangles in input order of a shuffled soup.
TEST(AabbTree, LeafOrderGroupsNearbyTriangles) {
    MeshData mesh = soup(1000, 3);
    Result<AabbTree> built = buildAabbTree(mesh);
    ASSERT_TRUE(built.ok());
    AabbTree tree = built.value();
    auto totalArea = [](const AabbTree& t) {
        double sum = 0.0;
        for (const gpu::AabbNodeGpu& n : t.nodes) {
            glm::vec3 e = glm::vec3(n.hi - n.lo);
            sum += double(e.x) * e.y + double(e.y) * e.z + double(e.z) * e.x;
        }
        return sum;
    };
    double split = totalArea(tree);
    AabbTree inputOrder = tree;
    for (uint32_t t = 0; t < mesh.triangleCount(); ++t) {
        inputOrder.leaves[t] = glm::uvec4(mesh.indices[3 * t], mesh.indices[3 * t + 1], mesh.indices[3 * t + 2], t);
    }
    ASSERT_TRUE(refitAabbTree(inputOrder, mesh.positions).ok());
    EXPECT_LT(split * 4.0, totalArea(inputOrder));
    // Deterministic: the same mesh gives the same leaf order.
    Result<AabbTree> again = buildAabbTree(mesh);
    ASSERT_TRUE(again.ok());
    EXPECT_TRUE(std::equal(tree.leaves.begin(), tree.leaves.end(), again.value().leaves.begin()));
}

TEST(AabbTree, RefitAfterMovingVerticesEqualsRebuild) {
    MeshData mesh = uvSphere(13, 9, 1.0f);
    Result<AabbTree> built = buildAabbTree(mesh);
    ASSERT_TRUE(built.ok());
    AabbTree tree = built.value();

    // (1) Scaling by 2 is exact in float, so a rebuild picks the same leaf order: all boxes equal.
    MeshData scaled = mesh;
    for (glm::vec3& p : scaled.positions) p *= 2.0f;
    ASSERT_TRUE(refitAabbTree(tree, scaled.positions).ok());
    Result<AabbTree> rebuilt = buildAabbTree(scaled);
    ASSERT_TRUE(rebuilt.ok());
    ASSERT_TRUE(std::equal(tree.leaves.begin(), tree.leaves.end(), rebuilt.value().leaves.begin()));
    ASSERT_EQ(tree.nodes.size(), rebuilt.value().nodes.size());
    for (size_t i = 0; i < tree.nodes.size(); ++i) {
        EXPECT_EQ(glm::vec3(tree.nodes[i].lo), glm::vec3(rebuilt.value().nodes[i].lo)) << i;
        EXPECT_EQ(glm::vec3(tree.nodes[i].hi), glm::vec3(rebuilt.value().nodes[i].hi)) << i;
    }

    // (2) An arbitrary deformation: every box equals the exact box of its leaves' moved vertices.
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> wobble(-0.3f, 0.3f);
    std::vector<glm::vec3> moved = mesh.positions;
    for (glm::vec3& p : moved) p = p * (1.0f + wobble(rng)) + glm::vec3(wobble(rng), 2.0f, wobble(rng));
    std::vector<gpu::AabbNodeGpu> before = tree.nodes;
    ASSERT_TRUE(refitAabbTree(tree, moved).ok());
    expectExactBoxes(tree, moved);
    EXPECT_NE(glm::vec3(before[0].lo), glm::vec3(tree.nodes[0].lo));  // the refit did change boxes
}

// Finite coordinates near FLT_MAX are finite: the checks once summed them in float (overflow to
// inf) and called such a mesh non-finite (issue 15).
TEST(AabbTree, FiniteCoordinatesNearFloatMaxAreAccepted) {
    MeshData huge = aabbtest::tetrahedron(1.0f);
    huge.name = "huge";
    for (glm::vec3& p : huge.positions) p = p * 1.5e38f + glm::vec3(1e38f);  // -5e37 .. 2.5e38
    Result<AabbTree> tree = buildAabbTree(huge);
    ASSERT_TRUE(tree.ok()) << tree.status().message;
    expectExactBoxes(*tree, huge.positions);
    EXPECT_TRUE(refitAabbTree(*tree, huge.positions).ok());
}

TEST(AabbTree, BadInputIsAnErrorNamingTheMesh) {
    MeshData empty;
    empty.name = "nothing";
    Result<AabbTree> r = buildAabbTree(empty);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code, ErrorCode::InvalidMesh);
    EXPECT_NE(r.status().message.find("nothing"), std::string::npos);

    MeshData bad = aabbtest::tetrahedron(1.0f);
    bad.name = "bad-index";
    bad.indices[4] = 99;
    r = buildAabbTree(bad);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code, ErrorCode::InvalidMesh);
    EXPECT_NE(r.status().message.find("bad-index"), std::string::npos);

    MeshData nan = aabbtest::tetrahedron(1.0f);
    nan.name = "nan";
    nan.positions[2].y = std::numeric_limits<float>::quiet_NaN();
    r = buildAabbTree(nan);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code, ErrorCode::InvalidMesh);

    MeshData partial = aabbtest::tetrahedron(1.0f);
    partial.indices.pop_back();
    EXPECT_FALSE(buildAabbTree(partial).ok());

    // Refit with too few positions is refused, not read out of bounds.
    Result<AabbTree> good = buildAabbTree(aabbtest::tetrahedron(1.0f));
    ASSERT_TRUE(good.ok());
    std::vector<glm::vec3> few(2);
    EXPECT_EQ(refitAabbTree(good.value(), few).code, ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace vkc
