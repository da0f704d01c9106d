// Exact CPU reference of ebpi's ray casting: every hit of a ray on the triangles of its objects,
// decided with exact rational arithmetic on the float inputs (boost::multiprecision, behind a
// double filter with a rigorous error bound), independently of shaders_glsl/shared/ebpi_trace.h.
// The rule it implements: the ray o + t d meets triangle (a, b, c) when the three Pluecker edge
// functions d . ((p - o) x (q - o)) have one sign, a zero one taking the sign of the first
// non-zero component of d x (q - p) (the origin moved by eps x + eps^2 y + eps^3 z); it enters
// when d . (b - a) x (c - a) < 0. World vertices are the float transform the GPU applies.
#pragma once

#include "shaders_glsl/shared/aabb_tree.h"
#include "shaders_glsl/shared/ebpi_trace.h"
#include "vkcollide/mesh.h"

#include <boost/multiprecision/cpp_int.hpp>
#include <glm/mat4x4.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>
#include <vector>

namespace vkc::ebpi_test {

using Rational = boost::multiprecision::cpp_rational;

struct TraceObject {
    const MeshData* mesh;
    glm::mat4 objectToLocal;
};

struct OracleHit {
    double t;
    uint32_t object;
    uint32_t triangle;
    bool entering;
};

// Position of vertex v of an object in the frame's local space, rounded as the shaders round it.
inline glm::vec3 worldVertex(const TraceObject& object, uint32_t vertex) {
    return gpu::aabbTransformPoint(object.objectToLocal, object.mesh->positions[vertex]);
}

// Exact sign of sum_k x_k * y_k * z_k over the given float factors.
template <size_t N>
int exactSignOfProducts(const std::array<std::array<double, 3>, N>& terms) {
    double sum = 0, magnitude = 0;
    for (const auto& t : terms) {
        sum += t[0] * t[1] * t[2];
        magnitude += std::abs(t[0] * t[1] * t[2]);
    }
    // Each product and sum rounds with relative error 2^-53 (a few times over): 1e-14 x magnitude
    // is far above their total, so a larger sum has its exact sign.
    if (std::abs(sum) > 1e-14 * magnitude) return sum > 0 ? 1 : -1;
    Rational exact = 0;
    for (const auto& t : terms) exact += Rational(t[0]) * Rational(t[1]) * Rational(t[2]);
    return exact > 0 ? 1 : (exact < 0 ? -1 : 0);
}

// Exact sign of d . ((p - o) x (q - o)), with the coordinate differences exact as rationals.
inline int exactEdgeFunctionSign(glm::vec3 o, glm::vec3 d, glm::vec3 p, glm::vec3 q) {
    // Expanded over the float inputs so that every factor is an exact float: (p - o) x (q - o)
    // = p x q - p x o - o x q, and d . (u x v) = sum of signed products of coordinates.
    std::array<std::array<double, 3>, 18> terms{};
    size_t n = 0;
    auto addCross = [&](glm::vec3 u, glm::vec3 v, double sign) {
        for (int i = 0; i < 3; ++i) {
            const int j = (i + 1) % 3, k = (i + 2) % 3;
            terms[n++] = {sign * double(d[i]), double(u[j]), double(v[k])};
            terms[n++] = {-sign * double(d[i]), double(u[k]), double(v[j])};
        }
    };
    addCross(p, q, 1.0);
    addCross(p, o, -1.0);
    addCross(o, q, -1.0);
    return exactSignOfProducts(terms);
}

// Sign of the perturbation term: first non-zero component of d x (q - p), exactly.
inline int exactTieSign(glm::vec3 d, glm::vec3 p, glm::vec3 q) {
    for (int i = 0; i < 3; ++i) {
        const int j = (i + 1) % 3, k = (i + 2) % 3;
        // (d x (q - p))_i = d_j (q_k - p_k) - d_k (q_j - p_j)
        const std::array<std::array<double, 3>, 4> terms = {{{double(d[j]), double(q[k]), 1.0},
                                                             {-double(d[j]), double(p[k]), 1.0},
                                                             {-double(d[k]), double(q[j]), 1.0},
                                                             {double(d[k]), double(p[j]), 1.0}}};
        const int s = exactSignOfProducts(terms);
        if (s != 0) return s;
    }
    return 0;
}

inline int exactEdgeSign(glm::vec3 o, glm::vec3 d, glm::vec3 p, glm::vec3 q) {
    const int s = exactEdgeFunctionSign(o, d, p, q);
    return s != 0 ? s : exactTieSign(d, p, q);
}

// Every hit of `ray` on its objects' triangles (tMin <= t <= tMax, t in double, which is enough
// for rays whose hits lie well inside the interval), sorted by (t, object, triangle).
inline std::vector<OracleHit> oracleHits(const gpu::EbpiRayGpu& ray, const std::vector<TraceObject>& objects) {
    const glm::vec3 o(ray.origin), d(ray.direction);
    std::vector<OracleHit> hits;
    for (int k = 0; k < 2; ++k) {
        const uint32_t object = k == 0 ? ray.objectA : ray.objectB;
        if (object == gpu::kEbpiNoObject || (k == 1 && object == ray.objectA)) continue;
        const TraceObject& obj = objects[object];
        for (uint32_t t = 0; t < obj.mesh->triangleCount(); ++t) {
            const glm::vec3 a = worldVertex(obj, obj.mesh->indices[3 * t]);
            const glm::vec3 b = worldVertex(obj, obj.mesh->indices[3 * t + 1]);
            const glm::vec3 c = worldVertex(obj, obj.mesh->indices[3 * t + 2]);
            const int sab = exactEdgeSign(o, d, a, b), sbc = exactEdgeSign(o, d, b, c), sca = exactEdgeSign(o, d, c, a);
            if (sab == 0 || sab != sbc || sbc != sca) continue;
            const glm::dvec3 da(a), db(b), dc(c), dd(d), dor(o);
            const glm::dvec3 n = glm::cross(db - da, dc - da);
            const double depth = glm::dot(n, da - dor) / glm::dot(n, dd);
            if (depth < ray.origin.w || depth > ray.direction.w) continue;
            hits.push_back({depth, object, t, sab < 0});
        }
    }
    std::sort(hits.begin(), hits.end(), [](const OracleHit& x, const OracleHit& y) {
        return std::tie(x.t, x.object, x.triangle) < std::tie(y.t, y.object, y.triangle);
    });
    return hits;
}

}  // namespace vkc::ebpi_test
