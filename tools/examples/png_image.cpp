// PNG writing; see png_image.h.
#include "tools/examples/png_image.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace vkc::example {

bool writeRgbaPng(const std::filesystem::path& path, uint32_t width, uint32_t height, const uint8_t* pixels) {
    return stbi_write_png(path.c_str(), int(width), int(height), 4, pixels, int(width * 4)) != 0;
}

}  // namespace vkc::example
