// The ldi method for the harness; see ldi_method.h.
#include "tools/cli/ldi_method.h"

#include "tools/cli/frame_batches.h"
#include "tools/cli/grey_png.h"
#include "tools/cli/grow_to_need.h"
#include "tools/cli/pair_measures.h"

#include <glm/common.hpp>

#include <algorithm>

namespace vkc::tools {

namespace {

// A detector for batches of up to `pairs` pairs: the largest count the device's storage bindings
// hold at this resolution and layer cap (halving until create() accepts it). Only a single pair
// that does not fit is the caller's problem, and then create()'s message says what to lower.
Status ensureDetector(Context& context, LdiRunner& runner, uint32_t pairs) {
    if (runner.detector && runner.detector->settings().maxPairs >= pairs) return Status::success();
    if (runner.detector && runner.batchLimit != 0) return Status::success();  // already as large as fits
    runner.detector.reset();
    // The harness's layers may take half the device's memory, the rest left to the scene's buffers.
    if (runner.settings.layerMemoryBudget == 0) runner.settings.layerMemoryBudget = deviceInfo(context).deviceLocalBytes / 2;
    for (uint32_t maxPairs = std::max(pairs, 1u);; maxPairs = (maxPairs + 1) / 2) {
        runner.settings.maxPairs = maxPairs;
        auto detector = LdiDetector::create(context, runner.settings);
        if (detector) {
            runner.batchLimit = maxPairs < pairs ? maxPairs : 0;
            runner.detector = std::move(detector.value());
            return Status::success();
        }
        if (detector.status().code != ErrorCode::InvalidArgument || maxPairs == 1) return detector.status();
    }
}

void appendLdiDetails(LdiFrameDetails& frame, LdiFrameDetails&& batch) {
    for (LdiPairDetails& pair : batch.pairs) frame.pairs.push_back(std::move(pair));
    frame.renderPasses += batch.renderPasses;
    for (const LdiSelfIntersection& self : batch.selfIntersections) {
        auto same = std::find_if(frame.selfIntersections.begin(), frame.selfIntersections.end(),
                                 [&](const LdiSelfIntersection& s) { return s.object == self.object; });
        if (same == frame.selfIntersections.end()) {
            frame.selfIntersections.push_back(self);
            continue;
        }
        same->pixels += self.pixels;
        same->region.min = glm::min(same->region.min, self.region.min);
        same->region.max = glm::max(same->region.max, self.region.max);
    }
}

// The tightest answer for `pair` (a tested pair of `batch`) at finer resolutions, until its bound
// is at most runner.boundFraction of its volume's lower end (floored): its results and details
// replace the batch's. Stops where the device cannot bind a finer one (a warning says so).
Status refinePair(Context& context, LdiRunner& runner, const Scene& scene, const BroadphaseResults& batch,
                  LdiPairDetails& pair, FrameResults& frame) {
    const double floor = kLdiVolumeFloorFraction * smallerObjectSizeCubed(batch, pair.a, pair.b);
    auto refused = [&](const std::string& why) {  // the coarser answer stays, with why
        frame.warnings.push_back("ldi: pair " + std::to_string(pair.a) + "-" + std::to_string(pair.b) +
                                 ": its bound is above " + std::to_string(int(100 * runner.boundFraction)) +
                                 "% of its volume, and a finer resolution needs more than the device holds: " + why);
        return Status::success();
    };
    while (!pair.truncated && runner.boundFraction > 0.0 &&
           pair.volumeErrorBound > runner.boundFraction * std::max(pair.volume - pair.volumeErrorBound, floor) &&
           pair.resolution < kLdiMaxRefinedResolution) {
        LdiSettings finer = runner.detector->settings();
        finer.maxPairs = 1;
        finer.resolution = 2 * pair.resolution;
        // Only the layers this pair peeled (most pairs two or four): the finer image's memory goes
        // to pixels, not to other pairs' depth. Should it need more, its run() grows them.
        finer.layerCap = std::max({2u, pair.layersA, pair.layersB});
        if (!runner.refiner || runner.refiner->settings().resolution != finer.resolution ||
            runner.refiner->settings().layerCap != finer.layerCap) {
            runner.refiner.reset();
            auto created = LdiDetector::create(context, finer);
            if (!created) return refused(created.status().message);
            runner.refiner = std::move(created.value());
        }
        BroadphaseResults alone = batch;
        alone.pairs = {{pair.a, pair.b}};
        alone.pairCount = 1;
        alone.truncated = false;
        LdiFrameDetails aloneDetails;
        auto refined = runToNeed(
            context, runner.refiner, "ldi", alone, aloneDetails,
            [&](LdiDetector& current, LdiFrameDetails& out) { return current.run(scene, alone, &out); }, grownInPlace<LdiSettings, LdiFrameDetails>);
        if (!refined) return refined.status();
        if (aloneDetails.pairs.size() != 1) return Status::success();
        if (aloneDetails.pairs[0].truncated)  // its layers could not grow as far as it needed
            return refused(refined->warnings.empty() ? "its layers were cut" : refined->warnings.back());
        std::erase_if(frame.pairs, [&](const PairResult& p) { return p.a == pair.a && p.b == pair.b; });
        appendBatch(frame, std::move(refined.value()));
        pair = std::move(aloneDetails.pairs[0]);
    }
    return Status::success();
}

}  // namespace

Result<FrameResults> runLdiFrame(Context& context, LdiRunner& runner, const Scene& scene, const BroadphaseResults& pcs,
                                 LdiFrameDetails* details) {
    VKC_TRY(ensureDetector(context, runner, uint32_t(pcs.pairs.size())));
    if (details) *details = LdiFrameDetails{};
    return runInBatches(pcs, runner.detector->settings().maxPairs, [&](const BroadphaseResults& batch) -> Result<FrameResults> {
        LdiFrameDetails batchDetails;
        auto results = runToNeed(
            context, runner.detector, "ldi", batch, batchDetails,
            [&](LdiDetector& current, LdiFrameDetails& out) { return current.run(scene, batch, &out); }, grownInPlace<LdiSettings, LdiFrameDetails>);
        runner.settings.layerCap = runner.detector->settings().layerCap;  // later detectors start from it
        if (!results) return results;
        for (LdiPairDetails& pair : batchDetails.pairs)
            VKC_TRY(refinePair(context, runner, scene, batch, pair, results.value()));
        sortPairs(results.value());
        if (details) appendLdiDetails(*details, std::move(batchDetails));
        return results;
    });
}

Result<std::vector<std::filesystem::path>> writeLdiImages(const LdiFrameDetails& details, const std::filesystem::path& dir,
                                                          size_t frame) {
    VKC_TRY(makeImageDir(dir));
    std::vector<std::filesystem::path> written;
    for (const LdiPairDetails& pair : details.pairs) {
        const uint32_t res = pair.resolution;
        if (pair.intersectionDepth.size() != size_t(res) * res) continue;
        const std::filesystem::path path = dir / ("frame" + std::to_string(frame) + "_pair" + std::to_string(pair.a) +
                                                  "-" + std::to_string(pair.b) + "_intersection_depth.png");
        VKC_TRY(writeGreyPng(path, res, res, pair.intersectionDepth));
        written.push_back(path);
    }
    return written;
}

}  // namespace vkc::tools
