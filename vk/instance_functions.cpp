// Loads InstanceFunctions through the host's vkGetInstanceProcAddr.
#include "vk/instance_functions.h"

#include <string>

namespace vkc {

Status loadInstanceFunctions(PFN_vkGetInstanceProcAddr gipa, VkInstance instance, bool debugUtils,
                             InstanceFunctions& out) {
    if (!gipa) return makeError(ErrorCode::InvalidArgument, "getInstanceProcAddr is null");
    out = {};
    out.vkGetInstanceProcAddr = gipa;
    const char* missing = nullptr;
    auto load = [&](auto& fn, const char* name, bool required) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(gipa(instance, name));
        if (!fn && required && !missing) missing = name;
    };
    load(out.vkGetDeviceProcAddr, "vkGetDeviceProcAddr", true);
    load(out.vkDestroyInstance, "vkDestroyInstance", true);
    load(out.vkEnumeratePhysicalDevices, "vkEnumeratePhysicalDevices", true);
    load(out.vkEnumerateDeviceExtensionProperties, "vkEnumerateDeviceExtensionProperties", true);
    load(out.vkGetPhysicalDeviceProperties, "vkGetPhysicalDeviceProperties", true);
    load(out.vkGetPhysicalDeviceProperties2, "vkGetPhysicalDeviceProperties2", true);
    load(out.vkGetPhysicalDeviceFeatures2, "vkGetPhysicalDeviceFeatures2", true);
    load(out.vkGetPhysicalDeviceMemoryProperties, "vkGetPhysicalDeviceMemoryProperties", true);
    load(out.vkGetPhysicalDeviceQueueFamilyProperties, "vkGetPhysicalDeviceQueueFamilyProperties", true);
    load(out.vkGetPhysicalDeviceFormatProperties, "vkGetPhysicalDeviceFormatProperties", true);
    load(out.vkCreateDevice, "vkCreateDevice", true);
    load(out.vkDestroyDevice, "vkDestroyDevice", true);
    if (debugUtils) {
        load(out.vkCreateDebugUtilsMessengerEXT, "vkCreateDebugUtilsMessengerEXT", true);
        load(out.vkDestroyDebugUtilsMessengerEXT, "vkDestroyDebugUtilsMessengerEXT", true);
        load(out.vkSetDebugUtilsObjectNameEXT, "vkSetDebugUtilsObjectNameEXT", true);
        load(out.vkCmdBeginDebugUtilsLabelEXT, "vkCmdBeginDebugUtilsLabelEXT", true);
        load(out.vkCmdEndDebugUtilsLabelEXT, "vkCmdEndDebugUtilsLabelEXT", true);
        load(out.vkCmdInsertDebugUtilsLabelEXT, "vkCmdInsertDebugUtilsLabelEXT", true);
    }
    if (missing)
        return makeError(ErrorCode::MissingFeature,
                         std::string("vkGetInstanceProcAddr returned null for ") + missing +
                             " (instance API version below 1.1, or extension not enabled?)");
    return Status::success();
}

}  // namespace vkc
