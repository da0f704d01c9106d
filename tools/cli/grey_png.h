// An 8-bit grey PNG of a float image (`--images`): black = 0, white = the image's largest value.
#pragma once

#include "vkcollide/status.h"

#include <cstdint>
#include <filesystem>
#include <span>

namespace vkc::tools {

// `values`: width x height, row-major. IoError naming the file when it cannot be written.
Status writeGreyPng(const std::filesystem::path& path, uint32_t width, uint32_t height, std::span<const float> values);

// Creates `dir` (and its parents) for --images; IoError naming it when that fails.
Status makeImageDir(const std::filesystem::path& dir);

}  // namespace vkc::tools
