// The Vulkan context vkcollide runs on: adopted from a host (nothing created behind its back but
// pools and memory) or created headless for tools and tests.
// Lifetime: destroy a Context before the host's device, once the GPU has finished the work it
// recorded (an adopted context never waits on the host's device). It is not thread-safe, and it
// uses the host's queue only in the blocking helpers meant for tools and tests.
#pragma once

#include "vkcollide/device_info.h"
#include "vkcollide/device_requirements.h"
#include "vkcollide/status.h"
#include "vkcollide/vulkan_types.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vkc {

class Allocator;
struct VulkanContext;  // the internal layer (vk/context.h)

enum class LogLevel { Debug, Info, Warning, Error };
// Receives every diagnostic, validation messages included; never called concurrently by us but
// possibly from the driver's thread for validation messages.
using LogCallback = void (*)(void* user, LogLevel level, const char* message);

// The host's objects. The host must have enabled requiredDeviceFeatures(featureSets) and says
// what it enabled (Vulkan cannot be asked): every required entry is checked, and each missing one
// is named in the error.
struct ContextDesc {
    VkInstance instance;
    VkPhysicalDevice physicalDevice;
    VkDevice device;
    uint32_t queueFamilyIndex;  // needs graphics and compute
    VkQueue queue;
    PFN_vkGetInstanceProcAddr getInstanceProcAddr;  // the host's loader entry (volk's, or libvulkan's)
    uint32_t apiVersion;  // VkApplicationInfo::apiVersion of the host's instance
    const char* const* enabledDeviceExtensions;
    uint32_t enabledDeviceExtensionCount;
    const char* const* enabledInstanceExtensions;  // VK_EXT_debug_utils here enables names and labels
    uint32_t enabledInstanceExtensionCount;
    const VkPhysicalDeviceFeatures2* enabledFeatures;  // the chain passed to vkCreateDevice
    FeatureSets featureSets;  // the methods' sets the host enabled: a detector of another method refuses to be created
    const VkAllocationCallbacks* allocationCallbacks;  // optional
    Allocator* allocator;                              // optional; null: vkcollide's block allocator
    LogCallback log;                                   // optional
    void* logUser;
    bool countValidationMessages;  // install a debug-utils messenger on the host's instance
};

// Zero-initialised means: no validation, best device, ray queries when the device has them.
struct HeadlessDesc {
    bool enableValidation;  // VK_LAYER_KHRONOS_validation + VK_EXT_debug_utils messenger
    std::optional<uint32_t> deviceIndex;  // overrides the preference order
    const char* deviceName;               // substring of the device name; the VKC_DEVICE env var
                                          // (an index or a substring) overrides both
    bool requireRayQuery;                 // fail instead of running without ray queries
    bool disableRayTracing;               // never enable the ray-query and ray-tracing-pipeline sets
                                          // (RenderDoc 1.24 cannot capture a device with them)
    // The method sets to enable (device_requirements.h); unset: every set the chosen device
    // supports. A device lacking a requested set is not chosen.
    std::optional<FeatureSets> featureSets;
    LogCallback log;
    void* logUser;
};

// Move-only handle; the Vulkan state lives in VulkanContext (vk/context.h), which the library's
// internals reach through ContextAccess.
class Context {
public:
    Context();
    explicit Context(std::unique_ptr<VulkanContext> impl);
    Context(Context&&) noexcept;
    Context& operator=(Context&&) noexcept;
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;
    ~Context();

    bool valid() const { return impl_ != nullptr; }

private:
    friend struct ContextAccess;
    std::unique_ptr<VulkanContext> impl_;
};

// Checks the host's device against the requirements and the physical device's support.
Result<Context> adoptContext(const ContextDesc& desc);
// Preferred device: discrete > integrated > virtual > CPU, among those with every requirement.
// NotFound when Vulkan or any device is absent.
Result<Context> createHeadlessContext(const HeadlessDesc& desc);

// What a context runs on, in the spirit of VmaAllocatorInfo: the handles it was adopted with or
// created (owned by the context when headless), and the optional feature sets it enabled.
struct ContextInfo {
    VkInstance instance;
    VkPhysicalDevice physicalDevice;
    VkDevice device;
    uint32_t queueFamilyIndex;
    VkQueue queue;
    uint32_t apiVersion;           // effective: the lower of the instance's and the device's
    bool rayQuery;                 // enabled on the device, not merely supported
    bool rayTracingPipeline;
    bool accelerationStructure;
    bool debugUtils;               // names and labels reach RenderDoc and the validation layer
    FeatureSets featureSets;       // the methods' sets the device was created with
};
ContextInfo contextInfo(const Context& context);

// Every physical device with its capabilities (creates and destroys a temporary instance).
Result<std::vector<DeviceInfo>> listDevices();
const DeviceInfo& deviceInfo(const Context& context);

// Validation warnings and errors seen since creation (0 unless a messenger is installed).
uint32_t validationMessageCount(const Context& context);
std::vector<std::string> validationMessages(const Context& context);

// Debug-utils names and labels for RenderDoc; no-ops when VK_EXT_debug_utils is not enabled.
// objectType is a VkObjectType (vulkan_types.h: why an integer).
void setObjectName(const Context& context, uint32_t objectType, uint64_t handle, const char* name);
void beginLabel(const Context& context, VkCommandBuffer cmd, const char* name);
void endLabel(const Context& context, VkCommandBuffer cmd);

}  // namespace vkc
