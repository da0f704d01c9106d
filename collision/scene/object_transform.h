// Object transforms in double precision: the checks Scene applies, the exact affine inverse,
// rebasing onto a local origin before a transform goes to the GPU in float, and outward rounding.
#pragma once

#include "vkcollide/mesh_checks.h"
#include "vkcollide/status.h"

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

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

// The nearest float at or below / at or above `x` (x itself when representable): boxes rounded
// to float this way still contain what they bounded.
float floatAtMost(double x);
float floatAtLeast(double x);

}  // namespace vkc
