// Method `ebpi` (paper 5, Sec. 4.4): ray directions away from the faces; see ebpi_directions.h.
#include "collision/ebpi/ebpi_directions.h"

#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

#include <algorithm>
#include <cmath>
#include <random>

namespace vkc {
namespace {

// exp([w]x): the turn by |w| radians about w (Rodrigues).
glm::dmat3 turn(const glm::dvec3& w) {
    const double angle = glm::length(w);
    if (angle == 0.0) return glm::dmat3(1.0);
    const glm::dvec3 k = w / angle;
    const glm::dmat3 cross(glm::dvec3(0, k.z, -k.y), glm::dvec3(-k.z, 0, k.x), glm::dvec3(k.y, -k.x, 0));
    return glm::dmat3(1.0) + std::sin(angle) * cross + (1.0 - std::cos(angle)) * (cross * cross);
}

// Columns made orthonormal again (Gram-Schmidt), keeping the first column's direction: repeated
// turns drift by rounding.
glm::dmat3 orthonormal(const glm::dmat3& m) {
    const glm::dvec3 a = glm::normalize(m[0]);
    const glm::dvec3 b = glm::normalize(m[1] - glm::dot(m[1], a) * a);
    return glm::dmat3(a, b, glm::cross(a, b));
}

// The cost along t -> exp(t [d]x) axes is smallest near one of 16 samples up to a 45 degree turn
// (Eq. 12 has period 90 degrees about any axis that is a symmetry); golden-section search around
// the best sample refines it. Returns the best t found, 0 when no sample improves on t = 0.
double lineSearch(const EbpiNormalHistogram& histogram, const glm::dmat3& axes, const glm::dvec3& d) {
    constexpr int kSamples = 16;
    const double h = (3.14159265358979323846 / 4.0) / kSamples / glm::length(d);
    auto cost = [&](double t) { return ebpiDirectionCost(histogram, turn(t * d) * axes); };
    int best = 0;
    double bestCost = cost(0.0);
    for (int k = 1; k <= kSamples; ++k) {
        const double c = cost(k * h);
        if (c < bestCost) best = k, bestCost = c;
    }
    double lo = std::max(0, best - 1) * h, hi = (best + 1) * h;
    const double ratio = (std::sqrt(5.0) - 1.0) / 2.0;
    double x1 = hi - ratio * (hi - lo), x2 = lo + ratio * (hi - lo);
    double c1 = cost(x1), c2 = cost(x2);
    for (int i = 0; i < 48; ++i) {
        if (c1 < c2) {
            hi = x2, x2 = x1, c2 = c1;
            x1 = hi - ratio * (hi - lo), c1 = cost(x1);
        } else {
            lo = x1, x1 = x2, c1 = c2;
            x2 = lo + ratio * (hi - lo), c2 = cost(x2);
        }
    }
    const double refined = c1 < c2 ? x1 : x2;
    if (std::min(c1, c2) < bestCost) return refined;
    return best * h;
}

// Fletcher-Reeves conjugate gradients from `axes`, restarted along the gradient every 3 steps
// (the dimension); each step's cost is at most the last one's.
glm::dmat3 descend(const EbpiNormalHistogram& histogram, glm::dmat3 axes, uint32_t maxIterations) {
    glm::dvec3 gradient = ebpiDirectionCostGradient(histogram, axes);
    glm::dvec3 direction = -gradient;
    for (uint32_t i = 0; i < maxIterations && glm::dot(gradient, gradient) > 0.0; ++i) {
        const double t = lineSearch(histogram, axes, direction);
        if (t == 0.0) {
            if (i % 3 == 0) break;  // not even the steepest descent improves: a local minimum
            direction = -gradient;  // the conjugate direction went stale: restart along the gradient
            continue;
        }
        axes = orthonormal(turn(t * direction) * axes);
        const glm::dvec3 next = ebpiDirectionCostGradient(histogram, axes);
        const double beta = (i + 1) % 3 == 0 ? 0.0 : glm::dot(next, next) / glm::dot(gradient, gradient);
        direction = -next + beta * direction;
        gradient = next;
    }
    return axes;
}

}  // namespace

EbpiNormalHistogram ebpiEmptyNormalHistogram(uint32_t faceSize) {
    return {faceSize, std::vector<glm::dvec3>(6 * size_t(faceSize) * faceSize, glm::dvec3(0))};
}

uint32_t ebpiNormalTexel(const EbpiNormalHistogram& histogram, const glm::dvec3& n) {
    const glm::dvec3 a = glm::abs(n);
    const int major = a.x >= a.y && a.x >= a.z ? 0 : (a.y >= a.z ? 1 : 2);
    const uint32_t face = 2 * major + (n[major] < 0 ? 1 : 0);
    auto cell = [&](double coordinate) {
        const double unit = (coordinate / a[major] + 1.0) / 2.0;  // [0, 1]
        return std::min(uint32_t(unit * histogram.faceSize), histogram.faceSize - 1);
    };
    const uint32_t column = cell(n[(major + 1) % 3]), row = cell(n[(major + 2) % 3]);
    return (face * histogram.faceSize + row) * histogram.faceSize + column;
}

void ebpiAddToNormalHistogram(EbpiNormalHistogram& histogram, const MeshData& mesh, const glm::dmat3& linear) {
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        const glm::dvec3 a = linear * glm::dvec3(mesh.positions[mesh.indices[t]]);
        const glm::dvec3 b = linear * glm::dvec3(mesh.positions[mesh.indices[t + 1]]);
        const glm::dvec3 c = linear * glm::dvec3(mesh.positions[mesh.indices[t + 2]]);
        const glm::dvec3 areaNormal = 0.5 * glm::cross(b - a, c - a);  // |.| = area
        if (glm::dot(areaNormal, areaNormal) == 0.0) continue;
        histogram.texels[ebpiNormalTexel(histogram, areaNormal)] += areaNormal;
    }
}

double ebpiDirectionCost(const EbpiNormalHistogram& histogram, const glm::dmat3& axes) {
    double cost = 0.0;
    for (const glm::dvec3& n : histogram.texels) {
        const glm::dvec3 along = glm::transpose(axes) * n;  // n . a_j
        const glm::dvec3 squared = along * along;
        cost += glm::dot(squared, squared);
    }
    return cost;
}

glm::dvec3 ebpiDirectionCostGradient(const EbpiNormalHistogram& histogram, const glm::dmat3& axes) {
    glm::dvec3 gradient(0.0);
    for (const glm::dvec3& n : histogram.texels)
        for (int j = 0; j < 3; ++j) {
            const double along = glm::dot(n, axes[j]);
            gradient += 4.0 * along * along * along * glm::cross(axes[j], n);
        }
    return gradient;
}

glm::dmat3 ebpiOptimizeDirections(const EbpiNormalHistogram& histogram, const glm::dmat3& start,
                                  const EbpiDirectionOptions& options) {
    glm::dmat3 best = descend(histogram, orthonormal(start), options.maxIterations);
    double bestCost = ebpiDirectionCost(histogram, best);
    std::mt19937 rng(options.seed);
    std::normal_distribution<double> normal;
    for (uint32_t r = 0; r < options.restarts; ++r) {
        const glm::dvec3 axis = glm::normalize(glm::dvec3(normal(rng), normal(rng), normal(rng)));
        const glm::dmat3 tried =
            descend(histogram, orthonormal(turn(options.restartAngle * axis) * best), options.maxIterations);
        const double cost = ebpiDirectionCost(histogram, tried);
        if (cost < bestCost) best = tried, bestCost = cost;
    }
    return best;
}

}  // namespace vkc
