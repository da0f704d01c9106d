// The ebpi method for the harness; see ebpi_method.h.
#include "tools/cli/ebpi_method.h"

#include "tools/cli/frame_batches.h"
#include "tools/cli/grey_png.h"

#include <algorithm>
#include <cmath>

namespace vkc::tools {

double ebpiSceneTolerance(std::span<const reference::WorldBounds> objectBounds, double fraction) {
    double smallest = INFINITY;
    for (const reference::WorldBounds& bounds : objectBounds) {
        const glm::dvec3 side = bounds.max - bounds.min;
        smallest = std::min(smallest, std::max({side.x, side.y, side.z}));
    }
    return fraction * smallest * smallest * smallest;
}

Result<FrameResults> runEbpiFrame(Context& context, EbpiRunner& runner, const Scene& scene, const BroadphaseResults& pcs,
                                  EbpiFrameDetails* details) {
    if (!runner.detector) {
        auto created = EbpiDetector::create(context, runner.settings);
        if (!created) return created.status();
        runner.detector = std::move(created.value());
    }
    if (details) *details = EbpiFrameDetails{};
    // maxPairs counts pairs whose boxes overlap with a volume; candidates are at least as many.
    return runInBatches(pcs, runner.detector->settings().maxPairs, [&](const BroadphaseResults& batch) {
        EbpiFrameDetails batchDetails;
        auto results = runner.detector->run(scene, batch, &batchDetails);
        if (results && details) {
            for (EbpiPairDetails& pair : batchDetails.pairs) details->pairs.push_back(std::move(pair));
            details->totalRays += batchDetails.totalRays;
            details->raysTruncated = details->raysTruncated || batchDetails.raysTruncated;
            details->stageTimingsMs += batchDetails.stageTimingsMs;
        }
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
