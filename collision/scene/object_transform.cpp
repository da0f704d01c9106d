// Object transforms in double precision; see object_transform.h.
#include "collision/scene/object_transform.h"

#include "collision/frames/format_number.h"

#include "vkcollide/scene.h"

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>

#include <algorithm>
#include <cmath>

namespace vkc {
namespace {

// Columns of a similarity transform are orthogonal and of equal length; float matrices built from
// a unit quaternion meet this to about 1e-7, so 1e-4 tells rounding from a real shear.
constexpr double kSimilarityTolerance = 1e-4;

Status transformError(const std::string& objectName, const std::string& problem) {
    return makeError(ErrorCode::InvalidArgument, "object \"" + objectName + "\": transform " + problem);
}

}  // namespace

Status checkObjectTransform(const glm::dmat4& m, const std::string& objectName, const MeshCheckReport& mesh) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!std::isfinite(m[c][r])) return transformError(objectName, "has NaN or Inf entries");
    if (m[0][3] != 0.0 || m[1][3] != 0.0 || m[2][3] != 0.0 || m[3][3] != 1.0)
        return transformError(objectName, "is not affine (its last row must be 0, 0, 0, 1)");
    const glm::dmat3 linear(m);
    const double determinant = glm::determinant(linear);
    if (!(determinant > 0.0))
        return transformError(objectName, determinant < 0.0 ? "mirrors (negative determinant); image-space methods "
                                                              "need outward-facing triangles, so mirrors are not supported"
                                                            : "is singular");
    // A similarity's Gram matrix is its scale squared times the identity, so the scale comes from
    // the Gram matrix's trace: the determinant's cube root cost more than the rest of this check,
    // which a host pays per object per frame.
    const glm::dmat3 gram = glm::transpose(linear) * linear;
    const double scaleSquared = (gram[0][0] + gram[1][1] + gram[2][2]) / 3.0;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r)
            if (std::abs(gram[c][r] - (c == r ? scaleSquared : 0.0)) > kSimilarityTolerance * scaleSquared)
                return transformError(objectName, "is not a rotation with uniform scale (it shears or scales "
                                                  "non-uniformly), which vkcollide does not support");
    const double scale = std::sqrt(scaleSquared);
    // Allow the scale's rounding at the limits themselves, up to that of a rotation built in float
    // (about 1e-7 relative).
    if (scale < kMinObjectScale * (1.0 - 1e-6) || scale > kMaxObjectScale * (1.0 + 1e-6))
        return transformError(objectName, "scales by " + formatNumber(scale) + ", outside the supported range [" +
                                              formatNumber(kMinObjectScale) + ", " + formatNumber(kMaxObjectScale) + "]");
    const glm::dvec3 translation(m[3]);
    if (std::abs(translation.x) > kMaxObjectTranslation || std::abs(translation.y) > kMaxObjectTranslation ||
        std::abs(translation.z) > kMaxObjectTranslation)
        return transformError(objectName, "translates beyond the supported " + formatNumber(kMaxObjectTranslation) +
                                              " units from the origin");
    // World boxes are float: an object smaller than a few float steps at its place shrinks to a
    // point there, and the volume each method looks at (the boxes' overlap) no longer shows it.
    const glm::dvec3 lo(mesh.boundsMin), hi(mesh.boundsMax);
    const double size = scale * std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
    const glm::dvec3 farCorner = glm::max(glm::abs(lo), glm::abs(hi));
    const double distance = std::max({std::abs(translation.x), std::abs(translation.y), std::abs(translation.z)}) +
                            scale * glm::length(farCorner);
    if (size < kMinObjectSizeToDistance * distance)
        return transformError(objectName, "places a mesh of size " + formatNumber(size) + " up to " +
                                              formatNumber(distance) + " from the origin: below the supported " +
                                              formatNumber(kMinObjectSizeToDistance) +
                                              " of its distance, float world coordinates cannot resolve it "
                                              "(move the world origin nearer, or scale the scene up)");
    return Status::success();
}

glm::dmat4 affineInverse(const glm::dmat4& m) {
    const glm::dmat3 inverseLinear = glm::inverse(glm::dmat3(m));
    glm::dmat4 inverse(inverseLinear);
    inverse[3] = glm::dvec4(-(inverseLinear * glm::dvec3(m[3])), 1.0);
    return inverse;
}

glm::mat4 objectToLocal(const glm::dmat4& objectToWorld, const glm::dvec3& origin) {
    glm::dmat4 local = objectToWorld;
    local[3] -= glm::dvec4(origin, 0.0);
    return glm::mat4(local);
}

}  // namespace vkc
