// `--method ebpi` for the harness: blocking frames of EbpiDetector (paper 5, adaptive ray sampling
// with the Error Bound Polynomial Image) over the broadphase's potentially colliding set, in
// batches of the detector's maxPairs, the `--gradient` file, and a tolerance scaled to a scene.
#pragma once

#include "collision/reference/world_mesh.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/ebpi.h"
#include "vkcollide/results.h"
#include "vkcollide/scene.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace vkc::tools {

// The fraction of the smallest object's size cubed that ebpiSceneTolerance takes by default: tight
// enough that the volumes mean something, loose enough for the default resolution and rays.
inline constexpr double kEbpiSceneToleranceFraction = 0.02;

// ebpi's tolerance for a scene, as `compare` and the differential campaign choose it when none is
// given: `fraction` of the cube of the smallest object's size (the largest side of its world box).
double ebpiSceneTolerance(std::span<const reference::WorldBounds> objectBounds,
                          double fraction = kEbpiSceneToleranceFraction);

struct EbpiRunner {
    EbpiSettings settings;  // tolerance from --tolerance
    std::optional<EbpiDetector> detector;
};

// Pairs with their intersection volume within the tolerance (or truncated, with the reason as a
// warning); `details` (optional) receives every tested pair's directions, rays and gradient.
Result<FrameResults> runEbpiFrame(Context& context, EbpiRunner& runner, const Scene& scene, const BroadphaseResults& pcs,
                                  EbpiFrameDetails* details = nullptr);

// One frame of the --gradient document: {"pairs": [{"a", "b", "gradient_a": [[vertex, gx, gy, gz], ...],
// "gradient_b": [...]}]}, vertices with a zero gradient left out.
nlohmann::json ebpiGradientJson(const EbpiFrameDetails& details);

// Two 8-bit grey PNGs per tested pair and direction in `dir` (needs EbpiSettings::keepImages):
// frame<F>_pair<a>-<b>_dir<k>_ebpi_bound.png (the EBPI's bound per pixel, paper 5's Fig. 6) and
// ..._rays.png (rays per pixel, Fig. 8); black = 0, white = the image's largest. Returns the files.
Result<std::vector<std::filesystem::path>> writeEbpiImages(const EbpiFrameDetails& details,
                                                           const std::filesystem::path& dir, size_t frame);

}  // namespace vkc::tools
