// CPU helpers of AabbTreeDetector; see aabb_tree_detector_support.h.
#include "collision/aabb_tree/aabb_tree_detector_support.h"

#include <glm/common.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>

#include <algorithm>
#include <cmath>

namespace vkc {

gpu::AabbNodeGpu positionsBox(const MeshData& mesh) {
    if (mesh.positions.empty()) return {};
    glm::vec3 lo = mesh.positions[0], hi = mesh.positions[0];
    for (const glm::vec3& p : mesh.positions) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    return {glm::vec4(lo, 0.0f), glm::vec4(hi, 0.0f)};
}

gpu::AabbNodeGpu slackBox(const SceneMesh& mesh, const AabbTree& tree, uint64_t builtGeneration) {
    if (mesh.deformedGeneration == builtGeneration && !mesh.deformedEveryFrame) return tree.nodes[0];
    if (mesh.ownsPositions()) return positionsBox(mesh.data);
    gpu::AabbNodeGpu box = tree.nodes[0];
    glm::vec4 extent = box.hi - box.lo;
    box.lo -= extent;
    box.hi += extent;
    return box;
}

}  // namespace vkc
