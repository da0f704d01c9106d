// Method `ebpi`, stage 7 on the CPU: the reference of shaders_glsl/ebpi_volume.comp. From the
// casting's sorted hit lists, per (pair, axis) the intersection volume (paper 5, Eq. 1: sum over
// rays of tile area x length inside both solids) and per vertex its gradient (Eq. 2), in the
// GPU's fixed point (shaders_glsl/shared/ebpi_volume.h), then decoded to doubles in world space.
//
// Gradient: a ray along the unit direction a meets a triangle at barycentrics (b0, b1, b2); moving
// vertex k by eps a moves that hit by eps b_k along the ray (the hit's projection, hence its
// barycentrics, stays put). The length inside both changes only through the hits that bound its
// intervals: +b_k at an exit from "inside both", -b_k at an entry. So
//   dV / d(p_k . a) = sum over the rays along a of tile area x (+-b_k at the boundary hits on k's triangles),
// and the three orthogonal directions a_0..a_2 give the world gradient sum_j (dV / d(p_k . a_j)) a_j.
// Paper 5's Eq. 2 is the same sum written with z measured upwards: S_z^+ (upper surfaces of the
// intersection, where a ray along +z exits) counts +dz^+/dp = +b_k, S_z^- (lower, entries) -b_k,
// and the pixel area w uniform. Here each ray carries its own tile area (adaptive tiles, Sec. 4.3),
// and which hits bound "inside both" is decided from per-object entry/exit depths, not from
// depth-peeled layers. Eq. 2 names only the component along the viewing axis; like the paper (and
// Faure 2008) the other components come from the other two directions' rays.
//
// Parity: per object, the hits (at equal t entries before exits) must never leave more than they
// entered and must balance at the end; a ray that fails (an open mesh, a missed or doubled
// crossing, a hit of a third object) or whose list was truncated adds nothing and is counted.
#pragma once

#include "shaders_glsl/shared/ebpi_trace.h"
#include "shaders_glsl/shared/ebpi_volume.h"

#include <glm/vec3.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace vkc {

// The casting's output as read back: ray r's hits in slots r * hitCapacity.., sorted.
struct EbpiHitLists {
    uint32_t hitCapacity = 1;
    std::span<const gpu::EbpiRayHitsGpu> rayHits;
    std::span<const gpu::EbpiHitGpu> hits;
};

// The GPU's outputs, same layout and words.
struct EbpiVolumeFixed {
    std::vector<gpu::EbpiPairVolumeGpu> sums;  // [pair * 3 + axis]
    std::vector<uint32_t> gradientWords;       // [(slot * 3 + axis) * 2 + word]
};

// objectIndices[o]: object o's triangle vertex indices (EbpiHitGpu::triangle * 3 + corner).
EbpiVolumeFixed ebpiVolumeFixed(std::span<const gpu::EbpiVolumeRayGpu> rayInfos, const EbpiHitLists& hits,
                                std::span<const gpu::EbpiVolumePairGpu> pairs,
                                const std::vector<std::span<const uint32_t>>& objectIndices, uint32_t gradientSlots);

// Power-of-two scales for a pair whose views have window areas <= extent^2 and depth ranges
// <= extent: a view's volume sum stays below 2^50 quanta (shaders_glsl/shared/ebpi_volume.h), one
// gradient contribution below 2^35 (half its overflow limit).
struct EbpiVolumeScales {
    double volumeScale = 1;
    double gradientScale = 1;
};
EbpiVolumeScales ebpiVolumeScales(double extent);

// A 64-bit two's-complement sum from its (low, high) words.
int64_t ebpiFixedSum(uint32_t low, uint32_t high);

// One pair's results in doubles.
struct EbpiPairVolume {
    std::array<double, 3> volume{};         // per axis (each its own estimate of the volume)
    std::array<double, 3> roundingBound{};  // |volume - unrounded sum| <= rays / (2 volumeScale)
    // Bound on the rounding of any sum of one axis's gradient components (3 roundings per boundary hit).
    std::array<double, 3> gradientRoundingBound{};
    std::array<uint32_t, 3> rays{}, oddRays{}, truncatedRays{}, boundaryHits{};
    bool overflow = false;
};
EbpiPairVolume ebpiPairVolume(const EbpiVolumeFixed& fixed, uint32_t pair, const gpu::EbpiVolumePairGpu& info);

struct EbpiVertexGradient {
    uint32_t vertex;
    glm::dvec3 gradient;  // dV / d(world position of the vertex)
};
// Vertices firstSlot .. firstSlot + vertexCount - 1 of the gradient slots, rotated from the pair's
// axes (orthonormal, world space) to world; vertices whose three sums are zero are left out.
std::vector<EbpiVertexGradient> ebpiVertexGradients(const EbpiVolumeFixed& fixed, uint32_t firstSlot,
                                                    uint32_t vertexCount, double gradientScale,
                                                    const std::array<glm::dvec3, 3>& axes);

}  // namespace vkc
