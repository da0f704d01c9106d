// Method `ldi` (paper 2): the stated error bound of an LDI intersection volume, shared by the GPU
// detector and the CPU reference (collision/reference/ldi_cpu.h). Pure math over the meshes.
#pragma once

#include "collision/ldi/ldi_voi.h"
#include "shaders_glsl/shared/ldi.h"  // gpu::kLdiSubpixelSteps: the vertex snapping of GPU and reference
#include "vkcollide/mesh.h"

#include <glm/mat4x4.hpp>

#include <cstdint>

namespace vkc {

// Upper bound of |exact volume - LDI volume| for a pair at `resolution`, with exact depths.
// The LDI volume is the midpoint rule over the VoI's footprint: each pixel's area times the length
// inside both solids along its centre's column. Its error is bounded with method ebpi's machinery
// (collision/ebpi/README.md, "Why the bound holds"): every edge of both meshes that meets the
// boxes' overlap (EbpiEdgeRegion: only those bend the intersection's depth span) and every segment
// where their surfaces cross (ebpi_transient_edges.h) adds its crease or steep-wall term, at the
// LDI's pixel size, to every pixel its closed projected segment touches; a pixel's sum is capped
// at its column's volume (the length inside both solids lies in [0, the VoI's depth]), which keeps
// faces nearly parallel to the rays from stating a useless bound. The GPU rasterizes
// vertices snapped to 1/256 pixel and transformed in float: a surface moved laterally by at most d
// (2/256 of the pixel diagonal, as the snapping moves a vertex by at most 1/512) sweeps at most
// 2 d x its area, added over the triangles near the VoI.
// (Until this bound, ldi stated the Steiner volume of every triangle grown by half a pixel diagonal:
// sound, but 14-31% of the volume on the meshes README's pairs at 256^2.)
double ldiVolumeErrorBound(const MeshData& meshA, const glm::mat4& transformA, const MeshData& meshB,
                           const glm::mat4& transformB, const LdiVoi& voi, uint32_t resolution);

// Where ldi_drawn_bound.comp counts triangles, for a pair whose CPU positions may not be what the
// GPU drew (a mesh the host deforms in its own buffer): world coordinates relative to `origin` (the
// VoI overlap's low corner, so floats keep their precision near the pair), a triangle counting when
// its box meets [nearLo, nearHi], the overlap grown by the margin d = (1/2 + 2/256) pixel diagonals
// and by float rounding. The shader documents the bound (the volume of the tube of radius d
// around those triangles).
struct LdiDrawnBoundRegion {
    glm::dvec3 origin{0.0};
    glm::vec3 nearLo{0.0f}, nearHi{0.0f};
    float margin = 0.0f;  // d
};
LdiDrawnBoundRegion ldiDrawnBoundRegion(const LdiVoi& voi, uint32_t resolution);

// What float depths add on the GPU: every stored layer depth is off by at most 2^-20 of the VoI's
// depth range (stored as depth + 1 in [1, 2], spacing 2^-23, plus the rasterizer's interpolation
// of z), so each pixel's overlap length moves by at most (layersA + layersB) such steps, over the
// VoI's footprint: footprint area x depth range x (layersA + layersB) x 2^-20.
double ldiFloatDepthErrorBound(const LdiVoi& voi, uint32_t layersA, uint32_t layersB);

}  // namespace vkc
