// Method `ebpi` (paper 5, Wang, Faure, Pai, "Adaptive Image-based Intersection Volume"): a closed
// mesh seen along one ray direction, in double precision, for the CPU reference of the error
// bound. In the ray frame the rays run along +z, so a ray's inside length is a sum of face depths.
#pragma once

#include "vkcollide/mesh.h"

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include <cstdint>
#include <vector>

namespace vkc {

// A closed, consistently oriented (counter-clockwise seen from outside) triangle mesh whose
// positions are in the ray frame: x, y on the image plane, z along the rays.
struct EbpiRayMesh {
    std::vector<glm::dvec3> positions;
    std::vector<uint32_t> indices;  // three per triangle

    size_t triangleCount() const { return indices.size() / 3; }
};

// The rigid rotation taking a direction to +z: rows u, v, d with u x v = d (orientation kept).
struct EbpiRotation {
    glm::dvec3 rows[3];
};

// The rotation for `direction` (any length > 0); the GPU views use the same rows.
EbpiRotation ebpiRotationTo(const glm::dvec3& direction);

// Object-space point `p` moved by `objectToLocal`, in double from the float matrix, in the order
// shaders_glsl/ebpi_ray_frame.glsl repeats.
glm::dvec3 ebpiLocalPoint(const glm::mat4& objectToLocal, const glm::vec3& p);

// Object-space point `p` moved by `objectToLocal` (ebpiLocalPoint) and rotated:
// the arithmetic, in this order, that shaders_glsl/ebpi_ray_frame.glsl repeats, so the GPU's
// ray-frame positions equal these bit for bit.
glm::dvec3 ebpiRayFramePoint(const glm::mat4& objectToLocal, const EbpiRotation& rotation, const glm::vec3& p);

// `mesh` placed by `objectToLocal` and rotated into the ray frame of `rotation`.
EbpiRayMesh toEbpiRayFrame(const MeshData& mesh, const glm::mat4& objectToLocal, const EbpiRotation& rotation);

// `mesh` rotated rigidly so that `direction` (any length > 0) becomes +z; orientation is kept, so
// outward normals stay outward.
EbpiRayMesh toEbpiRayFrame(const MeshData& mesh, const glm::dvec3& direction);

}  // namespace vkc
