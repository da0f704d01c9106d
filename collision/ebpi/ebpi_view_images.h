// Method `ebpi`: one view's read-back EBPI and ray plan as pictures (EbpiViewImage, paper 5's
// Figs 6 and 8): each pixel's bound when sampled by one ray at its centre (its summed "touching"
// polynomial, decoded from the GPU's fixed point, at the pixel's size) and its rays (each emitted
// tile's rays spread evenly over the pixels the tile covers, so the image sums to the view's rays).
#pragma once

#include "collision/ebpi/ebpi_window.h"
#include "shaders_glsl/shared/ebpi_image.h"
#include "shaders_glsl/shared/ebpi_rays.h"
#include "vkcollide/ebpi.h"

#include <span>

namespace vkc {

// `pixels`: the view's width x height pixels; `tiles`: its pyramid's tiles (levels from the pixels up).
EbpiViewImage ebpiViewImage(const EbpiWindow& window, std::span<const gpu::EbpiPixelGpu> pixels,
                            std::span<const gpu::EbpiRayTileGpu> tiles);

}  // namespace vkc
