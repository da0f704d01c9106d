// `--images` of the image-space methods that count per pixel: stencil's signed counts per view
// (paper 1, 4.1) and consistent-pairs' inconsistent back-face fragments (paper 3, 4.2), as 8-bit
// grey PNGs, black = 0, white = the image's largest count.
#pragma once

#include "vkcollide/consistent_pairs.h"
#include "vkcollide/stencil.h"

#include <filesystem>
#include <vector>

namespace vkc::tools {

// frame<F>_view<z|x|y>_stencil_counts.png per view (needs StencilSettings::keepImages); negative
// counts (an open mesh) show black, as zero. `resolution`: the detector's. Returns the files.
Result<std::vector<std::filesystem::path>> writeImages(const StencilFrameDetails& details, uint32_t resolution,
                                                       const std::filesystem::path& dir, size_t frame);

// frame<F>_inconsistent_pixels.png (needs ConsistentPairsSettings::keepImages). Returns the file.
Result<std::vector<std::filesystem::path>> writeImages(const ConsistentPairsFrameDetails& details, uint32_t resolution,
                                                       const std::filesystem::path& dir, size_t frame);

}  // namespace vkc::tools
