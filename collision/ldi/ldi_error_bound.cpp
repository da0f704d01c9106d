// Error bounds of method `ldi`: see ldi_error_bound.h.
#include "collision/ldi/ldi_error_bound.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace vkc {

double ldiVolumeErrorBound(const MeshData& meshA, const glm::mat4& transformA, const MeshData& meshB,
                           const glm::mat4& transformB, const LdiVoi& voi, uint32_t resolution) {
    uint32_t u = (voi.axis + 1) % 3, v = (voi.axis + 2) % 3;
    double pu = (double(voi.box.max[u]) - voi.box.min[u]) / resolution;
    double pv = (double(voi.box.max[v]) - voi.box.min[v]) / resolution;
    double d = (0.5 + 2.0 / gpu::kLdiSubpixelSteps) * std::sqrt(pu * pu + pv * pv);
    constexpr double pi = std::numbers::pi;
    double bound = 0.0;
    for (auto [mesh, transform] : {std::pair{&meshA, &transformA}, std::pair{&meshB, &transformB}}) {
        const glm::dmat4 m(*transform);
        for (size_t t = 0; t + 2 < mesh->indices.size(); t += 3) {
            glm::dvec3 p[3];
            for (int c = 0; c < 3; ++c)
                p[c] = glm::dvec3(m * glm::dvec4(glm::dvec3(mesh->positions[mesh->indices[t + c]]), 1.0));
            bool near = true;  // only triangles within d of the overlap can bound A∩B there
            for (int k = 0; k < 3 && near; ++k) {
                double lo = std::min({p[0][k], p[1][k], p[2][k]}), hi = std::max({p[0][k], p[1][k], p[2][k]});
                near = hi >= voi.overlap.min[k] - d && lo <= voi.overlap.max[k] + d;
            }
            if (!near) continue;
            double area = 0.5 * glm::length(glm::cross(p[1] - p[0], p[2] - p[0]));
            double perimeter = glm::length(p[1] - p[0]) + glm::length(p[2] - p[1]) + glm::length(p[0] - p[2]);
            bound += 2.0 * d * area + 0.5 * pi * d * d * perimeter + 4.0 / 3.0 * pi * d * d * d;
        }
    }
    return bound;
}

double ldiFloatDepthErrorBound(const LdiVoi& voi, uint32_t layersA, uint32_t layersB) {
    uint32_t u = (voi.axis + 1) % 3, v = (voi.axis + 2) % 3;
    double footprint = (double(voi.box.max[u]) - voi.box.min[u]) * (double(voi.box.max[v]) - voi.box.min[v]);
    return footprint * voi.depthExtent() * double(layersA + layersB) * std::ldexp(1.0, -20);
}

}  // namespace vkc
