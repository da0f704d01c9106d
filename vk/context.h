// VulkanContext: the state behind vkc::Context that the rest of the library records with: raw
// handles, the host's function tables, device limits and feature flags.
#pragma once

#include "vk/instance_functions.h"
#include "vkcollide/allocator.h"
#include "vkcollide/device_requirements.h"
#include "vkcollide/context.h"

#include <volk.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace vkc {

struct VulkanContext {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t queueFamilyIndex = 0;
    uint32_t apiVersion = 0;  // effective: min(instance, device)
    const VkAllocationCallbacks* allocationCallbacks = nullptr;

    InstanceFunctions vki = {};
    VolkDeviceTable vkd = {};

    VkPhysicalDeviceProperties properties = {};  // .limits: alignments, bufferImageGranularity, ...
    VkPhysicalDeviceMemoryProperties memoryProperties = {};
    float timestampPeriod = 0;        // ns per tick
    uint32_t timestampValidBits = 0;  // of queueFamilyIndex; 0: no timestamps
    uint32_t subgroupSize = 0;

    bool hasRayQuery = false;  // enabled on this device, not merely supported
    bool hasRayTracingPipeline = false;
    bool hasAccelerationStructure = false;
    bool hasDebugUtils = false;
    bool hasPipelineStatistics = false;
    bool hasBufferDeviceAddress = false;
    FeatureSets featureSets = kFeatureSetBase;  // the method sets the device was created with
    DeviceInfo info;  // name, driver string ("llvmpipe: Mesa 25.0.7 ...")

    LogCallback log = nullptr;
    void* logUser = nullptr;

    Allocator* allocator = nullptr;
    std::unique_ptr<Allocator> ownedAllocator;
    VkCommandPool oneShotPool = VK_NULL_HANDLE;  // submitAndWait
    std::vector<VkCommandBuffer> idleOneShotCommandBuffers;  // retired, for submitAndWait's next call

    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    std::atomic<uint32_t> validationCount{0};
    std::mutex messageMutex;  // the layer may call back from any thread
    std::vector<std::string> messages;

    bool ownsInstance = false;
    bool ownsDevice = false;
    void* library = nullptr;  // dlopen'ed libvulkan (headless only)

    ~VulkanContext();
};

// The library's way into a Context (its public header holds the contract only).
struct ContextAccess {
    static VulkanContext& vulkan(const Context& context) { return *context.impl_; }
};
inline VulkanContext& vulkanOf(const Context& context) { return ContextAccess::vulkan(context); }

void logMessage(const VulkanContext& ctx, LogLevel level, const std::string& message);

// MissingFeature naming `who` and the features of `set` the context was created without, unless
// ctx.featureSets includes `set`.
Status requireFeatureSet(const VulkanContext& ctx, FeatureSets set, const char* who);

struct PhysicalDeviceCaps;

// Shared tail of adoption and headless creation once ctx.device and the handles are set: loads
// the device table, limits, memory properties, feature flags, the allocator and a command pool.
Status initContext(VulkanContext& ctx, const PhysicalDeviceCaps& caps, std::span<const std::string> enabledExtensions,
                   const VkPhysicalDeviceFeatures2* enabledFeatures, Allocator* hostAllocator);

}  // namespace vkc
