// What a physical device is and can do, for `vkcollide info`, reports and device selection.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vkc {

struct DeviceInfo {
    uint32_t index = 0;                 // position in vkEnumeratePhysicalDevices
    std::string name;                   // "llvmpipe (LLVM 15.0.6, 256 bits)"
    uint32_t type = 0;                  // a VkPhysicalDeviceType (vulkan_types.h: why an integer)
    std::string driver;                 // "llvmpipe: Mesa 25.0.7 (LLVM 15.0.6)"
    uint32_t apiVersion = 0;            // the device's, VK_MAKE_API_VERSION form
    bool rayQuery = false;              // VK_KHR_ray_query + rayQuery feature
    bool rayTracingPipeline = false;    // VK_KHR_ray_tracing_pipeline + feature
    bool accelerationStructure = false; // VK_KHR_acceleration_structure + feature
    uint64_t deviceLocalBytes = 0;      // the largest device-local memory heap
    std::vector<std::string> missing;   // base requirements the device lacks; empty: usable
};

// "discrete", "integrated", "virtual", "cpu", "other".
const char* deviceTypeName(uint32_t type);

}  // namespace vkc
