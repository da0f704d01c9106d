// Probing a physical device: properties, supported extensions and features, queue family, and
// which vkcollide requirements it lacks. Used to pick a headless device, to check an adopted
// one, and by listDevices for `vkcollide info`.
#pragma once

#include "vk/instance_functions.h"
#include "vkcollide/device_info.h"
#include "vkcollide/device_requirements.h"

#include <memory>
#include <string>
#include <vector>

namespace vkc {

struct PhysicalDeviceCaps {
    VkPhysicalDevice handle = VK_NULL_HANDLE;
    DeviceInfo info;
    uint32_t apiVersion = 0;  // min(instance API version, device API version)
    VkPhysicalDeviceProperties properties = {};
    std::vector<std::string> extensions;          // supported device extensions
    std::unique_ptr<DeviceFeatureChain> features;  // supported features
    uint32_t queueFamily = UINT32_MAX;            // first with graphics + compute; UINT32_MAX: none
    uint32_t timestampValidBits = 0;
    uint32_t subgroupSize = 0;
    FeatureSets supportedSets = kFeatureSetBase;  // the sets whose every requirement is there
};

Result<PhysicalDeviceCaps> probePhysicalDevice(const InstanceFunctions& vki, VkPhysicalDevice device,
                                               uint32_t instanceApiVersion, uint32_t index);
Result<std::vector<PhysicalDeviceCaps>> probePhysicalDevices(const InstanceFunctions& vki, VkInstance instance,
                                                             uint32_t instanceApiVersion);

}  // namespace vkc
