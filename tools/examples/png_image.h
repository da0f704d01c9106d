// RGBA8 images to PNG files (stb_image_write).
#pragma once

#include <cstdint>
#include <filesystem>

namespace vkc::example {

// False when the file cannot be written.
bool writeRgbaPng(const std::filesystem::path& path, uint32_t width, uint32_t height, const uint8_t* pixels);

}  // namespace vkc::example
