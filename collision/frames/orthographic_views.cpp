// View fitting of the stencil and consistent-pairs methods on the host: the region reduced over
// the candidate pairs and drawn objects, then shaders_glsl/shared/orthographic_fit.h (the formulas
// stencil's frame setup runs on the GPU). See orthographic_views.h.
#include "collision/frames/orthographic_views.h"

#include "shaders_glsl/shared/orthographic_fit.h"

#include <glm/common.hpp>

#include <algorithm>
#include <cmath>

namespace vkc {

OrthographicViewFit fitOrthographicViews(std::span<const ObjectPair> candidates, std::span<const Aabb> worldBounds,
                               std::span<const uint32_t> drawObjects, uint32_t viewCount, uint32_t resolution,
                               float paddingPixels) {
    gpu::OrthographicRegion region = {glm::vec3(INFINITY), glm::vec3(-INFINITY), glm::vec3(INFINITY),
                                      glm::vec3(-INFINITY)};
    for (const ObjectPair& pair : candidates) {
        const Aabb& a = worldBounds[pair.a];
        const Aabb& b = worldBounds[pair.b];
        region.roiMin = glm::min(region.roiMin, glm::max(a.min, b.min));
        region.roiMax = glm::max(region.roiMax, glm::min(a.max, b.max));
    }
    for (uint32_t object : drawObjects) {
        region.depthMin = glm::min(region.depthMin, worldBounds[object].min);
        region.depthMax = glm::max(region.depthMax, worldBounds[object].max);
    }
    region = gpu::padOrthographicRegion(region, paddingPixels, resolution);

    OrthographicViewFit fit;
    static const char* kNames[3] = {"z", "x", "y"};
    for (uint32_t view = 0; view < viewCount; ++view) {
        const gpu::OrthographicViewGpu v = gpu::orthographicView(region, view, resolution);
        fit.views.push_back({kNames[view], v.worldToClip, v.clipToWorld});
        fit.pixelSize = std::max(fit.pixelSize, v.pixelSize);
    }
    return fit;
}

}  // namespace vkc
