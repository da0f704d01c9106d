// CPU helpers of AabbTreeDetector; see aabb_tree_detector_support.h.
#include "collision/aabb_tree_detector_support.h"

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
    if (mesh.deformedGeneration == builtGeneration) return tree.nodes[0];
    if (mesh.ownsPositions()) return positionsBox(mesh.data);
    gpu::AabbNodeGpu box = tree.nodes[0];
    glm::vec4 extent = box.hi - box.lo;
    box.lo -= extent;
    box.hi += extent;
    return box;
}

std::vector<ObjectPair> cpuOverlappingObjectPairs(const SceneImpl& scene) {
    std::vector<gpu::AabbNodeGpu> meshBoxes;
    for (const SceneMesh& mesh : scene.meshes) meshBoxes.push_back(positionsBox(mesh.data));
    const size_t n = scene.objects.size();
    std::vector<glm::dvec3> lo(n), hi(n);
    for (size_t i = 0; i < n; ++i) {
        const gpu::AabbNodeGpu& box = meshBoxes[scene.objects[i].mesh];
        const glm::dmat4& m = scene.objects[i].objectToWorld;
        lo[i] = glm::dvec3(INFINITY);
        hi[i] = glm::dvec3(-INFINITY);
        for (int corner = 0; corner < 8; ++corner) {
            glm::dvec3 p((corner & 1) ? box.hi.x : box.lo.x, (corner & 2) ? box.hi.y : box.lo.y,
                         (corner & 4) ? box.hi.z : box.lo.z);
            glm::dvec3 w = glm::dvec3(m * glm::dvec4(p, 1.0));
            lo[i] = glm::min(lo[i], w);
            hi[i] = glm::max(hi[i], w);
        }
        // Padding relative to the box's own size, not its distance from the origin: the boxes are
        // computed in double, so far-away objects need no more of it.
        const glm::dvec3 size = hi[i] - lo[i];
        const glm::dvec3 pad(1e-5 * std::max(size.x, std::max(size.y, size.z)));
        lo[i] -= pad;
        hi[i] += pad;
    }
    std::vector<ObjectPair> pairs;
    for (uint32_t a = 0; a < n; ++a)
        for (uint32_t b = a + 1; b < n; ++b)
            if (glm::all(glm::lessThanEqual(lo[a], hi[b])) && glm::all(glm::lessThanEqual(lo[b], hi[a])))
                pairs.push_back({a, b});
    return pairs;
}

}  // namespace vkc
