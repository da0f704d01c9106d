// View fitting shared by the stencil and consistent-pairs methods (paper 1, section 6.5: precision
// is one pixel of the view, so the view is as tight as the region where interference can happen).
#pragma once

#include "passes/shared/orthographic_view.h"
#include "vkcollide/broadphase.h"

#include <span>
#include <vector>

namespace vkc {

// The orthographic views of one frame: xy fitted to the union of the candidate pairs' box
// overlaps (padded), depth to the union of the drawn objects' boxes, so that no drawn triangle
// in front of an edge point is clipped away (it would break the count). Views look along z, x,
// y; each maps world axes to clip axes by a cyclic permutation with positive scales, so the
// determinant is positive and outward-facing counter-clockwise triangles stay front-facing.
struct OrthographicViewFit {
    std::vector<OrthographicView> views;
    float pixelSize = 0.0f;  // world units, the coarsest pixel side over the views
};

OrthographicViewFit fitOrthographicViews(std::span<const ObjectPair> candidates, std::span<const Aabb> worldBounds,
                               std::span<const uint32_t> drawObjects, uint32_t viewCount, uint32_t resolution,
                               float paddingPixels);

}  // namespace vkc
