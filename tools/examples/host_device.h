// The example's own Vulkan instance and device, created with volk the way a game renderer creates
// them: vkcollide is told what was enabled (ContextDesc) and never creates either.
#pragma once

#include <volk.h>

#include "vkcollide/context.h"
#include "vkcollide/device_requirements.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace vkc::example {

// What presenting to a window needs of the instance and the queue (a window system's answers;
// empty: no presentation).
struct Presentation {
    std::vector<const char*> instanceExtensions;
    std::function<bool(VkInstance, VkPhysicalDevice, uint32_t family)> canPresent;
};

class HostDevice {
public:
    // A device with a graphics+compute queue that has every feature `sets` needs (discrete GPUs
    // first); with `validation`, the Khronos layer and a messenger that counts warnings and errors;
    // with `presentation`, its instance extensions, VK_KHR_swapchain and a queue that can present.
    // On failure returns null and says why in `error`.
    static std::unique_ptr<HostDevice> create(FeatureSets sets, bool validation, std::string& error,
                                              const Presentation& presentation = {});
    ~HostDevice();

    // What vkcollide adopts: these handles, volk's vkGetInstanceProcAddr and what was enabled.
    ContextDesc contextDesc();
    uint32_t validationMessages() const { return validationMessages_; }

    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t queueFamily = 0;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t apiVersion = 0;
    VkPhysicalDeviceMemoryProperties memory{};

private:
    HostDevice() = default;
    std::string createInstance(bool validation, const Presentation& presentation);
    std::string createDevice(FeatureSets sets, const Presentation& presentation);
    static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                    VkDebugUtilsMessageTypeFlagsEXT,
                                                    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user);

    FeatureSets sets_ = 0;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    std::vector<const char*> instanceExtensions_;
    std::vector<std::string> deviceExtensions_;
    std::vector<const char*> deviceExtensionNames_;
    DeviceFeatureChain features_;
    std::atomic<uint32_t> validationMessages_{0};
};

}  // namespace vkc::example
