// Builds and refits the level-ordered AABB tree of paper 4, section 4.1.
// Inputs: MeshData (build) or positions (refit). Output: AabbTree (flat arrays for upload).
// Algorithm: recursive split along the longest centroid axis at the implicit layout's power-of-two
// leaf boundary (nth_element), then boxes bottom-up; refit repeats the bottom-up pass only.
// Invariant: levelStart[levelCount] == nodes.size(); leaves is a permutation of the triangles.
#include "collision/aabb_tree/aabb_tree.h"

#include <glm/common.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace vkc {

namespace {

// Each coordinate on its own: a sum of finite floats near FLT_MAX overflows to inf.
bool isFinite(const glm::vec3& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); }

struct Centroid {
    glm::vec3 position;
    uint32_t triangle;
};

// Orders leaves [first, first + count) of a subtree whose leaf level is `height` levels below its
// root: the left child owns the first 2^(height-1) leaves (the implicit layout's sibling ranges).
void splitLeaves(std::vector<Centroid>& items, size_t first, size_t count, uint32_t height) {
    while (height > 0 && count > 1) {
        size_t leftCount = size_t(1) << (height - 1);
        if (leftCount >= count) {  // the right child is empty: descend without reordering
            --height;
            continue;
        }
        glm::vec3 lo(std::numeric_limits<float>::infinity()), hi(-std::numeric_limits<float>::infinity());
        for (size_t i = first; i < first + count; ++i) {
            lo = glm::min(lo, items[i].position);
            hi = glm::max(hi, items[i].position);
        }
        glm::vec3 extent = hi - lo;
        int axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
        auto begin = items.begin() + std::ptrdiff_t(first);
        std::nth_element(begin, begin + std::ptrdiff_t(leftCount), begin + std::ptrdiff_t(count),
                         [axis](const Centroid& a, const Centroid& b) {
                             float ka = a.position[axis], kb = b.position[axis];
                             return ka < kb || (ka == kb && a.triangle < b.triangle);
                         });
        splitLeaves(items, first, leftCount, height - 1);  // recursion depth <= levelCount
        first += leftCount;
        count -= leftCount;
        --height;
    }
}

// Leaf boxes from the vertices, then every inner level from its children (aabb_refit.comp order).
Status computeBoxes(AabbTree& tree, std::span<const glm::vec3> positions) {
    uint32_t leafLevel = tree.levelCount - 1;
    for (uint32_t i = 0; i < tree.triangleCount; ++i) {
        const glm::uvec4& leaf = tree.leaves[i];
        if (leaf.x >= positions.size() || leaf.y >= positions.size() || leaf.z >= positions.size()) {
            return makeError(ErrorCode::InvalidArgument,
                             "aabb tree refit: triangle " + std::to_string(leaf.w) + " names a vertex beyond the " +
                                 std::to_string(positions.size()) + " positions given");
        }
        glm::vec3 a = positions[leaf.x], b = positions[leaf.y], c = positions[leaf.z];
        glm::vec3 lo = glm::min(glm::min(a, b), c), hi = glm::max(glm::max(a, b), c);
        if (!isFinite(lo) || !isFinite(hi)) {
            return makeError(ErrorCode::InvalidMesh,
                             "aabb tree: triangle " + std::to_string(leaf.w) + " has a non-finite vertex");
        }
        tree.nodes[tree.levelStart[leafLevel] + i] = {glm::vec4(lo, 0.0f), glm::vec4(hi, 0.0f)};
    }
    for (uint32_t level = leafLevel; level-- > 0;) {
        uint32_t nextSize = tree.levelSize(level + 1);
        for (uint32_t i = 0; i < tree.levelSize(level); ++i) {
            gpu::AabbNodeGpu box = tree.node(level + 1, 2 * i);
            if (gpu::aabbChildCount(i, nextSize) == 2) {
                const gpu::AabbNodeGpu& right = tree.node(level + 1, 2 * i + 1);
                box.lo = glm::min(box.lo, right.lo);
                box.hi = glm::max(box.hi, right.hi);
            }
            tree.nodes[tree.levelStart[level] + i] = box;
        }
    }
    return Status::success();
}

}  // namespace

uint32_t aabbTreeLevelCount(uint32_t triangleCount) {
    uint32_t levels = 1;
    for (uint64_t size = triangleCount; size > 1; size = (size + 1) / 2) ++levels;
    return levels;
}

uint64_t aabbTreeNodeCount(uint64_t triangleCount) {
    uint64_t nodes = triangleCount;
    for (uint64_t size = triangleCount; size > 1;) {
        size = (size + 1) / 2;
        nodes += size;
    }
    return nodes;
}

gpu::AabbTreeGpu AabbTree::gpuHeader(uint32_t nodeOffset, uint32_t leafOffset,
                                     const gpu::VertexSourceGpu& vertices) const {
    gpu::AabbTreeGpu header{};
    header.nodeOffset = nodeOffset;
    header.leafOffset = leafOffset;
    header.levelCount = levelCount;
    header.triangleCount = triangleCount;
    header.vertices = vertices;
    for (uint32_t level = 0; level <= levelCount; ++level) header.levelStart[level] = levelStart[level];
    return header;
}

Result<AabbTree> buildAabbTree(const MeshData& mesh) {
    const std::string name = mesh.name.empty() ? std::string("(unnamed)") : mesh.name;
    if (mesh.indices.size() % 3 != 0) {
        return makeError(ErrorCode::InvalidMesh, "mesh '" + name + "': index count " +
                                                     std::to_string(mesh.indices.size()) + " is not a multiple of 3");
    }
    size_t triangles = mesh.triangleCount();
    if (triangles == 0) return makeError(ErrorCode::InvalidMesh, "mesh '" + name + "' has no triangles");
    if (triangles > (size_t(1) << (gpu::kAabbMaxLevels - 1))) {
        return makeError(ErrorCode::InvalidMesh, "mesh '" + name + "' has more triangles than an aabb tree holds (2^31)");
    }
    for (size_t i = 0; i < mesh.indices.size(); ++i) {
        if (mesh.indices[i] >= mesh.positions.size()) {
            return makeError(ErrorCode::InvalidMesh, "mesh '" + name + "': index " + std::to_string(mesh.indices[i]) +
                                                         " of triangle " + std::to_string(i / 3) + " is out of range (" +
                                                         std::to_string(mesh.positions.size()) + " vertices)");
        }
    }

    AabbTree tree;
    tree.triangleCount = uint32_t(triangles);
    tree.levelCount = aabbTreeLevelCount(tree.triangleCount);
    std::vector<uint32_t> sizes(tree.levelCount);
    sizes[tree.levelCount - 1] = tree.triangleCount;
    for (uint32_t level = tree.levelCount - 1; level-- > 0;) sizes[level] = (sizes[level + 1] + 1) / 2;
    tree.levelStart.assign(tree.levelCount + 1, 0);
    for (uint32_t level = 0; level < tree.levelCount; ++level) tree.levelStart[level + 1] = tree.levelStart[level] + sizes[level];
    tree.nodes.resize(tree.levelStart[tree.levelCount]);

    std::vector<Centroid> items(triangles);
    for (uint32_t t = 0; t < tree.triangleCount; ++t) {
        const glm::vec3& a = mesh.positions[mesh.indices[3 * t]];
        const glm::vec3& b = mesh.positions[mesh.indices[3 * t + 1]];
        const glm::vec3& c = mesh.positions[mesh.indices[3 * t + 2]];
        if (!isFinite(a) || !isFinite(b) || !isFinite(c)) {
            return makeError(ErrorCode::InvalidMesh,
                             "mesh '" + name + "': triangle " + std::to_string(t) + " has a non-finite vertex");
        }
        // In double: a float sum of three coordinates near FLT_MAX overflows to inf.
        items[t] = {glm::vec3((glm::dvec3(a) + glm::dvec3(b) + glm::dvec3(c)) / 3.0), t};
    }
    splitLeaves(items, 0, items.size(), tree.levelCount - 1);
    tree.leaves.resize(triangles);
    for (size_t i = 0; i < items.size(); ++i) {
        uint32_t t = items[i].triangle;
        tree.leaves[i] = glm::uvec4(mesh.indices[3 * t], mesh.indices[3 * t + 1], mesh.indices[3 * t + 2], t);
    }
    Status boxes = computeBoxes(tree, mesh.positions);
    if (!boxes.ok()) {
        boxes.message = "mesh '" + name + "': " + boxes.message;
        return boxes;
    }
    return tree;
}

Status refitAabbTree(AabbTree& tree, std::span<const glm::vec3> positions) {
    if (tree.levelCount == 0) return makeError(ErrorCode::InvalidArgument, "aabb tree refit: empty tree");
    return computeBoxes(tree, positions);
}

uint32_t aabbPaddedLevelSize(const AabbTree& tree, uint32_t level, uint32_t paddedLevels) {
    int real = gpu::aabbRealLevel(level, paddedLevels, tree.levelCount);
    return real < 0 ? 1u : tree.levelSize(uint32_t(real));
}

gpu::AabbNodeGpu aabbPaddedNode(const AabbTree& tree, uint32_t level, uint32_t paddedLevels, uint32_t index) {
    int real = gpu::aabbRealLevel(level, paddedLevels, tree.levelCount);
    return real < 0 ? tree.nodes[0] : tree.node(uint32_t(real), index);
}

}  // namespace vkc
