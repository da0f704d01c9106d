// The ldi volume error bound of the shared unit cube pair (cube.stl, [-0.5, 0.5]^3, and itself
// moved by (0.5, 0.5, 0.5)), derived by hand from collision/ldi/ldi_error_bound.cpp's formula so that
// the ldi, GPU and CLI tests pin the bound itself, not only volumes within it.
//
// VoI: the overlap [0, 0.5]^3, not extended. placedMeshBounds pads each world box by one float ulp
// outward, so the overlap is 0.5 + 2^-24 wide (the pad below 0 is a denormal). Pixel sides
// w / res, and d = (1/2 + 2/256) * sqrt(wU^2 + wV^2) / res (half diagonal, snapping-widened).
// Triangles within d of the overlap: the 3 faces of A at +0.5 and the 3 faces of B at 0 (each
// triangle's box is its whole face); A's faces at -0.5 and B's at 1 are 0.5 away. So 12 right
// triangles with legs 1, area 1/2, perimeter 2 + sqrt(2), and the Steiner sum
//   bound = 12 (2 d 1/2 + (pi/2) d^2 (2 + sqrt 2) + (4/3) pi d^3) = 12 d + 6 pi (2 + sqrt 2) d^2 + 16 pi d^3
//   256^2: d = 1.40264729e-3, bound = 0.0168317675 + 1.2661604e-4 + 1.39e-7 = 0.0169585221892
//   512^2: d = 7.01323643e-4, bound = 0.0084158837 + 3.1654009e-5 + 1.7e-8  = 0.00844755506521
// The GPU adds ldiFloatDepthErrorBound: footprint w^2 x depth range w x (layersA + layersB) x 2^-20;
// each cube crosses the VoI's rays once (its face on its own outside plane): 1 + 1 layers, so
// 2 w^3 2^-20 = 2.38418664e-7.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>

namespace vkc::ldi_test {

inline constexpr double kUnitCubeOverlapWidth = 0.5 + 0x1p-24;
// The values above, at the scene of the ldi tests (the cube at the origin).
inline constexpr double kUnitCubePairBound256 = 0.0169585221892;
inline constexpr double kUnitCubePairBound512 = 0.00844755506521;
inline constexpr double kUnitCubePairDepthBound = 2.38418664e-7;

// The closed form above for a footprint of widthU x widthV (the CLI's scene sits at y = 100,
// where the float pad is 2^-17).
inline double unitCubePairBound(uint32_t resolution, double widthU = kUnitCubeOverlapWidth,
                                double widthV = kUnitCubeOverlapWidth) {
    constexpr double pi = std::numbers::pi;
    const double d = (0.5 + 2.0 / 256) * std::hypot(widthU, widthV) / resolution;
    return 12 * d + 6 * pi * (2 + std::numbers::sqrt2) * d * d + 16 * pi * d * d * d;
}

// ldiFloatDepthErrorBound for the pair's 2 layers.
inline double unitCubePairDepthBound(double widthU = kUnitCubeOverlapWidth, double widthV = kUnitCubeOverlapWidth,
                                     double depth = kUnitCubeOverlapWidth) {
    return widthU * widthV * depth * 2 * 0x1p-20;
}

}  // namespace vkc::ldi_test
