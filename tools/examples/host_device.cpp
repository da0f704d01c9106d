// The example's instance and device; see host_device.h.
#include "tools/examples/host_device.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace vkc::example {

std::unique_ptr<HostDevice> HostDevice::create(FeatureSets sets, bool validation, std::string& error,
                                               const Presentation& presentation) {
    if (volkInitialize() != VK_SUCCESS) {
        error = "no Vulkan loader (libvulkan.so.1)";
        return nullptr;
    }
    std::unique_ptr<HostDevice> host(new HostDevice());
    host->sets_ = sets;
    error = host->createInstance(validation, presentation);
    if (error.empty()) error = host->createDevice(sets, presentation);
    return error.empty() ? std::move(host) : nullptr;
}

std::string HostDevice::createInstance(bool validation, const Presentation& presentation) {
    apiVersion = volkGetInstanceVersion() >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vkcollide-example";
    app.apiVersion = apiVersion;
    const char* layer = "VK_LAYER_KHRONOS_validation";
    // Debug utils whenever the loader (or RenderDoc, or the layer) offers it: vkcollide's pass
    // labels and resource names then reach RenderDoc.
    uint32_t count = 0;
    vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> offered(count);
    vkEnumerateInstanceExtensionProperties(nullptr, &count, offered.data());
    bool debugUtils = validation;
    for (const VkExtensionProperties& e : offered) debugUtils |= !std::strcmp(e.extensionName, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (debugUtils) instanceExtensions_.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    instanceExtensions_.insert(instanceExtensions_.end(), presentation.instanceExtensions.begin(),
                               presentation.instanceExtensions.end());
    VkInstanceCreateInfo info = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    info.enabledLayerCount = validation ? 1 : 0;
    info.ppEnabledLayerNames = &layer;
    info.enabledExtensionCount = uint32_t(instanceExtensions_.size());
    info.ppEnabledExtensionNames = instanceExtensions_.data();
    const VkResult created = vkCreateInstance(&info, nullptr, &instance);
    if (created != VK_SUCCESS)
        return "vkCreateInstance failed (" + std::to_string(created) + (validation ? "; is the validation layer installed?)" : ")");
    volkLoadInstanceOnly(instance);
    if (!validation) return {};
    VkDebugUtilsMessengerCreateInfoEXT messenger = {VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
    messenger.pfnUserCallback = &HostDevice::onMessage;
    messenger.pUserData = this;
    if (vkCreateDebugUtilsMessengerEXT(instance, &messenger, nullptr, &messenger_) != VK_SUCCESS)
        return "vkCreateDebugUtilsMessengerEXT failed";
    return {};
}

std::string HostDevice::createDevice(FeatureSets sets, const Presentation& presentation) {
    const bool presents = bool(presentation.canPresent);
    const DeviceRequirements requirements = requiredDeviceFeatures(sets);
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance, &count, devices.data());
    std::string rejected;
    int bestRank = -1;
    for (VkPhysicalDevice candidate : devices) {
        VkPhysicalDeviceProperties properties;
        vkGetPhysicalDeviceProperties(candidate, &properties);
        const uint32_t version = std::min(apiVersion, properties.apiVersion);
        uint32_t extensionCount = 0;
        vkEnumerateDeviceExtensionProperties(candidate, nullptr, &extensionCount, nullptr);
        std::vector<VkExtensionProperties> extensions(extensionCount);
        vkEnumerateDeviceExtensionProperties(candidate, nullptr, &extensionCount, extensions.data());
        std::vector<std::string> available;
        for (const VkExtensionProperties& e : extensions) available.push_back(e.extensionName);
        DeviceFeatureChain supported;
        initFeatureChain(supported, version, available);
        vkGetPhysicalDeviceFeatures2(candidate, supported.head());
        std::vector<std::string> missing = missingRequirements(requirements, version, available, supported.head());
        if (presents && std::find(available.begin(), available.end(), VK_KHR_SWAPCHAIN_EXTENSION_NAME) == available.end())
            missing.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
        if (version < VK_API_VERSION_1_2 || !missing.empty()) {
            rejected += std::string("\n  ") + properties.deviceName + ": lacks " + (missing.empty() ? "Vulkan 1.2" : missing[0]);
            continue;
        }
        const int rank = properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU     ? 3
                         : properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ? 2
                                                                                            : 1;
        if (rank <= bestRank) continue;
        bestRank = rank;
        physicalDevice = candidate;
        deviceExtensions_.clear();
        for (const char* name : deviceExtensionNames(requirements, version, available)) deviceExtensions_.push_back(name);
        if (presents) deviceExtensions_.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
        apiVersion = version;
    }
    if (!physicalDevice) return "no Vulkan device has what vkcollide's aabb-tree method needs:" + rejected;
    vkGetPhysicalDeviceMemoryProperties(physicalDevice, &memory);

    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &familyCount, families.data());
    const VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    queueFamily = UINT32_MAX;
    for (uint32_t i = 0; i < familyCount && queueFamily == UINT32_MAX; ++i)
        if ((families[i].queueFlags & need) == need && (!presents || presentation.canPresent(instance, physicalDevice, i)))
            queueFamily = i;
    if (queueFamily == UINT32_MAX)
        return presents ? "the device has no graphics+compute queue that can present to the window"
                        : "the device has no graphics+compute queue";

    initFeatureChain(features_, apiVersion, deviceExtensions_);
    enableRequiredFeatures(features_, requirements, nullptr);
    for (const std::string& name : deviceExtensions_) deviceExtensionNames_.push_back(name.c_str());
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queueInfo.queueFamilyIndex = queueFamily;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;
    VkDeviceCreateInfo info = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    info.pNext = features_.head();
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queueInfo;
    info.enabledExtensionCount = uint32_t(deviceExtensionNames_.size());
    info.ppEnabledExtensionNames = deviceExtensionNames_.data();
    const VkResult created = vkCreateDevice(physicalDevice, &info, nullptr, &device);
    if (created != VK_SUCCESS) return "vkCreateDevice failed (" + std::to_string(created) + ")";
    volkLoadDevice(device);
    vkGetDeviceQueue(device, queueFamily, 0, &queue);
    return {};
}

ContextDesc HostDevice::contextDesc() {
    ContextDesc desc = {};
    desc.instance = instance;
    desc.physicalDevice = physicalDevice;
    desc.device = device;
    desc.queueFamilyIndex = queueFamily;
    desc.queue = queue;
    desc.getInstanceProcAddr = vkGetInstanceProcAddr;  // volk's: the loader the example uses
    desc.apiVersion = apiVersion;
    desc.enabledDeviceExtensions = deviceExtensionNames_.data();
    desc.enabledDeviceExtensionCount = uint32_t(deviceExtensionNames_.size());
    desc.enabledInstanceExtensions = instanceExtensions_.data();
    desc.enabledInstanceExtensionCount = uint32_t(instanceExtensions_.size());
    desc.enabledFeatures = features_.head();
    desc.featureSets = sets_;
    return desc;
}

VkBool32 VKAPI_CALL HostDevice::onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                          const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    static_cast<HostDevice*>(user)->validationMessages_++;
    std::fprintf(stderr, "validation: %s\n", data->pMessage);
    return VK_FALSE;
}

HostDevice::~HostDevice() {
    if (device) vkDestroyDevice(device, nullptr);
    if (messenger_) vkDestroyDebugUtilsMessengerEXT(instance, messenger_, nullptr);
    if (instance) vkDestroyInstance(instance, nullptr);
}

}  // namespace vkc::example
