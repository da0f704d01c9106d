// Box, icosphere and torus generators. Winding is counter-clockwise seen from outside, which the
// tests check through checkMesh() (oriented, positive signed volume) rather than by inspection.
#include "collision/scene/generated_solids.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>
#include <unordered_map>

namespace vkc::solids {

MeshData box(glm::vec3 size) {
    assert(size.x > 0 && size.y > 0 && size.z > 0);
    const glm::vec3 h = size * 0.5f;
    MeshData mesh;
    mesh.name = "box";
    // Vertex i has x = bit 0, y = bit 1, z = bit 2 (0: -h, 1: +h).
    for (int i = 0; i < 8; ++i)
        mesh.positions.emplace_back(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z);
    // Two triangles per face, each quad listed counter-clockwise seen from outside.
    const uint32_t quads[6][4] = {
        {0, 4, 6, 2},  // -x
        {1, 3, 7, 5},  // +x
        {0, 1, 5, 4},  // -y
        {2, 6, 7, 3},  // +y
        {0, 2, 3, 1},  // -z
        {4, 5, 7, 6},  // +z
    };
    for (const auto& q : quads) mesh.indices.insert(mesh.indices.end(), {q[0], q[1], q[2], q[0], q[2], q[3]});
    return mesh;
}

MeshData sphere(float radius, uint32_t subdivisions) {
    assert(radius > 0 && subdivisions <= kMaxSphereSubdivisions);
    subdivisions = std::min(subdivisions, kMaxSphereSubdivisions);
    const float t = (1.0f + std::sqrt(5.0f)) * 0.5f;
    std::vector<glm::vec3> unit = {
        {-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
        {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1},
    };
    for (glm::vec3& p : unit) p = glm::normalize(p);
    std::vector<uint32_t> indices = {
        0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8,
        3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1,
    };
    for (uint32_t level = 0; level < subdivisions; ++level) {
        // Each edge's midpoint is made once and shared by both triangles, so the result stays welded.
        std::unordered_map<uint64_t, uint32_t> midpoints;
        midpoints.reserve(indices.size());
        auto midpoint = [&](uint32_t a, uint32_t b) {
            const uint64_t key = (uint64_t(std::min(a, b)) << 32) | std::max(a, b);
            auto [it, inserted] = midpoints.try_emplace(key, uint32_t(unit.size()));
            if (inserted) unit.push_back(glm::normalize(unit[a] + unit[b]));
            return it->second;
        };
        std::vector<uint32_t> next;
        next.reserve(indices.size() * 4);
        for (size_t i = 0; i < indices.size(); i += 3) {
            const uint32_t a = indices[i], b = indices[i + 1], c = indices[i + 2];
            const uint32_t ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
            next.insert(next.end(), {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca});
        }
        indices = std::move(next);
    }
    MeshData mesh;
    mesh.name = "sphere";
    mesh.positions.reserve(unit.size());
    for (const glm::vec3& p : unit) mesh.positions.push_back(p * radius);
    mesh.indices = std::move(indices);
    return mesh;
}

MeshData torus(float major, float minor, uint32_t segments) {
    assert(minor > 0 && major > minor && segments >= 3);
    const uint32_t n = std::max(segments, 3u);
    MeshData mesh;
    mesh.name = "torus";
    mesh.positions.reserve(size_t(n) * n);
    const float step = 2.0f * std::numbers::pi_v<float> / float(n);
    for (uint32_t i = 0; i < n; ++i) {      // around the ring (z axis)
        const float u = step * float(i);
        for (uint32_t j = 0; j < n; ++j) {  // around the tube
            const float v = step * float(j);
            const float ring = major + minor * std::cos(v);
            mesh.positions.emplace_back(ring * std::cos(u), ring * std::sin(u), minor * std::sin(v));
        }
    }
    auto vertex = [n](uint32_t i, uint32_t j) { return (i % n) * n + (j % n); };
    mesh.indices.reserve(size_t(n) * n * 6);
    for (uint32_t i = 0; i < n; ++i) {
        for (uint32_t j = 0; j < n; ++j) {
            // Quad (i,j)-(i+1,j)-(i+1,j+1)-(i,j+1) is counter-clockwise seen from outside because
            // d/du x d/dv points away from the tube's centre line.
            const uint32_t a = vertex(i, j), b = vertex(i + 1, j), c = vertex(i + 1, j + 1), d = vertex(i, j + 1);
            mesh.indices.insert(mesh.indices.end(), {a, b, c, a, c, d});
        }
    }
    return mesh;
}

}  // namespace vkc::solids
