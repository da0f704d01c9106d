// Fills a VolkDeviceTable through vkGetDeviceProcAddr (volk's global loader is never used).
#pragma once

#include <volk.h>

namespace vkc {

// Entries the device lacks stay null. Core 1.3 entries (vkCmdPipelineBarrier2, vkQueueSubmit2,
// vkCmdBeginRendering, ...) fall back to their KHR names on 1.2 devices, so callers use one name.
void loadDeviceTable(VolkDeviceTable& table, VkDevice device, PFN_vkGetDeviceProcAddr getDeviceProcAddr);

}  // namespace vkc
