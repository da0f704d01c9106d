// The ebpi method for the harness; see ebpi_method.h.
#include "tools/cli/ebpi_method.h"

#include "tools/cli/frame_batches.h"

#include <algorithm>

namespace vkc::tools {

Result<FrameResults> runEbpiFrame(Context& context, EbpiRunner& runner, const Scene& scene, const BroadphaseResults& pcs,
                                  EbpiFrameDetails* details) {
    if (!runner.detector) {
        auto created = EbpiDetector::create(context, runner.settings);
        if (!created) return created.status();
        runner.detector = std::move(created.value());
    }
    const size_t batchSize = runner.detector->settings().maxPairs;
    FrameResults frame;
    if (details) *details = EbpiFrameDetails{};
    // Batches run one after the other on the same detector: each is a blocking frame of its own.
    // maxPairs counts pairs whose boxes overlap with a volume; candidates are at least as many.
    for (size_t first = 0; first == 0 || first < pcs.pairs.size(); first += batchSize) {
        BroadphaseResults batch;
        batch.worldBounds = pcs.worldBounds;
        batch.pairs.assign(pcs.pairs.begin() + first, pcs.pairs.begin() + std::min(pcs.pairs.size(), first + batchSize));
        batch.pairCount = uint32_t(batch.pairs.size());
        batch.truncated = first == 0 && pcs.truncated;
        EbpiFrameDetails batchDetails;
        auto results = runner.detector->run(scene, batch, &batchDetails);
        if (!results) return results.status();
        appendBatch(frame, std::move(results.value()));
        if (details) {
            for (EbpiPairDetails& pair : batchDetails.pairs) details->pairs.push_back(std::move(pair));
            details->totalRays += batchDetails.totalRays;
            details->raysTruncated = details->raysTruncated || batchDetails.raysTruncated;
        }
        if (pcs.pairs.empty()) break;
    }
    sortPairs(frame);
    return frame;
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

}  // namespace vkc::tools
