// Object transforms in double precision: the checks Scene applies, the exact affine inverse,
// rebasing onto a local origin before a transform goes to the GPU in float, and outward rounding.
#pragma once

#include "vkcollide/mesh_checks.h"
#include "vkcollide/status.h"

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include <bit>
#include <cstdint>
#include <limits>
#include <string>

namespace vkc {

// InvalidArgument naming `objectName` unless `m` is a finite affine map whose linear part is a
// rotation times a uniform scale (no mirror, no shear) within the ranges of vkcollide/scene.h, and
// the placed mesh (`mesh`'s bounds) is at least kMinObjectSizeToDistance of its distance from the
// origin in size.
Status checkObjectTransform(const glm::dmat4& m, const std::string& objectName, const MeshCheckReport& mesh);

// Inverse of an affine map, computed as one (its last row is exactly (0, 0, 0, 1)).
glm::dmat4 affineInverse(const glm::dmat4& m);

// translate(-origin) * objectToWorld, composed in double and then rounded to float: GPU passes
// work near `origin` (a pair's or a region's centre), so their precision follows the size of what
// they look at, not its distance from the world origin (as renderers rebase the camera).
glm::mat4 objectToLocal(const glm::dmat4& objectToWorld, const glm::dvec3& origin);

// One float step from `f` (not NaN) down or up, on its bits: std::nextafter is a library call,
// and read-back boxes are rounded six times per object per frame (inline for the same reason).
inline float floatStepDown(float f) {
    if (f == 0.0f) return -std::numeric_limits<float>::denorm_min();
    const uint32_t bits = std::bit_cast<uint32_t>(f);
    return std::bit_cast<float>(f > 0.0f ? bits - 1u : bits + 1u);
}

inline float floatStepUp(float f) { return -floatStepDown(-f); }

// The nearest float at or below / at or above `x` (x itself when representable): boxes rounded
// to float this way still contain what they bounded.
inline float floatAtMost(double x) {
    const float f = float(x);
    return double(f) > x ? floatStepDown(f) : f;
}

inline float floatAtLeast(double x) {
    const float f = float(x);
    return double(f) < x ? floatStepUp(f) : f;
}

}  // namespace vkc
