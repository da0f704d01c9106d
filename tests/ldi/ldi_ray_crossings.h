// Brute-force ray casting for the ldi tests: per pixel centre of an LDI's footprint, every crossing
// of the ray with a mesh's triangles, computed in double on the unsnapped world triangles. It is the
// truth the GPU's layers (count, facing, depth) and its §7 front/back order are checked against,
// sharing neither the rasterizer, the view matrices nor the CPU reference LDI (ldi_cpu.*). Pixels
// whose ray passes within `edgeMargin` pixels of a projected edge (where the fill rule and the
// 1/256-pixel vertex snapping decide) or crosses the surface at the VoI's near or far plane are
// marked ambiguous and left out of comparisons.
#pragma once

#include "tests/ldi/ldi_test_support.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace vkc::ldi_test {

// What an LDI looks at: the VoI box, the ray axis and the side its rays start from. Pixel (i, j)
// covers cell i of axis (axis+1)%3 and cell j of axis (axis+2)%3; pixel index j * resolution + i.
struct RayView {
    Aabb box;
    uint32_t axis = 2;
    bool fromMin = true;  // rays run toward +axis from box.min[axis]
    uint32_t resolution = 0;
};

struct RayCrossing {
    double depth = 0.0;  // world coordinate along the axis
    int facing = 0;      // +1 entry (outward normal against the ray), -1 leaving
    double slope = 0.0;  // world depth change per pixel of lateral shift: how far snapping moves it
};

struct RayPixels {
    std::vector<std::vector<RayCrossing>> crossings;  // per pixel, sorted from the near plane
    std::vector<uint8_t> ambiguous;                   // per pixel: ray within edgeMargin of an edge
    uint32_t ambiguousCount() const { return uint32_t(std::count(ambiguous.begin(), ambiguous.end(), 1)); }
    // §7: the facings do not alternate entry, leaving, entry, ... from the near plane.
    bool invalidOrder(uint32_t pixel) const {
        for (size_t k = 0; k < crossings[pixel].size(); ++k)
            if (crossings[pixel][k].facing != (k % 2 == 0 ? 1 : -1)) return true;
        return false;
    }
};

inline double segmentDistance2d(glm::dvec2 p, glm::dvec2 a, glm::dvec2 b) {
    glm::dvec2 ab = b - a;
    double len2 = glm::dot(ab, ab);
    double t = len2 > 0.0 ? std::clamp(glm::dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
    return glm::length(p - (a + t * ab));
}

inline RayPixels castPixelRays(const MeshData& mesh, const glm::mat4& transform, const RayView& view,
                               double edgeMargin = 0.02) {
    const uint32_t res = view.resolution, u = (view.axis + 1) % 3, v = (view.axis + 2) % 3, w = view.axis;
    const double pu = (double(view.box.max[u]) - view.box.min[u]) / res;
    const double pv = (double(view.box.max[v]) - view.box.min[v]) / res;
    const double lo = view.box.min[w], hi = view.box.max[w], depthEps = 1e-6 * (hi - lo);
    RayPixels out;
    out.crossings.resize(size_t(res) * res);
    out.ambiguous.assign(size_t(res) * res, 0);
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        glm::dvec3 p[3];
        glm::dvec2 q[3];  // in pixels: pixel (i, j)'s centre is (i + 0.5, j + 0.5)
        for (int c = 0; c < 3; ++c) {
            p[c] = world(transform, mesh.positions[mesh.indices[t + c]]);
            q[c] = {(p[c][u] - view.box.min[u]) / pu, (p[c][v] - view.box.min[v]) / pv};
        }
        const glm::dvec3 n = glm::cross(p[1] - p[0], p[2] - p[0]);
        const double area = (q[1].x - q[0].x) * (q[2].y - q[0].y) - (q[1].y - q[0].y) * (q[2].x - q[0].x);
        const int facing = (n[w] > 0) == view.fromMin ? -1 : 1;
        const double slope = n[w] != 0.0 ? std::hypot(n[u] * pu, n[v] * pv) / std::abs(n[w]) : INFINITY;
        const double x0 = std::min({q[0].x, q[1].x, q[2].x}) - edgeMargin, x1 = std::max({q[0].x, q[1].x, q[2].x}) + edgeMargin;
        const double y0 = std::min({q[0].y, q[1].y, q[2].y}) - edgeMargin, y1 = std::max({q[0].y, q[1].y, q[2].y}) + edgeMargin;
        const int64_t i0 = std::max<int64_t>(0, int64_t(std::ceil(x0 - 0.5))), i1 = std::min<int64_t>(res - 1, int64_t(std::floor(x1 - 0.5)));
        const int64_t j0 = std::max<int64_t>(0, int64_t(std::ceil(y0 - 0.5))), j1 = std::min<int64_t>(res - 1, int64_t(std::floor(y1 - 0.5)));
        for (int64_t j = j0; j <= j1; ++j)
            for (int64_t i = i0; i <= i1; ++i) {
                const size_t pixel = size_t(j) * res + size_t(i);
                const glm::dvec2 c(double(i) + 0.5, double(j) + 0.5);
                double edge = INFINITY;
                for (int e = 0; e < 3; ++e) edge = std::min(edge, segmentDistance2d(c, q[e], q[(e + 1) % 3]));
                if (edge < edgeMargin) {
                    out.ambiguous[pixel] = 1;
                    continue;
                }
                if (area == 0.0) continue;
                double b[3];
                for (int e = 0; e < 3; ++e) {
                    const glm::dvec2 a = q[(e + 1) % 3], d = q[(e + 2) % 3];
                    b[e] = ((d.x - a.x) * (c.y - a.y) - (d.y - a.y) * (c.x - a.x)) / area;
                }
                if (b[0] < 0 || b[1] < 0 || b[2] < 0) continue;
                const double depth = b[0] * p[0][w] + b[1] * p[1][w] + b[2] * p[2][w];
                if (std::abs(depth - lo) < depthEps || std::abs(depth - hi) < depthEps) {
                    out.ambiguous[pixel] = 1;
                    continue;
                }
                if (depth > lo && depth < hi) out.crossings[pixel].push_back({depth, facing, slope});
            }
    }
    for (auto& pixel : out.crossings)
        std::sort(pixel.begin(), pixel.end(), [&](const RayCrossing& a, const RayCrossing& b) {
            return view.fromMin ? a.depth < b.depth : a.depth > b.depth;
        });
    return out;
}

}  // namespace vkc::ldi_test
