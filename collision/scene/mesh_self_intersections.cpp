// Mesh self-intersection on the CPU; see mesh_self_intersections.h.
#include "collision/scene/mesh_self_intersections.h"

#include "collision/aabb_tree/aabb_tree.h"
#include "collision/aabb_tree/tri_tri.h"
#include "collision/scene/scene_impl.h"

#include <algorithm>
#include <array>

namespace vkc {

namespace {

bool boxesOverlap(const gpu::AabbNodeGpu& a, const gpu::AabbNodeGpu& b) {
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
           b.lo.z <= a.hi.z;
}

// Two leaves' triangles that share no corner position and meet.
bool leavesCross(const MeshData& mesh, const glm::uvec4& a, const glm::uvec4& b) {
    const std::array<glm::vec3, 3> p = {mesh.positions[a.x], mesh.positions[a.y], mesh.positions[a.z]};
    const std::array<glm::vec3, 3> q = {mesh.positions[b.x], mesh.positions[b.y], mesh.positions[b.z]};
    for (const glm::vec3& corner : p)
        if (std::find(q.begin(), q.end(), corner) != q.end()) return false;
    return triTriIntersect(p[0], p[1], p[2], q[0], q[1], q[2]);
}

}  // namespace

Result<bool> meshSelfIntersects(const MeshData& mesh) {
    auto built = buildAabbTree(mesh);
    if (!built) return built.status();
    const AabbTree& tree = built.value();
    // Node pairs (i <= j) of one level whose boxes overlap, down to the leaves; a node with itself
    // stands for the pairs inside it.
    struct NodePair {
        uint32_t level, i, j;
    };
    std::vector<NodePair> stack = {{0, 0, 0}};
    const uint32_t leafLevel = tree.levelCount - 1;
    while (!stack.empty()) {
        const NodePair n = stack.back();
        stack.pop_back();
        if (n.i != n.j && !boxesOverlap(tree.node(n.level, n.i), tree.node(n.level, n.j))) continue;
        if (n.level == leafLevel) {
            if (n.i != n.j && leavesCross(mesh, tree.leaves[n.i], tree.leaves[n.j])) return true;
            continue;
        }
        const uint32_t below = tree.levelSize(n.level + 1);
        for (uint32_t ci = 2 * n.i; ci < std::min(2 * n.i + 2, below); ++ci)
            for (uint32_t cj = 2 * n.j; cj < std::min(2 * n.j + 2, below); ++cj)
                if (n.i != n.j || ci <= cj) stack.push_back({n.level + 1, ci, cj});
    }
    return false;
}

std::optional<bool> SceneSelfIntersections::selfIntersects(MeshId id) {
    if (id >= meshes_.size() || !meshes_[id].cpuPositionsCurrent()) return std::nullopt;
    const SceneMesh& mesh = meshes_[id];
    auto known = verdicts_.find(id);
    if (known != verdicts_.end() && known->second.first == mesh.deformedGeneration) return known->second.second;
    auto verdict = meshSelfIntersects(mesh.data);
    if (!verdict) return std::nullopt;
    verdicts_[id] = {mesh.deformedGeneration, verdict.value()};
    return verdict.value();
}

}  // namespace vkc
