// The feature structs behind vkc::DeviceFeatureChain, for the library and its tests: the public
// header can only name them (vkcollide/vulkan_types.h).
#pragma once

#include "vkcollide/device_requirements.h"

#include <vulkan/vulkan_core.h>

namespace vkc {

struct DeviceFeatureStructs {
    VkPhysicalDeviceFeatures2 features2;
    VkPhysicalDeviceVulkan11Features vulkan11;
    VkPhysicalDeviceVulkan12Features vulkan12;
    VkPhysicalDeviceVulkan13Features vulkan13;
    VkPhysicalDeviceSynchronization2Features synchronization2;
    VkPhysicalDeviceDynamicRenderingFeatures dynamicRendering;
    VkPhysicalDeviceAccelerationStructureFeaturesKHR accelerationStructure;
    VkPhysicalDeviceRayQueryFeaturesKHR rayQuery;
    VkPhysicalDeviceRayTracingPipelineFeaturesKHR rayTracingPipeline;
};

struct DeviceFeatureChainAccess {
    static DeviceFeatureStructs& structs(DeviceFeatureChain& chain) { return *chain.structs_; }
    static const DeviceFeatureStructs& structs(const DeviceFeatureChain& chain) { return *chain.structs_; }
};
inline DeviceFeatureStructs& featureStructsOf(DeviceFeatureChain& chain) { return DeviceFeatureChainAccess::structs(chain); }
inline const DeviceFeatureStructs& featureStructsOf(const DeviceFeatureChain& chain) {
    return DeviceFeatureChainAccess::structs(chain);
}

}  // namespace vkc
