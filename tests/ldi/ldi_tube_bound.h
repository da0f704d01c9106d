// The tests' evaluation, in double with std::atan2, of the tube bound ldi_drawn_bound.comp states
// (its header has the derivation): over the triangles of `mesh` placed by `transform` whose boxes
// meet the VoI overlap grown by `grow`, the slab of each face, each side's share of its edge's
// wedge and each corner's share of its vertex's cone, at radius d. Every angle is taken
// `angleMargin` smaller, as the shader takes float's angles; 0 gives the formula itself.
#pragma once

#include "collision/ldi/ldi_drawn_bound_topology.h"
#include "collision/ldi/ldi_voi.h"
#include "shaders_glsl/shared/ldi.h"
#include "vkcollide/mesh.h"

#include <glm/geometric.hpp>
#include <glm/mat4x4.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace vkc::ldi_test {

inline double tubeBound(const MeshData& mesh, const glm::dmat4& transform, const glm::dvec3& regionLo,
                        const glm::dvec3& regionHi, double d, double angleMargin) {
    constexpr double pi = std::numbers::pi;
    const LdiMeshSides sides = ldiMeshSides(mesh.indices);
    auto at = [&](uint32_t vertex) { return glm::dvec3(transform * glm::dvec4(glm::dvec3(mesh.positions[vertex]), 1.0)); };
    auto degenerate = [](const glm::dvec3& u, double reach) { return glm::dot(u, u) <= 1e-18 * reach * reach; };
    auto angle = [&](glm::dvec3 u, glm::dvec3 v) {
        u = glm::normalize(u);
        v = glm::normalize(v);
        return std::max(0.0, std::atan2(glm::length(glm::cross(u, v)), glm::dot(u, v)) - angleMargin);
    };
    double bound = 0.0;
    for (size_t first = 0; first + 2 < mesh.indices.size(); first += 3) {
        glm::dvec3 p[3], across[3];
        bool known[3];
        for (int c = 0; c < 3; ++c) p[c] = at(mesh.indices[first + c]);
        const glm::dvec3 lo = glm::min(p[0], glm::min(p[1], p[2])), hi = glm::max(p[0], glm::max(p[1], p[2]));
        if (glm::any(glm::lessThan(hi, regionLo)) || glm::any(glm::greaterThan(lo, regionHi))) continue;
        for (int k = 0; k < 3; ++k) {
            known[k] = sides.across[first + k] != gpu::kLdiNoVertexAcross;
            across[k] = known[k] ? at(sides.across[first + k]) : p[k];
        }
        bound += d * glm::length(glm::cross(p[1] - p[0], p[2] - p[0]));
        for (int k = 0; k < 3; ++k) {
            const int next = (k + 1) % 3, previous = (k + 2) % 3;
            // The side's share of its edge's wedge.
            const glm::dvec3 e = p[next] - p[k];
            const double length = glm::length(e);
            if (length > 0.0) {
                const glm::dvec3 a = p[previous] - p[k] - e * (glm::dot(p[previous] - p[k], e) / (length * length));
                const glm::dvec3 b = across[k] - p[k] - e * (glm::dot(across[k] - p[k], e) / (length * length));
                const double reach = std::max(glm::length(p[previous] - p[k]), glm::length(across[k] - p[k]));
                const bool halfCylinder = !known[k] || degenerate(a, reach) || degenerate(b, reach);
                bound += halfCylinder ? 0.5 * pi * length * d * d : 0.25 * (pi - angle(a, b)) * length * d * d;
            }
            // The corner's share of its vertex's cone.
            const glm::dvec3 directions[4] = {p[next] - p[k], p[previous] - p[k], across[k] - p[k], across[previous] - p[k]};
            const bool directionKnown[4] = {true, true, known[k], known[previous]};
            double reach = 0.0;
            for (int i = 0; i < 4; ++i)
                if (directionKnown[i]) reach = std::max(reach, glm::length(directions[i]));
            int usable = 0;
            double widest = 0.0;
            for (int i = 0; i < 4; ++i) {
                if (!directionKnown[i] || degenerate(directions[i], reach)) continue;
                ++usable;
                for (int j = i + 1; j < 4; ++j)
                    if (directionKnown[j] && !degenerate(directions[j], reach))
                        widest = std::max(widest, angle(directions[i], directions[j]));
            }
            const double solidAngle = usable >= 2 ? std::max(0.0, 2.0 * pi - 2.0 * widest) : (usable == 1 ? 2.0 * pi : 4.0 * pi);
            bound += solidAngle / 3.0 * d * d * d / std::max<double>(sides.valence[first + k], 1.0);
        }
    }
    return bound;
}

// The same over every triangle of the mesh.
inline double tubeBound(const MeshData& mesh, const glm::dmat4& transform, double d, double angleMargin) {
    return tubeBound(mesh, transform, glm::dvec3(-INFINITY), glm::dvec3(INFINITY), d, angleMargin);
}

}  // namespace vkc::ldi_test
