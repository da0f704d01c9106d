// Checks and defaults shared by the detectors' create(): the common settings part (detector.h) and
// settings the device must accommodate.
#pragma once

#include "vk/context.h"
#include "vkcollide/detector.h"

namespace vkc {

// InvalidArgument "<settings>::resolution N exceeds the device's framebuffer size" when a square
// render target of `resolution` pixels does not fit the framebuffer limits.
Status checkFramebufferResolution(const VulkanContext& ctx, uint32_t resolution, const char* settings);

// The most objects stencil accepts: its point list packs both ids in 16 bits each. Widening them
// alone would not make it a game world's method: it records §5.2's recount per object and view
// (two pipeline switches and two draws each), and a frame of 70,002 objects with those ids widened
// took over three minutes on lavapipe.
inline constexpr uint32_t kMaxPackedIdObjects = 65535;

// The most objects a method with 32-bit object ids accepts (aabb-tree, ldi, ebpi, consistent-pairs)
// is its per-object table's objectsPerBinding (vk/descriptors.h).

// InvalidArgument "<settings>::maxObjects N exceeds LIMIT" when maxObjects > limit.
Status checkMaxObjects(uint32_t maxObjects, uint32_t limit, const char* settings);

// Fills the zero fields of the common part with the documented defaults (detector.h), with
// `maxCandidatePairs` the method's own, and checks maxObjects against the method's `objectLimit`
// (checkMaxObjects) as `settings`.
Status applyDetectorDefaults(DetectorSettings& common, uint32_t maxCandidatePairs, const char* settings,
                             uint32_t objectLimit);

// A distance in pixels that may be used: finite and not negative.
bool validPixelDistance(float pixels);

}  // namespace vkc
