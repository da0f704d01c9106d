// Shared settings checks and defaults of the detectors; see detector_settings.h.
#include "collision/frames/detector_settings.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace vkc {

Status checkFramebufferResolution(const VulkanContext& ctx, uint32_t resolution, const char* settings) {
    const VkPhysicalDeviceLimits& limits = ctx.properties.limits;
    if (resolution > std::min(limits.maxFramebufferWidth, limits.maxFramebufferHeight))
        return makeError(ErrorCode::InvalidArgument, std::string(settings) + "::resolution " +
                                                         std::to_string(resolution) +
                                                         " exceeds the device's framebuffer size");
    return Status::success();
}

Status checkMaxObjects(uint32_t maxObjects, uint32_t limit, const char* settings) {
    if (maxObjects > limit)
        return makeError(ErrorCode::InvalidArgument, std::string(settings) + "::maxObjects " +
                                                         std::to_string(maxObjects) + " exceeds " + std::to_string(limit));
    return Status::success();
}

Status applyDetectorDefaults(DetectorSettings& common, uint32_t maxCandidatePairs, const char* settings,
                             uint32_t objectLimit) {
    if (common.framesInFlight == 0) common.framesInFlight = 2;
    if (common.maxObjects == 0) common.maxObjects = 4096;
    if (common.maxCandidatePairs == 0) common.maxCandidatePairs = maxCandidatePairs;
    return checkMaxObjects(common.maxObjects, objectLimit, settings);
}

bool validPixelDistance(float pixels) { return std::isfinite(pixels) && pixels >= 0.0f; }

}  // namespace vkc
