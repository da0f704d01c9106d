// The ldi method for the harness; see ldi_method.h.
#include "tools/cli/ldi_method.h"

#include "shaders_glsl/shared/ldi.h"
#include "tools/cli/frame_batches.h"
#include "tools/cli/grey_png.h"
#include "tools/cli/grow_to_need.h"

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

// Layers for the deepest pair a frame could not peel (grow_to_need.h): the cap follows the need.
std::optional<LdiSettings> grownLdiSettings(const LdiSettings& current, const LdiFrameDetails& frame) {
    uint32_t needed = current.layerCap;
    for (const LdiPairDetails& pair : frame.pairs)
        if (pair.truncated) needed = std::max(needed, std::min(pair.neededLayers, gpu::kLdiMaxLayerCap));
    if (needed == current.layerCap) return std::nullopt;
    LdiSettings grown = current;
    grown.layerCap = needed;
    return grown;
}

}  // namespace

Result<FrameResults> runLdiFrame(Context& context, LdiRunner& runner, const Scene& scene, const BroadphaseResults& pcs,
                                 LdiFrameDetails* details) {
    VKC_TRY(ensureDetector(context, runner, uint32_t(pcs.pairs.size())));
    if (details) *details = LdiFrameDetails{};
    return runInBatches(pcs, runner.detector->settings().maxPairs, [&](const BroadphaseResults& batch) {
        LdiFrameDetails batchDetails;
        auto results = runToNeed(
            context, runner.detector, "ldi", batch, batchDetails,
            [&](LdiDetector& current, LdiFrameDetails& out) { return current.run(scene, batch, &out); }, grownLdiSettings);
        runner.settings.layerCap = runner.detector->settings().layerCap;  // later detectors start from it
        if (results && details) appendLdiDetails(*details, std::move(batchDetails));
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
