// Per-pixel count PNGs; see count_images.h.
#include "tools/cli/count_images.h"

#include "tools/cli/grey_png.h"

#include <string>

namespace vkc::tools {

namespace {

template <class Count>
Status writeCounts(const std::filesystem::path& path, uint32_t resolution, const std::vector<Count>& counts) {
    return writeGreyPng(path, resolution, resolution, std::vector<float>(counts.begin(), counts.end()));
}

}  // namespace

Result<std::vector<std::filesystem::path>> writeImages(const StencilFrameDetails& details, uint32_t resolution,
                                                       const std::filesystem::path& dir, size_t frame) {
    VKC_TRY(makeImageDir(dir));
    constexpr const char* kViewAxes[] = {"z", "x", "y"};  // StencilFrameDetails' view order
    std::vector<std::filesystem::path> written;
    for (size_t view = 0; view < details.counts.size(); ++view) {
        written.push_back(dir / ("frame" + std::to_string(frame) + "_view" + kViewAxes[view] + "_stencil_counts.png"));
        VKC_TRY(writeCounts(written.back(), resolution, details.counts[view]));
    }
    return written;
}

Result<std::vector<std::filesystem::path>> writeImages(const ConsistentPairsFrameDetails& details, uint32_t resolution,
                                                       const std::filesystem::path& dir, size_t frame) {
    VKC_TRY(makeImageDir(dir));
    std::vector<std::filesystem::path> written;
    if (details.inconsistentImage.empty()) return written;  // keepImages was off
    written.push_back(dir / ("frame" + std::to_string(frame) + "_inconsistent_pixels.png"));
    VKC_TRY(writeCounts(written.back(), resolution, details.inconsistentImage));
    return written;
}

}  // namespace vkc::tools
