// The views of one ebpi pair; see ebpi_pair_views.h.
#include "collision/ebpi/ebpi_pair_views.h"

#include "shaders_glsl/shared/ebpi_pair_setup.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>

namespace vkc {

EbpiEdgeRegion ebpiGrownRegion(const glm::dvec3& lo, const glm::dvec3& hi, const EbpiRotation& rotation) {
    const double grow = gpu::ebpiWidening(lo, hi);
    return {rotation, lo - grow, hi + grow};
}

EbpiBox ebpiObjectBox(const Aabb& candidate, const MeshData* placed, const glm::dmat4& objectToWorld) {
    EbpiBox box{glm::dvec3(candidate.min), glm::dvec3(candidate.max)};
    if (!placed || placed->positions.empty()) return box;
    glm::dvec3 lo(INFINITY), hi(-INFINITY);
    for (const glm::vec3& p : placed->positions) {
        lo = glm::min(lo, glm::dvec3(p));
        hi = glm::max(hi, glm::dvec3(p));
    }
    const glm::dmat4& m = objectToWorld;
    const gpu::EbpiBoxGpu tight = gpu::ebpiTightenedBox(
        {box.lo, box.hi}, glm::dvec4(m[0][0], m[1][0], m[2][0], m[3][0]), glm::dvec4(m[0][1], m[1][1], m[2][1], m[3][1]),
        glm::dvec4(m[0][2], m[1][2], m[2][2], m[3][2]), lo, hi);
    return {tight.lo, tight.hi};
}

std::optional<EbpiPairViews> ebpiPairViews(const EbpiBox& boxA, const EbpiBox& boxB, const glm::dmat3& axes,
                                           uint32_t resolution) {
    const gpu::EbpiPairBoxesGpu boxes = gpu::ebpiPairBoxes({boxA.lo, boxA.hi}, {boxB.lo, boxB.hi});
    if (!boxes.overlaps) return std::nullopt;
    EbpiPairViews out;
    out.origin = boxes.origin;
    out.overlap = {boxes.overlapLo, boxes.overlapHi};
    out.both = {boxes.bothLo, boxes.bothHi};
    out.extent = boxes.extent;
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
