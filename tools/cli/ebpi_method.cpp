// The ebpi method for the harness; see ebpi_method.h.
#include "tools/cli/ebpi_method.h"

#include "tools/cli/frame_batches.h"
#include "tools/cli/grey_png.h"
#include "tools/cli/grow_to_need.h"
#include "tools/cli/pair_measures.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace vkc::tools {

namespace {

// Per-pixel splits past maxSplit need a finer EBPI; this is as fine as the harness makes it.
constexpr uint32_t kMaxGrownResolution = 1024;
// A fraction of each pair's volume: at most this many runs of one pair after its batch's.
constexpr int kMaxRefinements = 8;

// What a frame needed beyond `current` that the detector cannot grow in place (grow_to_need.h):
// triangle and node pairs for the surfaces' crossings, a finer EBPI where every pixel split
// maxSplit x maxSplit still missed the tolerance. Rays and hit slots the detector's own run() grows
// (EbpiSettings::rayMemoryBudget); what it could not grow is left in `raysCut`.
std::optional<EbpiSettings> grownEbpiSettings(const EbpiSettings& current, const EbpiFrameDetails& frame) {
    EbpiSettings grown = current;
    if (frame.trianglePairs > current.trianglePairCapacity)
        grown.trianglePairCapacity = capacityFor(frame.trianglePairs, current.trianglePairCapacity);
    if (frame.nodePairsNeeded > 0)  // a lower bound of the need, as aabb-tree's: at least double
        grown.nodePairCapacity =
            capacityFor(std::max<uint64_t>(frame.nodePairsNeeded, 2ull * current.nodePairCapacity), current.nodePairCapacity);
    for (const EbpiPairDetails& pair : frame.pairs)
        if (pair.boundNotMet && current.resolution < kMaxGrownResolution) grown.resolution = 2 * current.resolution;
    if (grown.trianglePairCapacity == current.trianglePairCapacity && grown.nodePairCapacity == current.nodePairCapacity &&
        grown.resolution == current.resolution)
        return std::nullopt;
    return grown;
}

// A frame whose rays or hit slots the detector could not grow to its need (past its ray budget,
// one binding, or 2^26 hit slots).
bool raysCut(const EbpiFrameDetails& frame) {
    return frame.raysTruncated ||
           std::any_of(frame.pairs.begin(), frame.pairs.end(), [](const EbpiPairDetails& p) { return p.truncatedRays > 0; });
}

void appendEbpiDetails(EbpiFrameDetails& frame, EbpiFrameDetails&& batch) {
    for (EbpiPairDetails& pair : batch.pairs) frame.pairs.push_back(std::move(pair));
    frame.totalRays += batch.totalRays;
    frame.raysTruncated = frame.raysTruncated || batch.raysTruncated;
    frame.trianglePairs += batch.trianglePairs;
    frame.nodePairsNeeded = std::max(frame.nodePairsNeeded, batch.nodePairsNeeded);
    frame.stageTimingsMs += batch.stageTimingsMs;
}

// The runner's detector at `tolerance` with room for `pairs` pairs (exactly that many with
// `exactPairs`: a detector for one pair leaves the memory of three more to a finer EBPI), and the
// capacities it has grown to so far. When create() refuses, the old detector stays.
Status useDetector(Context& context, EbpiRunner& runner, double tolerance, uint32_t pairs, bool exactPairs = false) {
    if (runner.detector) {
        const EbpiSettings& current = runner.detector->settings();
        if (exactPairs ? current.maxPairs == pairs : current.maxPairs >= pairs)
            return runner.detector->setTolerance(tolerance);  // nothing re-created
    }
    EbpiSettings settings = runner.detector ? runner.detector->settings() : runner.settings;
    settings.tolerance = tolerance;
    // The harness's rays may take half the device's memory, the rest left to the scene's buffers.
    if (settings.rayMemoryBudget == 0) settings.rayMemoryBudget = deviceInfo(context).deviceLocalBytes / 2;
    if (exactPairs || (settings.maxPairs != 0 && settings.maxPairs < pairs)) settings.maxPairs = pairs;
    auto created = EbpiDetector::create(context, settings);
    if (!created) return created.status();
    runner.detector.reset();
    runner.detector = std::move(created.value());
    return Status::success();
}

BroadphaseResults onePair(const BroadphaseResults& batch, ObjectPair pair) {
    BroadphaseResults one;
    one.worldBounds = batch.worldBounds;
    one.pairs = {pair};
    one.pairCount = 1;
    return one;
}

// One batch at an absolute tolerance, grown to its need. Where the device cannot hold the batch's
// need at once, pair by pair; where it cannot hold one pair's, on a detector for that pair alone.
Result<FrameResults> runGrown(Context& context, EbpiRunner& runner, const Scene& scene, const BroadphaseResults& batch,
                              double tolerance, EbpiFrameDetails& details) {
    const bool single = batch.pairs.size() < 2;
    const Status ready = useDetector(context, runner, tolerance, uint32_t(std::max<size_t>(1, batch.pairs.size())));
    if (!ready.ok() && (single || ready.code != ErrorCode::InvalidArgument)) return ready;
    if (ready.ok()) {
        auto results = runToNeed(
            context, runner.detector, "ebpi", batch, details,
            [&](EbpiDetector& current, EbpiFrameDetails& out) { return current.run(scene, batch, &out); },
            grownEbpiSettings);
        if (!results || !(grownEbpiSettings(runner.detector->settings(), details) || raysCut(details))) return results;
        if (single) {
            if (runner.detector->settings().maxPairs == 1) {  // as far as this device goes
                runner.beyondDevice.push_back(batch.pairs.front());
                return results;
            }
            VKC_TRY(useDetector(context, runner, tolerance, 1, true));
            return runGrown(context, runner, scene, batch, tolerance, details);
        }
    }
    FrameResults frame;
    details = EbpiFrameDetails{};
    for (const ObjectPair& pair : batch.pairs) {
        EbpiFrameDetails pairDetails;
        auto alone = runGrown(context, runner, scene, onePair(batch, pair), tolerance, pairDetails);
        if (!alone) return alone.status();
        appendBatch(frame, std::move(alone.value()));
        appendEbpiDetails(details, std::move(pairDetails));
    }
    sortPairs(frame);
    return frame;
}

// The first tolerance of a batch whose tolerance is a fraction of each pair's volume: loose, that
// fraction of the largest pair's guess, a quarter of its boxes' overlap (every pair's volume is at
// most its boxes' overlap). Each pair then runs alone at its own, from what this run measured.
double pilotTolerance(const BroadphaseResults& batch, const EbpiTolerance& tolerance) {
    double largest = 0.0;
    for (const ObjectPair& pair : batch.pairs) largest = std::max(largest, boxOverlapVolume(batch, pair) / 4);
    return largest > 0.0 ? tolerance.value * largest : tolerance.value;
}

// The tolerance a pair's answer must meet: the fraction of its volume's lower end, volume - bound,
// floored (ebpiPairTolerance); for an absolute tolerance, that.
double pairTolerance(const EbpiTolerance& tolerance, const EbpiPairDetails& pair, const BroadphaseResults& pcs) {
    return ebpiPairTolerance(tolerance, pair.volume - pair.volumeErrorBound, smallerObjectSizeCubed(pcs, pair.a, pair.b),
                             pair.floatRoundingBound);
}

// Replaces pair (a, b)'s result and details in a batch's answer by those of its own run.
void replacePair(FrameResults& frame, EbpiFrameDetails& details, FrameResults&& alone, EbpiFrameDetails&& aloneDetails,
                 const EbpiPairDetails& pair) {
    std::erase_if(frame.pairs, [&](const PairResult& p) { return p.a == pair.a && p.b == pair.b; });
    auto stale = std::find_if(details.pairs.begin(), details.pairs.end(),
                              [&](const EbpiPairDetails& p) { return p.a == pair.a && p.b == pair.b; });
    *stale = std::move(aloneDetails.pairs.front());
    aloneDetails.pairs.clear();
    appendEbpiDetails(details, std::move(aloneDetails));
    appendBatch(frame, std::move(alone));  // the replaced answer was not truncated: the frame's flag stays right
}

// A batch whose tolerance is a fraction of each pair's volume (ebpi_method.h).
Result<FrameResults> runAtVolumeFraction(Context& context, EbpiRunner& runner, const Scene& scene,
                                         const BroadphaseResults& batch, EbpiFrameDetails& details) {
    const EbpiTolerance& asked = runner.tolerance;
    auto results = runGrown(context, runner, scene, batch, pilotTolerance(batch, asked), details);
    if (!results) return results;
    FrameResults& frame = results.value();
    for (size_t i = 0; i < details.pairs.size(); ++i) {
        EbpiPairDetails pair = details.pairs[i];
        for (int round = 0; round < kMaxRefinements && !pair.truncated; ++round) {
            const double target = pairTolerance(asked, pair, batch);
            if (pair.volumeErrorBound <= target) break;
            // A bound too loose to say the volume's size tightens by steps instead of at once.
            const double tolerance = std::max(target, pair.volumeErrorBound / 8);
            EbpiFrameDetails aloneDetails;
            auto alone = runGrown(context, runner, scene, onePair(batch, {pair.a, pair.b}), tolerance, aloneDetails);
            if (!alone) return alone.status();
            if (aloneDetails.pairs.empty()) break;  // not tested alone: cannot happen for a tested pair
            EbpiPairDetails refined = aloneDetails.pairs.front();
            if (refined.truncated && runner.passesTheDevice({pair.a, pair.b})) {
                // The tightest answer the device holds stays, bound and all, and says so.
                frame.warnings.push_back("ebpi: pair (" + std::to_string(pair.a) + ", " + std::to_string(pair.b) +
                                         "): its bound " + std::to_string(pair.volumeErrorBound) + " is above " +
                                         optionText(asked) + " of its volume (" + std::to_string(target) +
                                         "); a tighter one needs more than the device holds");
                break;
            }
            replacePair(frame, details, std::move(alone.value()), std::move(aloneDetails), pair);
            pair = std::move(refined);
        }
    }
    sortPairs(frame);
    return results;
}

}  // namespace

double ebpiPairTolerance(const EbpiTolerance& tolerance, double volume, double sizeCubed, double floatRoundingBound) {
    if (!tolerance.ofPairVolume) return tolerance.value;
    return std::max(tolerance.value * std::max(volume, kEbpiVolumeFloorFraction * sizeCubed),
                    kEbpiFloatFloorFactor * floatRoundingBound);
}

Result<EbpiTolerance> parseEbpiTolerance(const std::string& text) {
    const bool percent = !text.empty() && text.back() == '%';
    const std::string number = percent ? text.substr(0, text.size() - 1) : text;
    char* end = nullptr;
    const double value = std::strtod(number.c_str(), &end);
    const bool parsed = !number.empty() && end == number.c_str() + number.size() && std::isfinite(value) && value > 0.0;
    if (!parsed || (percent && value > 100.0))
        return makeError(ErrorCode::InvalidArgument,
                         "--tolerance \"" + text +
                             "\": must be a finite volume > 0 (world units cubed per pair) or a percentage in (0, 100] "
                             "of each pair's volume, such as 2%");
    return EbpiTolerance{percent ? value / 100.0 : value, percent};
}

std::string optionText(const EbpiTolerance& tolerance) {
    std::ostringstream out;
    if (tolerance.ofPairVolume) out << 100.0 * tolerance.value << "%";
    else out << tolerance.value;
    return out.str();
}

Result<FrameResults> runEbpiFrame(Context& context, EbpiRunner& runner, const Scene& scene, const BroadphaseResults& pcs,
                                  EbpiFrameDetails* details) {
    VKC_TRY(useDetector(context, runner,
                        runner.tolerance.ofPairVolume ? pilotTolerance(pcs, runner.tolerance) : runner.tolerance.value, 1));
    if (details) *details = EbpiFrameDetails{};
    runner.beyondDevice.clear();
    // maxPairs counts pairs whose boxes overlap with a volume; candidates are at least as many.
    return runInBatches(pcs, runner.detector->settings().maxPairs, [&](const BroadphaseResults& batch) {
        EbpiFrameDetails batchDetails;
        auto results = runner.tolerance.ofPairVolume
                           ? runAtVolumeFraction(context, runner, scene, batch, batchDetails)
                           : runGrown(context, runner, scene, batch, runner.tolerance.value, batchDetails);
        if (results && details) appendEbpiDetails(*details, std::move(batchDetails));
        return results;
    });
}

nlohmann::json ebpiGradientJson(const EbpiFrameDetails& details) {
    auto entries = [](const std::vector<EbpiVertexGradientEntry>& gradient) {
        nlohmann::json out = nlohmann::json::array();
        for (const EbpiVertexGradientEntry& g : gradient)
            out.push_back({g.vertex, g.gradient.x, g.gradient.y, g.gradient.z});
        return out;
    };
    nlohmann::json pairs = nlohmann::json::array();
    for (const EbpiPairDetails& p : details.pairs) {
        if (p.truncated) continue;  // no volume, so no gradient either
        pairs.push_back({{"a", p.a}, {"b", p.b}, {"gradient_a", entries(p.gradientA)}, {"gradient_b", entries(p.gradientB)}});
    }
    return {{"pairs", pairs}};
}

Result<std::vector<std::filesystem::path>> writeEbpiImages(const EbpiFrameDetails& details,
                                                           const std::filesystem::path& dir, size_t frame) {
    VKC_TRY(makeImageDir(dir));
    std::vector<std::filesystem::path> written;
    for (const EbpiPairDetails& pair : details.pairs)
        for (uint32_t direction = 0; direction < 3; ++direction) {
            const EbpiViewImage& image = pair.images[direction];
            if (image.bound.empty()) continue;
            const std::string stem = "frame" + std::to_string(frame) + "_pair" + std::to_string(pair.a) + "-" +
                                     std::to_string(pair.b) + "_dir" + std::to_string(direction) + "_ebpi_";
            for (const auto& [values, name] : {std::pair{&image.bound, "bound"}, std::pair{&image.rays, "rays"}}) {
                written.push_back(dir / (stem + name + ".png"));
                VKC_TRY(writeGreyPng(written.back(), image.width, image.height, *values));
            }
        }
    return written;
}

}  // namespace vkc::tools
