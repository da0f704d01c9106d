// `--method ebpi` for the harness: blocking frames of EbpiDetector (paper 5, adaptive ray sampling
// with the Error Bound Polynomial Image) over the broadphase's potentially colliding set, in
// batches of the detector's maxPairs, with capacities that follow each frame's need and a
// tolerance that may be a fraction of each pair's own volume; and the `--gradient` file.
#pragma once

#include "vkcollide/broadphase.h"
#include "vkcollide/ebpi.h"
#include "vkcollide/results.h"
#include "vkcollide/scene.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace vkc::tools {

// ebpi's tolerance as the harness takes it (`--tolerance`): "V", an absolute volume error per
// pair in world units cubed, or "P%", P percent of each pair's own intersection volume.
struct EbpiTolerance {
    double value = 0.0;
    bool ofPairVolume = false;  // value is a fraction (0.02 for "2%")
};

// `compare`'s and the differential campaign's tolerance when none is given: 2% of each pair's volume.
inline constexpr EbpiTolerance kDefaultEbpiTolerance{0.02, true};

// InvalidArgument naming the text unless it is a finite volume > 0 or a percentage in (0, 100].
Result<EbpiTolerance> parseEbpiTolerance(const std::string& text);
std::string optionText(const EbpiTolerance& tolerance);  // as --tolerance takes it: "0.001" or "2%"

// Below this fraction of the cube of a pair's smaller object's size (the largest side of its world
// box), a pair's volume counts as this much when its tolerance is a fraction of its volume: a pair
// that barely overlaps, or not at all, is bounded to that fraction of this volume instead of chasing
// a tolerance of zero. Nor does it go below this many times what the pair's float coordinates
// resolve (EbpiPairDetails::floatRoundingBound), which no tolerance can beat.
inline constexpr double kEbpiVolumeFloorFraction = 1e-3;
inline constexpr double kEbpiFloatFloorFactor = 2.0;

// The tolerance an answer of a pair of intersection volume `volume` meets: an absolute tolerance
// as it is; a fraction of `volume`, floored as above (`sizeCubed`: the cube of the larger side of
// the smaller of the pair's world boxes: smallerObjectSizeCubed, pair_measures.h).
double ebpiPairTolerance(const EbpiTolerance& tolerance, double volume, double sizeCubed, double floatRoundingBound);

struct EbpiRunner {
    EbpiSettings settings;   // its tolerance is set per run from `tolerance`
    EbpiTolerance tolerance;
    std::optional<EbpiDetector> detector;  // grown as frames need (grow_to_need.h)
    // The last frame's pairs whose tolerance needs more than the device holds, even alone: each is
    // `truncated`, or, for a fraction of its volume, the tightest answer the device held with a
    // warning (its bound above the asked one).
    std::vector<ObjectPair> beyondDevice;
    bool passesTheDevice(ObjectPair pair) const {
        return std::find(beyondDevice.begin(), beyondDevice.end(), pair) != beyondDevice.end();
    }
};

// Pairs with their intersection volume within the tolerance (or truncated, with the reason as a
// warning); `details` (optional) receives every tested pair's directions, rays and gradient.
// A frame that needs more rays, hit slots, triangle or node pairs, or a finer EBPI than the
// detector holds runs again on a larger one; a batch whose need the device cannot bind at once
// runs pair by pair. With a fraction of each pair's volume, the batch runs first at a tolerance
// from its boxes' overlaps, then each pair whose bound is above the fraction of its volume's lower
// end (volume - bound) again at that, until it meets it (or is truncated where the device cannot).
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
