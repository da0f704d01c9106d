// Scenes of the ebpi volume tests: two placed objects, uniform grids of unit rays along the three
// world axes over a box (each ray with its cell's area), their hit lists cast on the CPU with the
// shared watertight test (shaders_glsl/shared/ebpi_trace.h, the GPU's own rule), and the decoded
// volume and gradient of the pair.
#pragma once

#include "collision/ebpi/ebpi_volume_cpu.h"
#include "tests/ebpi/ebpi_trace_oracle.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <vector>

namespace vkc::ebpi_test {

struct VolumeScene {
    std::vector<TraceObject> objects;  // A = 0, B = 1
    std::vector<gpu::EbpiRayGpu> rays;
    std::vector<gpu::EbpiVolumeRayGpu> rayInfos;
    gpu::EbpiVolumePairGpu pair{};
    uint32_t cells = 0;  // per side of each axis' grid; ray index (axis * cells + i) * cells + k

    std::vector<std::span<const uint32_t>> objectIndices() const {
        std::vector<std::span<const uint32_t>> out;
        for (const TraceObject& o : objects) out.emplace_back(o.mesh->indices);
        return out;
    }
    uint32_t gradientSlots() const {
        return uint32_t(objects[0].mesh->positions.size() + objects[1].mesh->positions.size());
    }
};

// Bounds of the placed objects (as the GPU rounds their vertices).
inline void objectBounds(const TraceObject& o, glm::vec3& lo, glm::vec3& hi) {
    lo = glm::vec3(INFINITY);
    hi = glm::vec3(-INFINITY);
    for (uint32_t v = 0; v < o.mesh->positions.size(); ++v) {
        lo = glm::min(lo, worldVertex(o, v));
        hi = glm::max(hi, worldVertex(o, v));
    }
}

// cells x cells rays per world axis through the centres of a grid over [lo, hi] across the axis;
// each ray runs over both objects' whole extent along it (parity needs every crossing).
inline VolumeScene gridScene(std::vector<TraceObject> objects, glm::vec3 lo, glm::vec3 hi, uint32_t cells) {
    VolumeScene scene;
    scene.objects = std::move(objects);
    scene.cells = cells;
    glm::vec3 loA, hiA, loB, hiB;
    objectBounds(scene.objects[0], loA, hiA);
    objectBounds(scene.objects[1], loB, hiB);
    const glm::vec3 start = glm::min(loA, loB) - 1.0f, end = glm::max(hiA, hiB) + 1.0f;
    const glm::vec3 cell = (hi - lo) / float(cells);
    for (uint32_t axis = 0; axis < 3; ++axis) {
        const uint32_t u = (axis + 1) % 3, v = (axis + 2) % 3;
        for (uint32_t i = 0; i < cells; ++i)
            for (uint32_t k = 0; k < cells; ++k) {
                glm::vec3 origin(0.0f), direction(0.0f);
                origin[axis] = start[axis];
                origin[u] = lo[u] + (float(i) + 0.5f) * cell[u];
                origin[v] = lo[v] + (float(k) + 0.5f) * cell[v];
                direction[axis] = 1.0f;
                gpu::EbpiRayGpu ray{};
                ray.origin = glm::vec4(origin, 0.0f);
                ray.direction = glm::vec4(direction, end[axis] - start[axis]);
                ray.objectA = 0;
                ray.objectB = 1;
                scene.rays.push_back(ray);
                scene.rayInfos.push_back({double(cell[u] * cell[v]), 0u, axis});
            }
    }
    const double extent = double(glm::length(end - start));
    const EbpiVolumeScales scales = ebpiVolumeScales(extent);
    const uint32_t verticesA = uint32_t(scene.objects[0].mesh->positions.size());
    scene.pair = {0u, 1u, 0u, verticesA, scales.volumeScale, scales.gradientScale};
    return scene;
}

// The world boxes' overlap.
inline void overlapBox(const VolumeScene& s, glm::vec3& lo, glm::vec3& hi) {
    glm::vec3 loA, hiA, loB, hiB;
    objectBounds(s.objects[0], loA, hiA);
    objectBounds(s.objects[1], loB, hiB);
    lo = glm::max(loA, loB);
    hi = glm::min(hiA, hiB);
}

// Hit lists as the casting writes them (sorted by ebpiHitBefore; past the capacity the count
// stays exact and the ray is flagged), cast on the CPU: each triangle against the grid rays its
// projected bounds (one cell wider) can reach.
struct CpuHits {
    uint32_t hitCapacity = 0;
    std::vector<gpu::EbpiRayHitsGpu> rayHits;
    std::vector<gpu::EbpiHitGpu> hits;
    EbpiHitLists lists() const { return {hitCapacity, rayHits, hits}; }
};

inline CpuHits castOnCpu(const VolumeScene& s, uint32_t hitCapacity) {
    std::vector<std::vector<gpu::EbpiHitGpu>> perRay(s.rays.size());
    for (uint32_t object = 0; object < s.objects.size(); ++object) {
        const TraceObject& o = s.objects[object];
        for (uint32_t t = 0; t < o.mesh->triangleCount(); ++t) {
            const glm::vec3 p[3] = {worldVertex(o, o.mesh->indices[3 * t]), worldVertex(o, o.mesh->indices[3 * t + 1]),
                                    worldVertex(o, o.mesh->indices[3 * t + 2])};
            for (uint32_t axis = 0; axis < 3; ++axis) {
                const uint32_t u = (axis + 1) % 3, v = (axis + 2) % 3;
                const uint32_t base = axis * s.cells * s.cells;
                // Grid geometry of this axis from its first and last rays.
                const glm::vec3 c0(s.rays[base].origin), c1(s.rays[base + s.cells * s.cells - 1].origin);
                const float du = s.cells > 1 ? (c1[u] - c0[u]) / float(s.cells - 1) : 1.0f;
                const float dv = s.cells > 1 ? (c1[v] - c0[v]) / float(s.cells - 1) : 1.0f;
                auto range = [&](uint32_t c, float first, float step, uint32_t& lo, uint32_t& hi) {
                    const float mn = std::min({p[0][c], p[1][c], p[2][c]}), mx = std::max({p[0][c], p[1][c], p[2][c]});
                    lo = uint32_t(std::clamp(std::floor((mn - first) / step) - 1.0f, 0.0f, float(s.cells)));
                    hi = uint32_t(std::clamp(std::ceil((mx - first) / step) + 1.0f, 0.0f, float(s.cells - 1)));
                };
                uint32_t i0, i1, k0, k1;
                range(u, c0[u], du, i0, i1);
                range(v, c0[v], dv, k0, k1);
                for (uint32_t i = i0; i <= i1 && i < s.cells; ++i)
                    for (uint32_t k = k0; k <= k1 && k < s.cells; ++k) {
                        const uint32_t r = base + i * s.cells + k;
                        const gpu::EbpiRayGpu& ray = s.rays[r];
                        if (ray.objectA != object && ray.objectB != object) continue;
                        const gpu::EbpiTriangleHit h =
                            gpu::ebpiTraceTriangle(glm::vec3(ray.origin), glm::vec3(ray.direction), ray.origin.w,
                                                   ray.direction.w, p[0], p[1], p[2]);
                        if (h.hit) perRay[r].push_back({h.t, object, t, h.entering ? 1u : 0u, h.b1, h.b2, 0u, 0u});
                    }
            }
        }
    }
    CpuHits out;
    out.hitCapacity = hitCapacity;
    out.hits.resize(s.rays.size() * size_t(hitCapacity));
    for (size_t r = 0; r < s.rays.size(); ++r) {
        std::sort(perRay[r].begin(), perRay[r].end(), gpu::ebpiHitBefore);
        const uint32_t count = uint32_t(perRay[r].size());
        out.rayHits.push_back({count, count > hitCapacity ? 1u : 0u});
        std::copy_n(perRay[r].begin(), std::min(count, hitCapacity), out.hits.begin() + r * hitCapacity);
    }
    return out;
}

// The pair's volume (mean of the three axes' estimates) and the world gradient summed over one
// object's vertices (its translation derivative).
struct VolumeResult {
    EbpiPairVolume pair;
    double volume = 0;
    glm::dvec3 translationA{0.0}, translationB{0.0};
    std::vector<EbpiVertexGradient> gradientA, gradientB;
};

inline VolumeResult resolve(const VolumeScene& s, const EbpiVolumeFixed& fixed) {
    const std::array<glm::dvec3, 3> axes = {glm::dvec3(1, 0, 0), glm::dvec3(0, 1, 0), glm::dvec3(0, 0, 1)};
    VolumeResult out;
    out.pair = ebpiPairVolume(fixed, 0, s.pair);
    out.volume = (out.pair.volume[0] + out.pair.volume[1] + out.pair.volume[2]) / 3.0;
    out.gradientA = ebpiVertexGradients(fixed, s.pair.firstSlotA, uint32_t(s.objects[0].mesh->positions.size()),
                                        s.pair.gradientScale, axes);
    out.gradientB = ebpiVertexGradients(fixed, s.pair.firstSlotB, uint32_t(s.objects[1].mesh->positions.size()),
                                        s.pair.gradientScale, axes);
    for (const EbpiVertexGradient& g : out.gradientA) out.translationA += g.gradient;
    for (const EbpiVertexGradient& g : out.gradientB) out.translationB += g.gradient;
    return out;
}

inline EbpiVolumeFixed cpuFixed(const VolumeScene& s, const EbpiHitLists& lists) {
    return ebpiVolumeFixed(s.rayInfos, lists, std::span(&s.pair, 1), s.objectIndices(), s.gradientSlots());
}

inline VolumeResult cpuVolume(const VolumeScene& s, const CpuHits& hits) { return resolve(s, cpuFixed(s, hits.lists())); }

}  // namespace vkc::ebpi_test
