// Adopting a host's device: the test plays the host, loading libvulkan itself and creating a raw
// instance and device, then hands them to adoptContext.
#include "tests/support/vulkan_test.h"
#include "vk/buffer.h"
#include "vk/device_feature_chain.h"
#include "vkcollide/context.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstring>
#include <functional>

namespace vkc {
namespace {

// A minimal host: instance (validation with synchronization checks, and the host's own debug
// messenger, which outlives everything vkcollide made), one device with the chosen features.
struct Host {
    void* library = nullptr;
    PFN_vkGetInstanceProcAddr gipa = nullptr;
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t family = 0;
    uint32_t apiVersion = VK_API_VERSION_1_3;
    std::vector<std::string> deviceExtensions;
    std::vector<const char*> instanceExtensions = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                                                   VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
    DeviceFeatureChain features;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    std::vector<std::string> messages;  // validation warnings and errors the host's messenger saw

    static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                    VkDebugUtilsMessageTypeFlagsEXT,
                                                    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
        static_cast<Host*>(user)->messages.push_back(data->pMessage ? data->pMessage : "");
        return VK_FALSE;
    }

    template <typename F>
    F load(const char* name) {
        return reinterpret_cast<F>(gipa(instance, name));
    }

    // Returns an empty string on success, else why the host could not be created.
    std::string create(const std::function<void(DeviceFeatureChain&)>& editFeatures) {
        library = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!library) return "no Vulkan: no libvulkan.so.1";
        gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(library, "vkGetInstanceProcAddr"));
        VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
        app.apiVersion = apiVersion;
        const char* layer = "VK_LAYER_KHRONOS_validation";
        const VkValidationFeatureEnableEXT syncValidation = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
        VkValidationFeaturesEXT validationFeatures = {VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
        validationFeatures.enabledValidationFeatureCount = 1;
        validationFeatures.pEnabledValidationFeatures = &syncValidation;
        VkInstanceCreateInfo instanceInfo = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
        instanceInfo.pNext = &validationFeatures;
        instanceInfo.pApplicationInfo = &app;
        instanceInfo.enabledLayerCount = 1;
        instanceInfo.ppEnabledLayerNames = &layer;
        instanceInfo.enabledExtensionCount = uint32_t(instanceExtensions.size());
        instanceInfo.ppEnabledExtensionNames = instanceExtensions.data();
        auto createInstance = reinterpret_cast<PFN_vkCreateInstance>(gipa(nullptr, "vkCreateInstance"));
        VkResult result = createInstance(&instanceInfo, nullptr, &instance);
        if (result == VK_ERROR_INCOMPATIBLE_DRIVER) return "no Vulkan: no driver";
        if (result != VK_SUCCESS) return "vkCreateInstance failed: " + std::to_string(result);
        VkDebugUtilsMessengerCreateInfoEXT messengerInfo = {VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
        messengerInfo.messageSeverity =
            VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
        messengerInfo.pfnUserCallback = &Host::onMessage;
        messengerInfo.pUserData = this;
        if (load<PFN_vkCreateDebugUtilsMessengerEXT>("vkCreateDebugUtilsMessengerEXT")(instance, &messengerInfo, nullptr,
                                                                                      &messenger) != VK_SUCCESS)
            return "vkCreateDebugUtilsMessengerEXT failed";

        Result<std::vector<DeviceInfo>> infos = listDevices();
        if (!infos.ok()) return infos.status().describe();
        if (infos->empty()) return "no Vulkan: no physical device";
        uint32_t index = UINT32_MAX;
        for (const DeviceInfo& d : infos.value())
            if (d.missing.empty() && index == UINT32_MAX) index = d.index;
        if (index == UINT32_MAX) return "no device with the base requirements";
        uint32_t count = 0;
        auto enumerate = load<PFN_vkEnumeratePhysicalDevices>("vkEnumeratePhysicalDevices");
        enumerate(instance, &count, nullptr);
        std::vector<VkPhysicalDevice> devices(count);
        enumerate(instance, &count, devices.data());
        if (index >= count) return "device list changed";
        physicalDevice = devices[index];

        auto familyProps = load<PFN_vkGetPhysicalDeviceQueueFamilyProperties>("vkGetPhysicalDeviceQueueFamilyProperties");
        familyProps(physicalDevice, &count, nullptr);
        std::vector<VkQueueFamilyProperties> families(count);
        familyProps(physicalDevice, &count, families.data());
        family = UINT32_MAX;
        for (uint32_t i = 0; i < count && family == UINT32_MAX; ++i)
            if ((families[i].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) ==
                (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT))
                family = i;

        DeviceRequirements requirements = requiredDeviceFeatures(kFeatureSetAllMethods);
        std::vector<const char*> names = deviceExtensionNames(requirements, apiVersion, {});
        deviceExtensions.assign(names.begin(), names.end());
        initFeatureChain(features, apiVersion, deviceExtensions);
        enableRequiredFeatures(features, requirements, nullptr);  // optional ones stay off
        editFeatures(features);

        float priority = 1.0f;
        VkDeviceQueueCreateInfo queueInfo = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
        queueInfo.queueFamilyIndex = family;
        queueInfo.queueCount = 1;
        queueInfo.pQueuePriorities = &priority;
        VkDeviceCreateInfo deviceInfo = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
        deviceInfo.pNext = features.head();
        deviceInfo.queueCreateInfoCount = 1;
        deviceInfo.pQueueCreateInfos = &queueInfo;
        deviceInfo.enabledExtensionCount = uint32_t(names.size());
        deviceInfo.ppEnabledExtensionNames = names.data();
        if (load<PFN_vkCreateDevice>("vkCreateDevice")(physicalDevice, &deviceInfo, nullptr, &device) != VK_SUCCESS)
            return "vkCreateDevice failed";
        auto getDeviceProcAddr = load<PFN_vkGetDeviceProcAddr>("vkGetDeviceProcAddr");
        auto getQueue = reinterpret_cast<PFN_vkGetDeviceQueue>(getDeviceProcAddr(device, "vkGetDeviceQueue"));
        getQueue(device, family, 0, &queue);
        return {};
    }

    ContextDesc desc() {
        extensionPointers.clear();
        for (const std::string& e : deviceExtensions) extensionPointers.push_back(e.c_str());
        ContextDesc d = {};
        d.instance = instance;
        d.physicalDevice = physicalDevice;
        d.device = device;
        d.queueFamilyIndex = family;
        d.queue = queue;
        d.getInstanceProcAddr = gipa;
        d.apiVersion = apiVersion;
        d.enabledDeviceExtensions = extensionPointers.data();
        d.enabledDeviceExtensionCount = uint32_t(extensionPointers.size());
        d.enabledInstanceExtensions = instanceExtensions.data();
        d.enabledInstanceExtensionCount = uint32_t(instanceExtensions.size());
        d.enabledFeatures = features.head();
        d.featureSets = kFeatureSetAllMethods;
        d.countValidationMessages = true;
        return d;
    }

    // As a host shuts down: after vkcollide's context, before the instance, with the host's
    // messenger still listening (so objects vkcollide leaked on the device are reported).
    void destroyDevice() {
        if (device) load<PFN_vkDestroyDevice>("vkDestroyDevice")(device, nullptr);
        device = VK_NULL_HANDLE;
    }

    ~Host() {
        destroyDevice();
        if (messenger) load<PFN_vkDestroyDebugUtilsMessengerEXT>("vkDestroyDebugUtilsMessengerEXT")(instance, messenger, nullptr);
        if (instance) load<PFN_vkDestroyInstance>("vkDestroyInstance")(instance, nullptr);
        if (library) dlclose(library);
    }

    std::vector<const char*> extensionPointers;
};

#define VKC_CREATE_HOST(host, edit)                                                        \
    do {                                                                                   \
        std::string why = (host).create(edit);                                             \
        if (why.rfind("no Vulkan", 0) == 0 && !test::deviceRequired()) GTEST_SKIP() << why; \
        ASSERT_TRUE(why.empty()) << why;                                                   \
    } while (0)

TEST(AdoptContextTest, AdoptsAHostDeviceWithTheRequiredFeaturesAndUsesIt) {
    Host host;
    VKC_CREATE_HOST(host, [](DeviceFeatureChain&) {});
    Result<Context> context = adoptContext(host.desc());
    ASSERT_TRUE(context.ok()) << context.status().describe();
    // What the host gave comes back through the public API alone.
    const ContextInfo info = contextInfo(*context);
    EXPECT_EQ(info.instance, host.instance);
    EXPECT_EQ(info.physicalDevice, host.physicalDevice);
    EXPECT_EQ(info.device, host.device);
    EXPECT_EQ(info.queue, host.queue);
    EXPECT_EQ(info.queueFamilyIndex, host.family);
    EXPECT_TRUE(info.debugUtils);
    EXPECT_FALSE(info.rayQuery);  // the host did not enable the ray-query set
    EXPECT_FALSE(info.accelerationStructure);
    VulkanContext& vk = vulkanOf(*context);
    EXPECT_FALSE(vk.ownsDevice);

    // The adopted device works through our own function table.
    Result<Buffer> buffer = createBuffer(vk, {64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::DeviceLocal, "adopted"});
    ASSERT_TRUE(buffer.ok()) << buffer.status().describe();
    uint32_t in[16], out[16] = {};
    for (uint32_t i = 0; i < 16; ++i) in[i] = i * 7 + 1;
    ASSERT_TRUE(uploadBuffer(vk, buffer.value(), in, sizeof(in)).ok());
    ASSERT_TRUE(readBuffer(vk, buffer.value(), out, sizeof(out)).ok());
    EXPECT_EQ(memcmp(in, out, sizeof(in)), 0);
    destroyBuffer(vk, buffer.value());

    std::string messages;
    for (const std::string& m : validationMessages(context.value())) messages += "\n" + m;
    EXPECT_EQ(validationMessageCount(context.value()), 0u) << messages;

    // Shut down as a host does: vkcollide first, then the device, under the host's messenger.
    context.value() = Context();
    host.destroyDevice();
    std::string hostMessages;
    for (const std::string& m : host.messages) hostMessages += "\n" + m;
    EXPECT_TRUE(host.messages.empty()) << "validation at shutdown:" << hostMessages;
}

TEST(AdoptContextTest, FailsNamingEachFeatureTheHostDidNotEnable) {
    Host host;
    VKC_CREATE_HOST(host, [](DeviceFeatureChain& chain) {
        DeviceFeatureStructs& f = featureStructsOf(chain);
        f.vulkan13.synchronization2 = VK_FALSE;
        f.features2.features.occlusionQueryPrecise = VK_FALSE;  // stencil's and consistent-pairs' set
        f.vulkan12.descriptorBindingVariableDescriptorCount = VK_FALSE;
    });
    Result<Context> context = adoptContext(host.desc());
    ASSERT_FALSE(context.ok());
    EXPECT_EQ(context.status().code, ErrorCode::MissingFeature);
    EXPECT_NE(context.status().message.find("synchronization2"), std::string::npos) << context.status().message;
    EXPECT_NE(context.status().message.find("occlusionQueryPrecise"), std::string::npos) << context.status().message;
    EXPECT_NE(context.status().message.find("descriptorBindingVariableDescriptorCount"), std::string::npos)
        << context.status().message;
    EXPECT_EQ(context.status().message.find("dynamicRendering"), std::string::npos) << context.status().message;
}

TEST(AdoptContextTest, FailsOnAMissingHandle) {
    ContextDesc desc = {};
    Result<Context> context = adoptContext(desc);
    ASSERT_FALSE(context.ok());
    EXPECT_EQ(context.status().code, ErrorCode::InvalidArgument);
    EXPECT_NE(context.status().message.find("instance"), std::string::npos);
}

}  // namespace
}  // namespace vkc
