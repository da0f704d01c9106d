// The views of one ebpi pair; see ebpi_pair_views.h.
#include "collision/ebpi/ebpi_pair_views.h"

#include "collision/ebpi/ebpi_directions.h"

#include <algorithm>
#include <cmath>

namespace vkc {

namespace {

// Cube-map texels per face side of the normal histogram: 6 x 8^2 directions steer the choice.
constexpr uint32_t kHistogramFaceSize = 8;
// Windows and depth ranges grow by this fraction of their size (and a float's worth of the
// coordinates), so that no surface lies on the window's border or a ray's ends.
constexpr double kMargin = 1e-3;

struct Range {
    glm::dvec3 lo{INFINITY}, hi{-INFINITY};
};

glm::dvec3 corner(const EbpiBox& box, int k) {
    return {k & 1 ? box.hi.x : box.lo.x, k & 2 ? box.hi.y : box.lo.y, k & 4 ? box.hi.z : box.lo.z};
}

// The corners of `box` relative to `origin`, rotated.
Range rotatedBox(const EbpiBox& box, const glm::dvec3& origin, const EbpiRotation& rotation) {
    Range r;
    for (int k = 0; k < 8; ++k) {
        const glm::dvec3 p = corner(box, k) - origin;
        const glm::dvec3 q(glm::dot(rotation.rows[0], p), glm::dot(rotation.rows[1], p), glm::dot(rotation.rows[2], p));
        r.lo = glm::min(r.lo, q);
        r.hi = glm::max(r.hi, q);
    }
    return r;
}

double widening(const glm::dvec3& lo, const glm::dvec3& hi) {
    const double size = glm::length(hi - lo);
    const double magnitude = std::max(glm::length(lo), glm::length(hi));
    return kMargin * size + 1e-6 * magnitude;
}

}  // namespace

EbpiEdgeRegion ebpiGrownRegion(const glm::dvec3& lo, const glm::dvec3& hi, const EbpiRotation& rotation) {
    const double grow = widening(lo, hi);
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
    const EbpiBox both{glm::min(boxA.lo, boxB.lo), glm::max(boxA.hi, boxB.hi)};
    EbpiPairViews out;
    out.origin = 0.5 * (overlap.lo + overlap.hi);
    out.extent = glm::length(overlap.hi - overlap.lo);
    for (int axis = 0; axis < 3; ++axis) {
        EbpiPairView& v = out.views[axis];
        v.direction = glm::normalize(axes[axis]);
        v.rotation = ebpiRotationTo(v.direction);
        v.region = ebpiGrownRegion(overlap.lo - out.origin, overlap.hi - out.origin, v.rotation);
        Range window = rotatedBox(overlap, out.origin, v.rotation);
        const double grow = widening(window.lo, window.hi);
        window.lo -= grow;
        window.hi += grow;
        const glm::dvec2 size(window.hi - window.lo);
        const double pixel = std::max(size.x, size.y) / resolution;
        v.window.width = std::clamp(uint32_t(std::ceil(size.x / pixel)), 1u, resolution);
        v.window.height = std::clamp(uint32_t(std::ceil(size.y / pixel)), 1u, resolution);
        v.window.pixelSize = glm::dvec2(pixel);
        // Centred: the pixels cover the widened window whole.
        const glm::dvec2 covered = glm::dvec2(v.window.width, v.window.height) * pixel;
        v.window.origin = glm::dvec2(window.lo) - 0.5 * (covered - size);
        Range depth = rotatedBox(both, out.origin, v.rotation);
        const double deepen = widening(depth.lo, depth.hi);
        v.zMin = depth.lo.z - deepen;
        v.zMax = depth.hi.z + deepen;
    }
    return out;
}

glm::dmat3 ebpiPairDirections(const MeshData& meshA, const glm::dmat4& objectToWorldA, const MeshData& meshB,
                              const glm::dmat4& objectToWorldB, const glm::dmat3& start) {
    EbpiNormalHistogram histogram = ebpiEmptyNormalHistogram(kHistogramFaceSize);
    ebpiAddToNormalHistogram(histogram, meshA, glm::dmat3(objectToWorldA));
    ebpiAddToNormalHistogram(histogram, meshB, glm::dmat3(objectToWorldB));
    // Eq. 12's minimum does not move when every texel is scaled alike; the optimiser's stopping
    // rules are absolute, so the histogram is normalised (a pair at 1/1000 scale gets the same axes).
    double total = 0.0;
    for (const glm::dvec3& texel : histogram.texels) total += glm::length(texel);
    if (total > 0.0)
        for (glm::dvec3& texel : histogram.texels) texel /= total;
    return ebpiOptimizeDirections(histogram, start);
}

}  // namespace vkc
