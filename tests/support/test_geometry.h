// Geometry helpers shared by tests: seeded random rigid poses, scaled and far-away placements, and
// point-to-triangle distance.
#pragma once

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include <random>
#include <vector>

namespace vkc::test {

// A rotation uniformly spread over directions and a translation inside a cube of side `spread`.
inline glm::mat4 randomRigid(std::mt19937& rng, float spread) {
    std::uniform_real_distribution<float> position(-spread / 2, spread / 2), unit(-1.0f, 1.0f);
    glm::quat rotation = glm::normalize(glm::quat(unit(rng), unit(rng), unit(rng), unit(rng)));
    return glm::translate(glm::mat4(1.0f), {position(rng), position(rng), position(rng)}) * glm::mat4_cast(rotation);
}

// Where tests put objects far from the origin: the crowd of the "far from the origin" class, where
// float spacing (about 1e-3) is a tenth of a 1 cm object.
inline constexpr glm::dvec3 kFarOrigin{1e4, -5e3, 3e3};

// `rigid` scaled by `scale` about the world origin and then moved by `origin`, composed in double:
// a scene of such poses is the unit-scale scene of the `rigid` poses, scaled and moved, so its
// exact answers (pairs, triangle pairs; volumes times scale^3) are those of the unit-scale scene.
inline glm::dmat4 scaledAndMoved(const glm::mat4& rigid, double scale, glm::dvec3 origin) {
    glm::dmat4 m = glm::dmat4(rigid) * glm::scale(glm::dmat4(1.0), glm::dvec3(scale));
    m[3] = glm::dvec4(origin + scale * glm::dvec3(rigid[3]), 1.0);
    return m;
}

// A host-style interleaved vertex layout: `headerFloats` floats, then `strideFloats` floats per
// vertex with the position first; everything else is -1000 so a wrong stride or offset shows.
inline std::vector<float> interleavePositions(const std::vector<glm::vec3>& positions, uint32_t strideFloats,
                                              uint32_t headerFloats) {
    std::vector<float> data(headerFloats + positions.size() * strideFloats, -1000.0f);
    for (size_t v = 0; v < positions.size(); ++v)
        for (int axis = 0; axis < 3; ++axis) data[headerFloats + v * strideFloats + axis] = positions[v][axis];
    return data;
}

// Ericson, Real-Time Collision Detection, 5.1.5: distance from p to the closed triangle abc.
inline double distanceToTriangle(glm::dvec3 p, glm::dvec3 a, glm::dvec3 b, glm::dvec3 c) {
    glm::dvec3 ab = b - a, ac = c - a, ap = p - a;
    double d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return glm::length(p - a);
    glm::dvec3 bp = p - b;
    double d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return glm::length(p - b);
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return glm::length(p - (a + ab * (d1 / (d1 - d3))));
    glm::dvec3 cp = p - c;
    double d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return glm::length(p - c);
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return glm::length(p - (a + ac * (d2 / (d2 - d6))));
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0)
        return glm::length(p - (b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)))));
    double denom = 1.0 / (va + vb + vc);
    return glm::length(p - (a + ab * (vb * denom) + ac * (vc * denom)));
}

}  // namespace vkc::test
