// `--method ldi` for the harness: one blocking frame of LdiDetector (paper 2, layered depth images)
// over the broadphase's potentially colliding set, as FrameResults for the report, and the
// per-pair intersection-depth images of `--images`.
#pragma once

#include "vkcollide/broadphase.h"
#include "vkcollide/ldi.h"
#include "vkcollide/results.h"
#include "vkcollide/scene.h"

#include <filesystem>
#include <optional>

namespace vkc::tools {

// The detector grows with the scene: created on the first frame, re-created with room for more
// pairs when a frame has more potentially colliding pairs than LdiSettings::maxPairs, up to what
// the device's storage bindings hold at the resolution and layer cap (then batchLimit says how many).
struct LdiRunner {
    LdiSettings settings;
    std::optional<LdiDetector> detector;
    uint32_t batchLimit = 0;  // 0: every frame so far fit one batch
    std::optional<LdiDetector> refiner;  // one pair at a finer resolution (runLdiFrame)
    // The largest bound asked of a pair, a fraction of its volume (below); 0 measures every pair
    // at settings.resolution alone, as the differential campaign does.
    double boundFraction = 0.2;
};

// LdiRunner::boundFraction: a pair whose bound is above that fraction of its volume runs again
// alone at twice the resolution, and again, up to kLdiMaxRefinedResolution or what the device
// binds. A volume below kLdiVolumeFloorFraction of the cube of the smaller object's size counts as
// that much (a grazing pair is bounded to a fraction of it, not of almost nothing).
inline constexpr double kLdiVolumeFloorFraction = 1e-4;
inline constexpr uint32_t kLdiMaxRefinedResolution = 4096;

// Pairs with their intersection volume, error bound and inside vertices; truncation (needed layers)
// and self-intersections are warnings. `details` (optional) receives layer counts per pair. A frame
// with more pairs than one detector holds on this device runs in batches, so no scene is refused
// for its number of pairs; only a single pair too large for the device is. Layers grow to the
// deepest pair's need, and a pair whose bound is above boundFraction of its volume is refined.
Result<FrameResults> runLdiFrame(Context& context, LdiRunner& runner, const Scene& scene, const BroadphaseResults& pcs,
                                 LdiFrameDetails* details = nullptr);

// One 8-bit grey PNG per tested pair in `dir`: frame<F>_pair<a>-<b>_intersection_depth.png, the
// overlap length of the inside intervals per pixel, black = 0, white = the pair's largest.
// Needs LdiSettings::keepImages. Returns the files written.
Result<std::vector<std::filesystem::path>> writeLdiImages(const LdiFrameDetails& details, const std::filesystem::path& dir,
                                                          size_t frame);

}  // namespace vkc::tools
