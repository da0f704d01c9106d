// The ldi volume error bound of the shared unit cube pair (cube.stl, [-0.5, 0.5]^3, and itself
// moved by (0.5, 0.5, 0.5)), derived by hand from collision/ldi/ldi_error_bound.cpp's formula so that
// the ldi, GPU and CLI tests pin the bound itself, not only volumes within it.
//
// VoI: the overlap [0, 0.5]^3, not extended. placedMeshBounds pads each world box by one float ulp
// outward, so the overlap is W = 0.5 + 2^-24 wide (the pad below 0 is a denormal). Pixels of
// p_u x p_v = W_u / res x W_v / res over the footprint [0, W_u] x [0, W_v].
// Midpoint terms (method ebpi's, along the view axis): each cube's caps are level (depth gradient
// 0) and its four sides are steep and form one wall of depth 1. Cap diagonals bend nothing; edges
// between two sides project into the wall (no term); each cap's four border edges carry the wall
// term (p_u p_v / 2)(1 / 2). In the footprint: A's border edges on u = 0.5 and v = 0.5 (two caps
// each: 4 edges) and B's on u = 0 and v = 0 (4 edges), each touching res pixels (0.5 lies inside
// the last column; 0 on the first one's border). The surfaces cross only where a side is steep,
// which the sides' own wall terms cover: no crossing terms. So 8 res p_u p_v / 4 = 2 W_u W_v / res,
// less the cap: a pixel's sum is at most its column's volume p_u p_v D (D, the depth range, = W).
// The four corner pixels of the footprint each meet four edges (two lines of two caps' edges):
// p_u p_v where p_u p_v D is allowed, so 4 p_u p_v (1 - D) comes off; every other pixel meets two.
// Snapping: d = 2/256 x the pixel diagonal; triangles within d of the overlap are those of A's
// three faces at +0.5 and B's three at 0, area 6: 2 d 6 = 12 d.
//   bound = 2 W_u W_v / res - 4 p_u p_v (1 - D) + 12 (2/256) hypot(W_u, W_v) / res
//   256^2: 0.0019531402 - 0.0000076294 + 0.0002589355 = 0.00220444633834
//   512^2: 0.0009765701 - 0.0000019073 + 0.0001294678 = 0.00110413051803
// (The previous bound, the Steiner volume of those 12 triangles grown by half a pixel diagonal, was
// 0.01696 at 256^2: 7.7 times this one.)
// The GPU adds ldiFloatDepthErrorBound: footprint w^2 x depth range w x (layersA + layersB) x 2^-20;
// each cube crosses the VoI's rays once (its face on its own outside plane): 1 + 1 layers, so
// 2 w^3 2^-20 = 2.38418664e-7.
#pragma once

#include <cmath>
#include <cstdint>

namespace vkc::ldi_test {

inline constexpr double kUnitCubeOverlapWidth = 0.5 + 0x1p-24;
// The values above, at the scene of the ldi tests (the cube at the origin).
inline constexpr double kUnitCubePairBound256 = 0.00220444633834;
inline constexpr double kUnitCubePairBound512 = 0.00110413051803;
inline constexpr double kUnitCubePairDepthBound = 2.38418664e-7;

// The closed form above for a footprint of widthU x widthV and a depth range `depth` (the CLI's
// scene sits at y = 100, where the float pad is 2^-17).
inline double unitCubePairBound(uint32_t resolution, double widthU = kUnitCubeOverlapWidth,
                                double widthV = kUnitCubeOverlapWidth, double depth = kUnitCubeOverlapWidth) {
    const double pixelArea = (widthU / resolution) * (widthV / resolution);
    return 2 * widthU * widthV / resolution - 4 * pixelArea * (1 - depth) +
           12 * (2.0 / 256) * std::hypot(widthU, widthV) / resolution;
}

// ldiFloatDepthErrorBound for the pair's 2 layers.
inline double unitCubePairDepthBound(double widthU = kUnitCubeOverlapWidth, double widthV = kUnitCubeOverlapWidth,
                                     double depth = kUnitCubeOverlapWidth) {
    return widthU * widthV * depth * 2 * 0x1p-20;
}

}  // namespace vkc::ldi_test
