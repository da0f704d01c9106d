// Grey PNGs for --images; see grey_png.h.
#include "tools/cli/grey_png.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace vkc::tools {

Status writeGreyPng(const std::filesystem::path& path, uint32_t width, uint32_t height, std::span<const float> values) {
    float largest = 0.0f;
    for (float value : values) largest = std::max(largest, value);
    std::vector<uint8_t> grey(values.size());
    for (size_t p = 0; p < grey.size(); ++p)
        grey[p] = largest > 0.0f ? uint8_t(std::lround(255.0f * std::max(values[p], 0.0f) / largest)) : 0;
    if (!stbi_write_png(path.c_str(), int(width), int(height), 1, grey.data(), int(width)))
        return makeError(ErrorCode::IoError, "--images: cannot write \"" + path.string() + "\"");
    return Status::success();
}

Status makeImageDir(const std::filesystem::path& dir) {
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error) return makeError(ErrorCode::IoError, "--images: cannot create \"" + dir.string() + "\": " + error.message());
    return Status::success();
}

}  // namespace vkc::tools
