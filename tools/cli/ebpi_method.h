// `--method ebpi` for the harness: blocking frames of EbpiDetector (paper 5, adaptive ray sampling
// with the Error Bound Polynomial Image) over the broadphase's potentially colliding set, in
// batches of the detector's maxPairs, and the `--gradient` file.
#pragma once

#include "vkcollide/broadphase.h"
#include "vkcollide/ebpi.h"
#include "vkcollide/results.h"
#include "vkcollide/scene.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace vkc::tools {

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

}  // namespace vkc::tools
