// Checks shared by the image-space detectors' create(): settings the device must accommodate.
#pragma once

#include "vk/context.h"

namespace vkc {

// InvalidArgument "<settings>::resolution N exceeds the device's framebuffer size" when a square
// render target of `resolution` pixels does not fit the framebuffer limits.
Status checkFramebufferResolution(const VulkanContext& ctx, uint32_t resolution, const char* settings);

// A distance in pixels that may be used: finite and not negative.
bool validPixelDistance(float pixels);

}  // namespace vkc
