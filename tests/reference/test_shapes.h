// Generated solids for the reference tests (exact float coordinates, outward CCW winding).
#pragma once

#include <vkcollide/mesh.h>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include <string>

namespace vkc::reference::test {

// Axis-aligned box [lo, hi], 8 vertices, 12 triangles, outward CCW.
inline MeshData makeBox(const glm::vec3& lo, const glm::vec3& hi, std::string name = "box") {
    MeshData m;
    m.name = std::move(name);
    for (int i = 0; i < 8; ++i)
        m.positions.emplace_back(i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z);
    // Each face as a quad (a, b, c, d) counter-clockwise seen from outside.
    const uint32_t quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& q : quads) m.indices.insert(m.indices.end(), {q[0], q[1], q[2], q[0], q[2], q[3]});
    return m;
}

inline MeshData makeUnitCube(std::string name = "unit cube") { return makeBox(glm::vec3(0), glm::vec3(1), std::move(name)); }

// Regular-ish tetrahedron with outward winding.
inline MeshData makeTetrahedron(std::string name = "tetrahedron") {
    MeshData m;
    m.name = std::move(name);
    m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    m.indices = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    return m;
}

inline glm::mat4 translation(float x, float y, float z) { return glm::translate(glm::mat4(1.0f), glm::vec3(x, y, z)); }

}  // namespace vkc::reference::test
