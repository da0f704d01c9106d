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
// The LDI volume integrates, over the VoI, the indicator of A∩B at the pixel-centre column of each
// point instead of at the point; the two differ only for points whose lateral shift to their pixel
// centre (at most d = half the pixel diagonal, widened by the 1/256-pixel vertex snapping) crosses
// the boundary of A∩B, which lies on the two surfaces. Those points are within d of a triangle, so
// the error is at most the sum, over triangles T of both meshes near the VoI, of the Steiner volume
// vol(T ⊕ ball(d)) = 2 d area(T) + (π/2) d² perimeter(T) + (4/3) π d³. The widening (2/256 pixel
// where snapping moves a vertex by 1/512) also covers float vertex transforms on the GPU.
double ldiVolumeErrorBound(const MeshData& meshA, const glm::mat4& transformA, const MeshData& meshB,
                           const glm::mat4& transformB, const LdiVoi& voi, uint32_t resolution);

// What float depths add on the GPU: every stored layer depth is off by at most 2^-20 of the VoI's
// depth range (stored as depth + 1 in [1, 2], spacing 2^-23, plus the rasterizer's interpolation
// of z), so each pixel's overlap length moves by at most (layersA + layersB) such steps, over the
// VoI's footprint: footprint area x depth range x (layersA + layersB) x 2^-20.
double ldiFloatDepthErrorBound(const LdiVoi& voi, uint32_t layersA, uint32_t layersB);

}  // namespace vkc
