// Physical-device probing shared by headless creation, adoption and listDevices.
#include "vk/physical_device.h"

#include "vk/device_feature_chain.h"

#include <algorithm>

namespace vkc {

const char* deviceTypeName(uint32_t type) {
    switch (type) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
        case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
        default: return "other";
    }
}

static bool has(const std::vector<std::string>& names, const char* name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

Result<PhysicalDeviceCaps> probePhysicalDevice(const InstanceFunctions& vki, VkPhysicalDevice device,
                                               uint32_t instanceApiVersion, uint32_t index) {
    PhysicalDeviceCaps caps;
    caps.handle = device;
    vki.vkGetPhysicalDeviceProperties(device, &caps.properties);
    caps.apiVersion = std::min(instanceApiVersion, caps.properties.apiVersion);

    uint32_t count = 0;
    VKC_TRY(checkVk(vki.vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr),
                    "vkEnumerateDeviceExtensionProperties(count)"));
    std::vector<VkExtensionProperties> extensions(count);
    VKC_TRY(checkVk(vki.vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data()),
                    "vkEnumerateDeviceExtensionProperties"));
    for (const VkExtensionProperties& e : extensions) caps.extensions.push_back(e.extensionName);

    VkPhysicalDeviceDriverProperties driver = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceSubgroupProperties subgroup = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 properties2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    if (caps.apiVersion >= VK_API_VERSION_1_2) {
        properties2.pNext = &subgroup;
        subgroup.pNext = &driver;
    }
    vki.vkGetPhysicalDeviceProperties2(device, &properties2);
    caps.subgroupSize = subgroup.subgroupSize;

    caps.features = std::make_unique<DeviceFeatureChain>();
    initFeatureChain(*caps.features, caps.apiVersion, caps.extensions);
    vki.vkGetPhysicalDeviceFeatures2(device, caps.features->head());

    uint32_t familyCount = 0;
    vki.vkGetPhysicalDeviceQueueFamilyProperties(device, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vki.vkGetPhysicalDeviceQueueFamilyProperties(device, &familyCount, families.data());
    for (uint32_t i = 0; i < familyCount; ++i) {
        VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
        if ((families[i].queueFlags & need) == need) {
            caps.queueFamily = i;
            caps.timestampValidBits = families[i].timestampValidBits;
            break;
        }
    }

    DeviceInfo& info = caps.info;
    info.index = index;
    info.name = caps.properties.deviceName;
    info.type = caps.properties.deviceType;
    info.apiVersion = caps.properties.apiVersion;
    info.driver = driver.driverName[0] ? std::string(driver.driverName) + ": " + driver.driverInfo : "unknown driver";
    const DeviceFeatureStructs& f = featureStructsOf(*caps.features);
    info.accelerationStructure = has(caps.extensions, VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME) &&
                                 f.accelerationStructure.accelerationStructure;
    info.rayQuery = has(caps.extensions, VK_KHR_RAY_QUERY_EXTENSION_NAME) && f.rayQuery.rayQuery;
    info.rayTracingPipeline = has(caps.extensions, VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME) &&
                              f.rayTracingPipeline.rayTracingPipeline;
    VkPhysicalDeviceMemoryProperties memory{};
    vki.vkGetPhysicalDeviceMemoryProperties(device, &memory);
    for (uint32_t h = 0; h < memory.memoryHeapCount; ++h)
        if (memory.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            info.deviceLocalBytes = std::max<uint64_t>(info.deviceLocalBytes, memory.memoryHeaps[h].size);
    info.missing = missingRequirements(requiredDeviceFeatures(kFeatureSetBase), caps.apiVersion, caps.extensions,
                                       &f.features2);
    if (caps.queueFamily == UINT32_MAX) info.missing.push_back("a graphics+compute queue family");
    for (const NamedFeatureSet& named : namedFeatureSets())
        if (missingRequirements(requiredDeviceFeatures(named.set), caps.apiVersion, caps.extensions, &f.features2)
                .empty())
            caps.supportedSets |= named.set;
    return caps;
}

Result<std::vector<PhysicalDeviceCaps>> probePhysicalDevices(const InstanceFunctions& vki, VkInstance instance,
                                                             uint32_t instanceApiVersion) {
    uint32_t count = 0;
    VKC_TRY(checkVk(vki.vkEnumeratePhysicalDevices(instance, &count, nullptr), "vkEnumeratePhysicalDevices(count)"));
    std::vector<VkPhysicalDevice> devices(count);
    VKC_TRY(checkVk(vki.vkEnumeratePhysicalDevices(instance, &count, devices.data()), "vkEnumeratePhysicalDevices"));
    std::vector<PhysicalDeviceCaps> result;
    for (uint32_t i = 0; i < count; ++i) {
        Result<PhysicalDeviceCaps> caps = probePhysicalDevice(vki, devices[i], instanceApiVersion, i);
        if (!caps) return caps.status();
        result.push_back(std::move(caps.value()));
    }
    return result;
}

}  // namespace vkc
