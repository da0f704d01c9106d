// View fitting of the stencil and consistent-pairs methods (paper 1, section 6.5: precision is one
// pixel of the view, so the view is as tight as the region where interference can happen: the
// overlap of the candidate pairs' world boxes). See orthographic_views.h for the invariants.
#include "collision/frames/orthographic_views.h"

#include <glm/mat4x4.hpp>
#include <glm/matrix.hpp>

#include <algorithm>
#include <cmath>

namespace vkc {

OrthographicViewFit fitOrthographicViews(std::span<const ObjectPair> candidates, std::span<const Aabb> worldBounds,
                               std::span<const uint32_t> drawObjects, uint32_t viewCount, uint32_t resolution,
                               float paddingPixels) {
    glm::vec3 roiMin(INFINITY), roiMax(-INFINITY);
    for (const ObjectPair& pair : candidates) {
        const Aabb& a = worldBounds[pair.a];
        const Aabb& b = worldBounds[pair.b];
        roiMin = glm::min(roiMin, glm::max(a.min, b.min));
        roiMax = glm::max(roiMax, glm::min(a.max, b.max));
    }
    glm::vec3 depthMin(INFINITY), depthMax(-INFINITY);
    for (uint32_t object : drawObjects) {
        depthMin = glm::min(depthMin, worldBounds[object].min);
        depthMax = glm::max(depthMax, worldBounds[object].max);
    }
    // Boxes that only touch give a flat region: give every axis a floor so the view stays invertible.
    const float sceneSize = std::max({depthMax.x - depthMin.x, depthMax.y - depthMin.y, depthMax.z - depthMin.z, 1e-6f});
    glm::vec3 extent = glm::max(roiMax - roiMin, glm::vec3(sceneSize * 1e-3f));
    const glm::vec3 pad = extent * (paddingPixels / float(resolution));
    roiMin -= pad;
    roiMax += pad;
    // Depth: every drawn object whole, a little beyond so no triangle touches the clip planes.
    const glm::vec3 depthPad = glm::vec3(sceneSize * 1e-3f);
    depthMin -= depthPad;
    depthMax += depthPad;

    OrthographicViewFit fit;
    static const int kAxes[3][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}};  // (u, v, ray) per view
    static const char* kNames[3] = {"z", "x", "y"};
    for (uint32_t view = 0; view < viewCount; ++view) {
        const int u = kAxes[view][0], v = kAxes[view][1], d = kAxes[view][2];
        const float width = roiMax[u] - roiMin[u], height = roiMax[v] - roiMin[v];
        const float depth = depthMax[d] - depthMin[d];
        glm::mat4 m(0.0f);  // m[column][row]
        m[u][0] = 2.0f / width;
        m[3][0] = -2.0f * roiMin[u] / width - 1.0f;
        m[v][1] = 2.0f / height;
        m[3][1] = -2.0f * roiMin[v] / height - 1.0f;
        m[d][2] = 1.0f / depth;
        m[3][2] = -depthMin[d] / depth;
        m[3][3] = 1.0f;
        fit.views.push_back({kNames[view], m, glm::inverse(m)});
        fit.pixelSize = std::max({fit.pixelSize, width / float(resolution), height / float(resolution)});
    }
    return fit;
}

}  // namespace vkc
