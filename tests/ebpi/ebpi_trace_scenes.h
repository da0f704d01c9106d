// Meshes and rays of the ebpi casting tests: a cube and an octahedron with small-integer
// coordinates, and rays aimed exactly through their faces, shared edges and vertices (every
// coordinate and product exact in float and double); random rays through placed shared meshes.
#pragma once

#include "tests/ebpi/ebpi_trace_oracle.h"

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include <random>
#include <string>

namespace vkc::ebpi_test {

// Convex solid with its triangles turned counter-clockwise seen from outside (from the centroid).
inline MeshData convexMesh(const char* name, std::vector<glm::vec3> positions, std::vector<uint32_t> indices) {
    glm::vec3 centre(0.0f);
    for (const glm::vec3& p : positions) centre += p / float(positions.size());
    for (size_t t = 0; t < indices.size() / 3; ++t) {
        const glm::vec3 a = positions[indices[3 * t]], b = positions[indices[3 * t + 1]],
                        c = positions[indices[3 * t + 2]];
        if (glm::dot(glm::cross(b - a, c - a), (a + b + c) / 3.0f - centre) < 0)
            std::swap(indices[3 * t + 1], indices[3 * t + 2]);
    }
    return {name, std::move(positions), std::move(indices)};
}

// [-1, 1]^3, two triangles per face (the diagonals are shared edges a ray can hit).
inline MeshData cubeMesh() {
    std::vector<glm::vec3> p;
    for (int i = 0; i < 8; ++i) p.emplace_back(i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : -1.0f, i & 4 ? 1.0f : -1.0f);
    return convexMesh("cube", p, {0, 1, 3, 0, 3, 2, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
                                  2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 3, 7, 1, 7, 5});
}

// Vertices at +-1 on the axes: four faces meet at each vertex.
inline MeshData octahedronMesh() {
    std::vector<glm::vec3> p = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    std::vector<uint32_t> indices;
    for (uint32_t x : {0u, 1u})
        for (uint32_t y : {2u, 3u})
            for (uint32_t z : {4u, 5u}) indices.insert(indices.end(), {x, y, z});
    return convexMesh("octahedron", p, indices);
}

inline gpu::EbpiRayGpu makeRay(glm::vec3 origin, glm::vec3 direction, float tMax, uint32_t a, uint32_t b) {
    gpu::EbpiRayGpu ray{};
    ray.origin = glm::vec4(origin, 0.0f);
    ray.direction = glm::vec4(direction, tMax);
    ray.objectA = a;
    ray.objectB = b;
    return ray;
}

// Rays through a grid of points with half-integer coordinates (faces, edges, diagonals and
// vertices of both solids, and lines grazing the cube's faces), along axis, face-diagonal,
// space-diagonal and skew directions; each starts 4 direction lengths before its point and ends
// 4 after, outside both solids.
inline std::vector<gpu::EbpiRayGpu> exactEdgeRays(uint32_t objectA, uint32_t objectB) {
    const glm::vec3 directions[] = {{0, 0, 1}, {1, 0, 0},  {0, -1, 0}, {0, 1, 1},
                                    {1, 1, 1}, {-1, 1, 1}, {1, 2, 4},  {0.5f, -1, 2}};
    std::vector<gpu::EbpiRayGpu> rays;
    for (const glm::vec3& d : directions)
        for (int i = -3; i <= 3; ++i)
            for (int j = -3; j <= 3; ++j) {
                // Points on the plane through the origin spanned by two axes not along d's largest component.
                const int axis = std::abs(d.z) >= std::abs(d.x) && std::abs(d.z) >= std::abs(d.y) ? 2
                                 : std::abs(d.y) >= std::abs(d.x)                                 ? 1
                                                                                                  : 0;
                glm::vec3 p(0.0f);
                p[(axis + 1) % 3] = 0.5f * float(i);
                p[(axis + 2) % 3] = 0.5f * float(j);
                rays.push_back(makeRay(p - 4.0f * d, d, 8.0f, objectA, objectB));
            }
    return rays;
}

// Random rays through the box [lo, hi]: from a random point of a sphere around it towards a
// random point inside, long enough to leave it.
inline std::vector<gpu::EbpiRayGpu> randomRays(uint32_t count, glm::vec3 lo, glm::vec3 hi, uint32_t objectA,
                                               uint32_t objectB, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::normal_distribution<float> normal;
    const glm::vec3 centre = (lo + hi) * 0.5f;
    const float radius = glm::length(hi - lo);
    std::vector<gpu::EbpiRayGpu> rays;
    for (uint32_t r = 0; r < count; ++r) {
        const glm::vec3 target = lo + (hi - lo) * glm::vec3(unit(rng), unit(rng), unit(rng));
        const glm::vec3 origin = centre + radius * glm::normalize(glm::vec3(normal(rng), normal(rng), normal(rng)));
        rays.push_back(makeRay(origin, target - origin, 4.0f, objectA, objectB));
    }
    return rays;
}

// Seeded random rotation and translation.
inline glm::mat4 randomPose(std::mt19937& rng, float translation) {
    std::uniform_real_distribution<float> angle(0.0f, 6.2831853f), shift(-translation, translation);
    glm::mat4 m = glm::translate(glm::mat4(1.0f), glm::vec3(shift(rng), shift(rng), shift(rng)));
    m = glm::rotate(m, angle(rng), glm::normalize(glm::vec3(0.3f, 1.0f, -0.5f)));
    return glm::rotate(m, angle(rng), glm::vec3(1.0f, 0.0f, 0.0f));
}

// Per object, the hits sorted by t (an entry before an exit at equal t: a ray touching a
// solid at one point enters and leaves there) must alternate enter, leave, ... and balance.
inline std::string unbalancedObject(std::vector<OracleHit> hits) {
    std::stable_sort(hits.begin(), hits.end(), [](const OracleHit& x, const OracleHit& y) {
        return std::tie(x.object, x.t) < std::tie(y.object, y.t) ||
               (x.object == y.object && x.t == y.t && x.entering && !y.entering);
    });
    for (size_t i = 0; i < hits.size(); ++i) {
        const bool firstOfObject = i == 0 || hits[i - 1].object != hits[i].object;
        const bool expectEntering = firstOfObject || !hits[i - 1].entering;
        const bool lastOfObject = i + 1 == hits.size() || hits[i + 1].object != hits[i].object;
        if (hits[i].entering != expectEntering || (lastOfObject && hits[i].entering))
            return "object " + std::to_string(hits[i].object) + ": hit " + std::to_string(i) + " (triangle " +
                   std::to_string(hits[i].triangle) + ") breaks enter/leave alternation";
    }
    return {};
}

}  // namespace vkc::ebpi_test
