// Closed meshes for the ebpi tests, in the ray frame or rotated into it: shapes with ridges,
// valleys, short edges, vertices anywhere in a tile and steep (exactly vertical) walls.
#pragma once

#include "collision/ebpi/ebpi_ray_mesh.h"
#include "collision/ebpi/ebpi_window.h"
#include "vkcollide/mesh.h"

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <cmath>
#include <limits>
#include <random>

namespace vkc::ebpi_test {

// Signed volume by the divergence theorem: positive for an outward-oriented closed mesh.
inline double meshVolume(const EbpiRayMesh& mesh) {
    double six = 0;
    for (size_t t = 0; t < mesh.triangleCount(); ++t)
        six += glm::dot(mesh.positions[mesh.indices[3 * t]],
                        glm::cross(mesh.positions[mesh.indices[3 * t + 1]], mesh.positions[mesh.indices[3 * t + 2]]));
    return six / 6;
}

// A convex solid's triangles turned to face away from its vertex centroid.
inline EbpiRayMesh orientedConvex(std::vector<glm::dvec3> positions, std::vector<uint32_t> indices) {
    glm::dvec3 centre(0);
    for (const glm::dvec3& p : positions) centre += p / double(positions.size());
    for (size_t t = 0; t < indices.size() / 3; ++t) {
        const glm::dvec3 a = positions[indices[3 * t]], b = positions[indices[3 * t + 1]],
                         c = positions[indices[3 * t + 2]];
        if (glm::dot(glm::cross(b - a, c - a), (a + b + c) / 3.0 - centre) < 0)
            std::swap(indices[3 * t + 1], indices[3 * t + 2]);
    }
    return {std::move(positions), std::move(indices)};
}

// Axis-aligned box [lo, hi] in the ray frame: its sides are exactly steep.
inline EbpiRayMesh alignedBox(glm::dvec3 lo, glm::dvec3 hi) {
    std::vector<glm::dvec3> p;
    for (int i = 0; i < 8; ++i) p.emplace_back(i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z);
    return orientedConvex(p, {0, 1, 3, 0, 3, 2, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
                              2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 3, 7, 1, 7, 5});
}

// A roof along y: cross-section (-1, 0), (1, 0), (0, height) in x, z, from y = -len to len.
// Its ridge at x = 0 is symmetric (face slopes +height and -height), its gables are steep.
inline EbpiRayMesh symmetricRidge(double height, double len) {
    std::vector<glm::dvec3> p{{-1, -len, 0}, {1, -len, 0}, {0, -len, height},
                              {-1, len, 0},  {1, len, 0},  {0, len, height}};
    return orientedConvex(p, {0, 1, 2, 3, 4, 5, 0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4, 2, 0, 3, 2, 3, 5});
}

// Every vertex moved radially (from the origin) by a factor in [1 - amount, 1 + amount]: ridges
// and valleys everywhere; star-shaped solids stay simple.
inline MeshData perturbedRadially(MeshData mesh, double amount, std::mt19937& rng) {
    std::uniform_real_distribution<double> factor(1 - amount, 1 + amount);
    for (glm::vec3& p : mesh.positions) p *= float(factor(rng));
    return mesh;
}

// A prism over a random star polygon of `sides` corners, with exactly vertical walls in the ray
// frame, random rim heights (the walls' depth varies) and caps fanned to a raised or sunk centre.
inline EbpiRayMesh wallPrism(uint32_t sides, std::mt19937& rng) {
    std::uniform_real_distribution<double> radius(0.5, 1.2), top(1.0, 1.6), bottom(-0.6, 0.0);
    std::vector<glm::dvec3> p;
    const double turn = std::uniform_real_distribution<double>(0, 6.283)(rng);
    for (uint32_t k = 0; k < sides; ++k) {
        const double angle = turn + 6.283185307179586 * k / sides;
        const double r = radius(rng);
        p.emplace_back(r * std::cos(angle), r * std::sin(angle), bottom(rng));
        p.emplace_back(p.back().x, p.back().y, top(rng));
    }
    const uint32_t topCentre = uint32_t(p.size()), bottomCentre = topCentre + 1;
    p.emplace_back(0.02, -0.01, std::uniform_real_distribution<double>(0.6, 2.5)(rng));
    p.emplace_back(-0.01, 0.03, std::uniform_real_distribution<double>(-1.5, 0.3)(rng));
    std::vector<uint32_t> idx;
    for (uint32_t k = 0; k < sides; ++k) {
        const uint32_t b0 = 2 * k, t0 = b0 + 1, b1 = 2 * ((k + 1) % sides), t1 = b1 + 1;
        // The polygon runs counter-clockwise, so these face outward, up and down.
        idx.insert(idx.end(), {b0, b1, t1, b0, t1, t0, topCentre, t0, t1, bottomCentre, b1, b0});
    }
    return {std::move(p), std::move(idx)};
}

// `part` added to `scene` as another closed component.
inline void append(EbpiRayMesh& scene, const EbpiRayMesh& part) {
    const uint32_t base = uint32_t(scene.positions.size());
    scene.positions.insert(scene.positions.end(), part.positions.begin(), part.positions.end());
    for (uint32_t i : part.indices) scene.indices.push_back(base + i);
}

// A window of `pixels` x `pixels` around the mesh's projection with an odd margin, so that no
// tile centre falls on a projected edge by construction.
inline EbpiWindow windowAround(const EbpiRayMesh& mesh, uint32_t pixels) {
    glm::dvec2 lo(std::numeric_limits<double>::max()), hi(-std::numeric_limits<double>::max());
    for (const glm::dvec3& p : mesh.positions) {
        lo = glm::min(lo, glm::dvec2(p));
        hi = glm::max(hi, glm::dvec2(p));
    }
    const glm::dvec2 margin = (hi - lo) * 0.0371 + 1e-3;
    return {lo - margin, (hi - lo + 2.0 * margin) / double(pixels), pixels, pixels};
}

// A plus-shaped prism (paper 5's Fig. 10 cross): arms of width `arm` reaching `reach` from the
// centre in x and y, height `height` in z; a closed, outward mesh (caps: the centre square and the
// four arms, sharing the inner corners).
inline MeshData crossPrism(float arm, float reach, float height) {
    const float a = 0.5f * arm, r = reach, z = 0.5f * height;
    // The 12 corners counter-clockwise seen from +z, inner corners at 2, 5, 8, 11.
    const glm::vec2 ring[12] = {{r, -a}, {r, a}, {a, a}, {a, r}, {-a, r}, {-a, a},
                                {-r, a}, {-r, -a}, {-a, -a}, {-a, -r}, {a, -r}, {a, -a}};
    MeshData mesh;
    mesh.name = "cross";
    for (float level : {-z, z})
        for (const glm::vec2& p : ring) mesh.positions.emplace_back(p.x, p.y, level);
    auto cap = [&](uint32_t i, uint32_t j, uint32_t k, bool top) {
        const uint32_t o = top ? 12 : 0;
        if (top) mesh.indices.insert(mesh.indices.end(), {o + i, o + j, o + k});
        else mesh.indices.insert(mesh.indices.end(), {o + i, o + k, o + j});
    };
    for (bool top : {false, true}) {
        cap(2, 5, 8, top);  // the centre square
        cap(2, 8, 11, top);
        for (uint32_t arm = 0; arm < 4; ++arm) {  // arm k: outer corners 3k, 3k + 1 and inner 3k - 1, 3k + 2
            const uint32_t o0 = 3 * arm, o1 = 3 * arm + 1, in1 = 3 * arm + 2, in0 = (3 * arm + 11) % 12;
            cap(in0, o0, o1, top);
            cap(in0, o1, in1, top);
        }
    }
    for (uint32_t k = 0; k < 12; ++k) {  // sides, outward
        const uint32_t n = (k + 1) % 12;
        mesh.indices.insert(mesh.indices.end(), {k, n, 12 + n, k, 12 + n, 12 + k});
    }
    return mesh;
}

}  // namespace vkc::ebpi_test
