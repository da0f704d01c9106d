// placedMeshBounds (vkcollide/broadphase.h).
#include "vkcollide/broadphase.h"

#include <glm/common.hpp>
#include <glm/mat4x4.hpp>

#include <cmath>

namespace vkc {

Aabb placedMeshBounds(const MeshData& mesh, const glm::dmat4& transform) {
    const glm::dmat4& m = transform;
    glm::dvec3 lo(INFINITY), hi(-INFINITY);
    for (const glm::vec3& p : mesh.positions) {
        glm::dvec3 w(m * glm::dvec4(glm::dvec3(p), 1.0));
        lo = glm::min(lo, w);
        hi = glm::max(hi, w);
    }
    Aabb box;
    for (int k = 0; k < 3; ++k) {
        box.min[k] = std::nextafter(float(lo[k]), -INFINITY);
        box.max[k] = std::nextafter(float(hi[k]), INFINITY);
    }
    return box;
}

}  // namespace vkc
