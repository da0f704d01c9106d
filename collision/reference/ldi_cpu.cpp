// Method `ldi` on the CPU (paper 2, §3.2-3.3): see ldi_cpu.h.
#include "collision/reference/ldi_cpu.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>

namespace vkc {
namespace {

// Vertices snap to 1/256 pixel, as GPU rasterizers with 8 sub-pixel bits do; integer edge
// functions then make a shared edge split its samples exactly between its two triangles.
constexpr int64_t kSubpixel = gpu::kLdiSubpixelSteps;

glm::dvec3 toWorld(const glm::mat4& m, const glm::vec3& p) {
    glm::dvec4 r = glm::dmat4(m) * glm::dvec4(glm::dvec3(p), 1.0);
    return glm::dvec3(r);
}

struct Snapped {
    int64_t x, y;
    double depth;
};

int64_t edgeFunction(const Snapped& a, const Snapped& b, int64_t px, int64_t py) {
    return (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x);
}

// Top-left rule for counter-clockwise triangles: of the two directions of an edge exactly one owns
// the samples lying on it, so an edge shared by two triangles on opposite sides counts once.
bool ownsEdge(const Snapped& a, const Snapped& b) {
    int64_t dy = b.y - a.y, dx = b.x - a.x;
    return dy < 0 || (dy == 0 && dx < 0);
}

}  // namespace

void CpuLdi::insideIntervals(uint32_t pixel, std::vector<std::pair<double, double>>& out) const {
    out.clear();
    uint32_t first = offsets[pixel], count = offsets[pixel + 1] - first;
    for (uint32_t k = 0; k < count; k += 2) {
        double entry = depths[first + k];
        double leave = k + 1 < count ? depths[first + k + 1] : far;
        out.emplace_back(std::min(entry, leave), std::max(entry, leave));
    }
}

uint32_t CpuLdi::invalidOrderPixels() const {
    uint32_t invalid = 0;
    for (size_t p = 0; p + 1 < offsets.size(); ++p) {
        for (uint32_t k = offsets[p]; k < offsets[p + 1]; ++k) {
            if (facing[k] != ((k - offsets[p]) % 2 == 0 ? 1 : -1)) {
                ++invalid;
                break;
            }
        }
    }
    return invalid;
}

bool CpuLdi::contains(const glm::dvec3& point) const {
    uint32_t u = (axis + 1) % 3, v = (axis + 2) % 3;
    double fi = std::floor((point[u] - uMin) / pixelU), fj = std::floor((point[v] - vMin) / pixelV);
    // The footprint is closed: a point on its far sides (a vertex on its own box, which a VoI
    // face lies on) belongs to the last pixel.
    fi = std::min(fi, double(resolution - 1));
    fj = std::min(fj, double(resolution - 1));
    if (!(fi >= 0 && fj >= 0 && (point[u] - uMin) / pixelU <= resolution && (point[v] - vMin) / pixelV <= resolution))
        return false;
    uint32_t pixel = uint32_t(fj) * resolution + uint32_t(fi);
    std::vector<std::pair<double, double>> intervals;
    insideIntervals(pixel, intervals);
    double t = point[axis];
    for (auto [lo, hi] : intervals)
        if (t >= lo && t <= hi) return true;
    return false;
}

CpuLdi buildCpuLdi(const MeshData& mesh, const glm::mat4& transform, const LdiVoi& voi, bool forA,
                   uint32_t resolution) {
    CpuLdi ldi;
    ldi.resolution = resolution;
    ldi.axis = voi.axis;
    ldi.fromMin = forA == voi.aFromMin;
    ldi.near = ldi.fromMin ? voi.box.min[voi.axis] : voi.box.max[voi.axis];
    ldi.far = ldi.fromMin ? voi.box.max[voi.axis] : voi.box.min[voi.axis];
    uint32_t u = (voi.axis + 1) % 3, v = (voi.axis + 2) % 3;
    ldi.uMin = voi.box.min[u];
    ldi.vMin = voi.box.min[v];
    ldi.pixelU = (double(voi.box.max[u]) - ldi.uMin) / resolution;
    ldi.pixelV = (double(voi.box.max[v]) - ldi.vMin) / resolution;
    double depthLo = std::min(ldi.near, ldi.far), depthHi = std::max(ldi.near, ldi.far);

    std::vector<std::vector<std::pair<double, int8_t>>> layers(size_t(resolution) * resolution);
    std::vector<glm::dvec3> world(mesh.positions.size());
    for (size_t i = 0; i < world.size(); ++i) world[i] = toWorld(transform, mesh.positions[i]);
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        Snapped s[3];
        for (int c = 0; c < 3; ++c) {
            const glm::dvec3& p = world[mesh.indices[t + c]];
            s[c] = {std::llround((p[u] - ldi.uMin) / ldi.pixelU * kSubpixel),
                    std::llround((p[v] - ldi.vMin) / ldi.pixelV * kSubpixel), p[voi.axis]};
        }
        int64_t area = edgeFunction(s[0], s[1], s[2].x, s[2].y);
        if (area == 0) continue;  // edge-on: no pixel-centre ray crosses it (GPUs drop it too)
        // The projected area's sign is the normal's component along +axis (cyclic u, v, axis):
        // a front face (entry) has its outward normal against the ray.
        int8_t facing = (area > 0) == ldi.fromMin ? int8_t(-1) : int8_t(1);
        if (area < 0) {
            std::swap(s[1], s[2]);
            area = -area;
        }
        int64_t x0 = std::min({s[0].x, s[1].x, s[2].x}), x1 = std::max({s[0].x, s[1].x, s[2].x});
        int64_t y0 = std::min({s[0].y, s[1].y, s[2].y}), y1 = std::max({s[0].y, s[1].y, s[2].y});
        // Pixel i's centre sits at (i + 1/2) * kSubpixel.
        int64_t i0 = std::max<int64_t>(0, (x0 - kSubpixel / 2 + kSubpixel - 1) / kSubpixel);
        int64_t i1 = std::min<int64_t>(resolution - 1, (x1 - kSubpixel / 2) / kSubpixel);
        int64_t j0 = std::max<int64_t>(0, (y0 - kSubpixel / 2 + kSubpixel - 1) / kSubpixel);
        int64_t j1 = std::min<int64_t>(resolution - 1, (y1 - kSubpixel / 2) / kSubpixel);
        if (x1 < kSubpixel / 2 || y1 < kSubpixel / 2) continue;
        bool own0 = ownsEdge(s[1], s[2]), own1 = ownsEdge(s[2], s[0]), own2 = ownsEdge(s[0], s[1]);
        for (int64_t j = j0; j <= j1; ++j) {
            int64_t py = j * kSubpixel + kSubpixel / 2;
            for (int64_t i = i0; i <= i1; ++i) {
                int64_t px = i * kSubpixel + kSubpixel / 2;
                int64_t w0 = edgeFunction(s[1], s[2], px, py);
                int64_t w1 = edgeFunction(s[2], s[0], px, py);
                int64_t w2 = edgeFunction(s[0], s[1], px, py);
                if (w0 < 0 || w1 < 0 || w2 < 0) continue;
                if ((w0 == 0 && !own0) || (w1 == 0 && !own1) || (w2 == 0 && !own2)) continue;
                double depth = (double(w0) * s[0].depth + double(w1) * s[1].depth + double(w2) * s[2].depth) / double(area);
                // Near and far planes clip inclusively, like Vulkan's 0 <= z <= 1.
                if (depth < depthLo || depth > depthHi) continue;
                layers[size_t(j) * resolution + size_t(i)].emplace_back(depth, facing);
            }
        }
    }
    ldi.offsets.resize(layers.size() + 1, 0);
    for (size_t p = 0; p < layers.size(); ++p) {
        auto& l = layers[p];
        // Ties (a ray through a shared vertex or a fold) put the front face first, so that a
        // touching pair of crossings reads as an empty interval rather than a broken order.
        bool ascending = ldi.fromMin;
        std::sort(l.begin(), l.end(), [ascending](const auto& x, const auto& y) {
            if (x.first != y.first) return ascending ? x.first < y.first : x.first > y.first;
            return x.second > y.second;
        });
        ldi.offsets[p + 1] = ldi.offsets[p] + uint32_t(l.size());
        ldi.maxDepthComplexity = std::max(ldi.maxDepthComplexity, uint32_t(l.size()));
        for (auto [depth, facing] : l) {
            ldi.depths.push_back(depth);
            ldi.facing.push_back(facing);
        }
    }
    return ldi;
}

double cpuLdiIntersectionVolume(const CpuLdi& a, const CpuLdi& b) {
    std::vector<std::pair<double, double>> ia, ib;
    double length = 0.0;
    for (uint32_t p = 0; p + 1 < a.offsets.size(); ++p) {
        a.insideIntervals(p, ia);
        b.insideIntervals(p, ib);
        for (auto [alo, ahi] : ia)
            for (auto [blo, bhi] : ib) length += std::max(0.0, std::min(ahi, bhi) - std::max(alo, blo));
    }
    return length * a.pixelU * a.pixelV;
}

}  // namespace vkc
