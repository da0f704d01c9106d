// The ldi method for the harness; see ldi_method.h.
#include "tools/cli/ldi_method.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cmath>

namespace vkc::tools {

Result<FrameResults> runLdiFrame(Context& context, LdiRunner& runner, const Scene& scene, const BroadphaseResults& pcs,
                                 LdiFrameDetails* details) {
    if (!runner.detector || pcs.pairs.size() > runner.detector->settings().maxPairs) {
        runner.settings.maxPairs = std::max<uint32_t>(runner.settings.maxPairs, uint32_t(pcs.pairs.size()));
        runner.detector.reset();
        auto detector = LdiDetector::create(context, runner.settings);
        if (!detector) return detector.status();
        runner.detector = std::move(detector.value());
    }
    // run() already adds the warning for a truncated PCS.
    return runner.detector->run(scene, pcs, details);
}

Result<std::vector<std::filesystem::path>> writeLdiImages(const LdiFrameDetails& details, const std::filesystem::path& dir,
                                                          size_t frame) {
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error) return makeError(ErrorCode::IoError, "--images: cannot create \"" + dir.string() + "\": " + error.message());
    std::vector<std::filesystem::path> written;
    for (const LdiPairDetails& pair : details.pairs) {
        const uint32_t res = pair.resolution;
        if (pair.intersectionDepth.size() != size_t(res) * res) continue;
        float largest = 0.0f;
        for (float length : pair.intersectionDepth) largest = std::max(largest, length);
        std::vector<uint8_t> grey(pair.intersectionDepth.size());
        for (size_t p = 0; p < grey.size(); ++p)
            grey[p] = largest > 0.0f ? uint8_t(std::lround(255.0f * pair.intersectionDepth[p] / largest)) : 0;
        const std::filesystem::path path = dir / ("frame" + std::to_string(frame) + "_pair" + std::to_string(pair.a) +
                                                  "-" + std::to_string(pair.b) + "_intersection_depth.png");
        if (!stbi_write_png(path.c_str(), int(res), int(res), 1, grey.data(), int(res)))
            return makeError(ErrorCode::IoError, "--images: cannot write \"" + path.string() + "\"");
        written.push_back(path);
    }
    return written;
}

}  // namespace vkc::tools
