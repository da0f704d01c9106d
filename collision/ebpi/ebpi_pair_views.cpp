// The views of one ebpi pair; see ebpi_pair_views.h.
#include "collision/ebpi/ebpi_pair_views.h"

#include "shaders_glsl/shared/ebpi_view_fit.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>

namespace vkc {

namespace {

glm::dvec3 corner(const EbpiBox& box, int k) {
    return {k & 1 ? box.hi.x : box.lo.x, k & 2 ? box.hi.y : box.lo.y, k & 4 ? box.hi.z : box.lo.z};
}

}  // namespace

EbpiEdgeRegion ebpiGrownRegion(const glm::dvec3& lo, const glm::dvec3& hi, const EbpiRotation& rotation) {
    const double grow = gpu::ebpiWidening(lo, hi);
    return {rotation, lo - grow, hi + grow};
}

EbpiBox ebpiObjectBox(const Aabb& candidate, const MeshData* placed, const glm::dmat4& objectToWorld) {
    EbpiBox box{glm::dvec3(candidate.min), glm::dvec3(candidate.max)};
    if (!placed || placed->positions.empty()) return box;
    EbpiBox local{glm::dvec3(INFINITY), glm::dvec3(-INFINITY)};
    for (const glm::vec3& p : placed->positions) {
        local.lo = glm::min(local.lo, glm::dvec3(p));
        local.hi = glm::max(local.hi, glm::dvec3(p));
    }
    EbpiBox world{glm::dvec3(INFINITY), glm::dvec3(-INFINITY)};
    for (int k = 0; k < 8; ++k) {
        const glm::dvec3 p(objectToWorld * glm::dvec4(corner(local, k), 1.0));
        world.lo = glm::min(world.lo, p);
        world.hi = glm::max(world.hi, p);
    }
    return {glm::max(box.lo, world.lo), glm::min(box.hi, world.hi)};
}

std::optional<EbpiPairViews> ebpiPairViews(const EbpiBox& boxA, const EbpiBox& boxB, const glm::dmat3& axes,
                                           uint32_t resolution) {
    const EbpiBox overlap{glm::max(boxA.lo, boxB.lo), glm::min(boxA.hi, boxB.hi)};
    for (int k = 0; k < 3; ++k)
        if (!(overlap.lo[k] < overlap.hi[k])) return std::nullopt;
    EbpiPairViews out;
    out.origin = 0.5 * (overlap.lo + overlap.hi);
    out.overlap = {overlap.lo - out.origin, overlap.hi - out.origin};
    out.both = {glm::min(boxA.lo, boxB.lo) - out.origin, glm::max(boxA.hi, boxB.hi) - out.origin};
    // Whatever the direction, a window's diagonal is within sqrt 2 of the overlap's and its depth
    // range within the union's, both grown by their small margins.
    out.extent = 1.5 * glm::length(out.both.hi - out.both.lo);
    for (int axis = 0; axis < 3; ++axis) {
        EbpiPairView& v = out.views[axis];
        v.direction = axes[axis];
        v.rotation = ebpiRotationTo(v.direction);
        const gpu::EbpiViewFit fit = gpu::ebpiFitView(v.rotation.rows[0], v.rotation.rows[1], v.rotation.rows[2],
                                                      out.overlap.lo, out.overlap.hi, out.both.lo, out.both.hi, resolution);
        v.window.origin = glm::dvec2(fit.originX, fit.originY);
        v.window.pixelSize = glm::dvec2(fit.pixel);
        v.window.width = fit.width;
        v.window.height = fit.height;
        v.zMin = fit.zMin;
        v.zMax = fit.zMax;
        v.region = ebpiGrownRegion(out.overlap.lo, out.overlap.hi, v.rotation);
    }
    return out;
}

}  // namespace vkc
