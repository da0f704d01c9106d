// Checks and defaults shared by the detectors' create(): the common settings part (detector.h) and
// settings the device must accommodate.
#pragma once

#include "vk/context.h"
#include "vkcollide/detector.h"

namespace vkc {

// InvalidArgument "<settings>::resolution N exceeds the device's framebuffer size" when a square
// render target of `resolution` pixels does not fit the framebuffer limits.
Status checkFramebufferResolution(const VulkanContext& ctx, uint32_t resolution, const char* settings);

// The most objects a detector accepts: ids are packed in 16 bits (stencil's point list), and a
// pair index front * count + object must fit in 32 bits (consistent-pairs, 65535^2 - 1 < 2^32).
inline constexpr uint32_t kMaxDetectorObjects = 65535;

// InvalidArgument "<settings>::maxObjects N exceeds 65535" when maxObjects > kMaxDetectorObjects.
Status checkMaxObjects(uint32_t maxObjects, const char* settings);

// Fills the zero fields of the common part with the documented defaults (detector.h), with
// `maxCandidatePairs` the method's own, and checks maxObjects (checkMaxObjects) as `settings`.
Status applyDetectorDefaults(DetectorSettings& common, uint32_t maxCandidatePairs, const char* settings);

// A distance in pixels that may be used: finite and not negative.
bool validPixelDistance(float pixels);

}  // namespace vkc
