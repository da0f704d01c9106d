#include "collision/ebpi/ebpi_ray_mesh.h"

#include "shaders_glsl/shared/ebpi_directions.h"

namespace vkc {

EbpiRotation ebpiRotationTo(const glm::dvec3& direction) {
    EbpiRotation rotation;
    gpu::ebpiRotationRows(direction, rotation.rows[0], rotation.rows[1], rotation.rows[2]);
    return rotation;
}

glm::dvec3 ebpiLocalPoint(const glm::mat4& m, const glm::vec3& p) {
    const glm::dvec3 q(p);
    glm::dvec3 local;
    for (int k = 0; k < 3; ++k)
        local[k] = ((double(m[0][k]) * q.x + double(m[1][k]) * q.y) + double(m[2][k]) * q.z) + double(m[3][k]);
    return local;
}

glm::dvec3 ebpiRayFramePoint(const glm::mat4& m, const EbpiRotation& rotation, const glm::vec3& p) {
    const glm::dvec3 world = ebpiLocalPoint(m, p);
    glm::dvec3 out;
    for (int k = 0; k < 3; ++k) {
        const glm::dvec3& r = rotation.rows[k];
        out[k] = (r.x * world.x + r.y * world.y) + r.z * world.z;
    }
    return out;
}

EbpiRayMesh toEbpiRayFrame(const MeshData& mesh, const glm::mat4& objectToLocal, const EbpiRotation& rotation) {
    EbpiRayMesh out;
    out.positions.reserve(mesh.positions.size());
    for (const glm::vec3& p : mesh.positions) out.positions.push_back(ebpiRayFramePoint(objectToLocal, rotation, p));
    out.indices = mesh.indices;
    return out;
}

EbpiRayMesh toEbpiRayFrame(const MeshData& mesh, const glm::dvec3& direction) {
    return toEbpiRayFrame(mesh, glm::mat4(1.0f), ebpiRotationTo(direction));
}

}  // namespace vkc
