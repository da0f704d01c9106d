// Headless context for tools and tests: loads libvulkan itself (dlopen, no link), creates an
// instance (optionally with validation), picks a device and enables exactly what vkcollide needs.
#include "vk/context.h"

#include "vk/debug.h"
#include "vk/physical_device.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace vkc {

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

std::string driverFilesHint() {
    const char* files = getenv("VK_DRIVER_FILES");
    if (!files) files = getenv("VK_ICD_FILENAMES");
    return files ? std::string(" (VK_DRIVER_FILES=") + files + ")" : std::string();
}

// Loads libvulkan and creates an instance; enables debug utils whenever the loader has it so
// that names and labels reach RenderDoc, and the validation layer only when asked.
Status createInstance(VulkanContext& ctx, bool validation) {
    ctx.library = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!ctx.library) return makeError(ErrorCode::NotFound, "no Vulkan loader: dlopen(libvulkan.so.1) failed");
    auto gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(ctx.library, "vkGetInstanceProcAddr"));
    if (!gipa) return makeError(ErrorCode::NotFound, "libvulkan.so.1 has no vkGetInstanceProcAddr");

    auto enumerateVersion =
        reinterpret_cast<PFN_vkEnumerateInstanceVersion>(gipa(nullptr, "vkEnumerateInstanceVersion"));
    uint32_t loaderVersion = VK_API_VERSION_1_0;
    if (enumerateVersion) VKC_TRY(checkVk(enumerateVersion(&loaderVersion), "vkEnumerateInstanceVersion"));
    if (loaderVersion < VK_API_VERSION_1_2)
        return makeError(ErrorCode::MissingFeature, "the Vulkan loader supports only API " +
                                                        std::to_string(VK_API_VERSION_MAJOR(loaderVersion)) + "." +
                                                        std::to_string(VK_API_VERSION_MINOR(loaderVersion)) +
                                                        "; vkcollide needs 1.2");
    uint32_t apiVersion = std::min(loaderVersion, uint32_t(VK_API_VERSION_1_3));

    auto enumerateExtensions = reinterpret_cast<PFN_vkEnumerateInstanceExtensionProperties>(
        gipa(nullptr, "vkEnumerateInstanceExtensionProperties"));
    auto enumerateLayers =
        reinterpret_cast<PFN_vkEnumerateInstanceLayerProperties>(gipa(nullptr, "vkEnumerateInstanceLayerProperties"));
    auto createInstanceFn = reinterpret_cast<PFN_vkCreateInstance>(gipa(nullptr, "vkCreateInstance"));
    if (!enumerateExtensions || !enumerateLayers || !createInstanceFn)
        return makeError(ErrorCode::NotFound, "libvulkan.so.1 lacks global entry points");

    uint32_t count = 0;
    VKC_TRY(checkVk(enumerateExtensions(nullptr, &count, nullptr), "vkEnumerateInstanceExtensionProperties(count)"));
    std::vector<VkExtensionProperties> extensions(count);
    VKC_TRY(checkVk(enumerateExtensions(nullptr, &count, extensions.data()), "vkEnumerateInstanceExtensionProperties"));
    ctx.hasDebugUtils = std::any_of(extensions.begin(), extensions.end(), [](const VkExtensionProperties& e) {
        return !strcmp(e.extensionName, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    });

    std::vector<const char*> layers;
    if (validation) {
        VKC_TRY(checkVk(enumerateLayers(&count, nullptr), "vkEnumerateInstanceLayerProperties(count)"));
        std::vector<VkLayerProperties> available(count);
        VKC_TRY(checkVk(enumerateLayers(&count, available.data()), "vkEnumerateInstanceLayerProperties"));
        bool found = std::any_of(available.begin(), available.end(),
                                 [](const VkLayerProperties& l) { return !strcmp(l.layerName, kValidationLayer); });
        if (!found)
            return makeError(ErrorCode::MissingFeature, std::string(kValidationLayer) +
                                                            " is not installed (Debian: vulkan-validationlayers)");
        if (!ctx.hasDebugUtils)
            return makeError(ErrorCode::MissingFeature, "validation needs VK_EXT_debug_utils, which the loader lacks");
        layers.push_back(kValidationLayer);
    }
    std::vector<const char*> enabledExtensions;
    if (ctx.hasDebugUtils) enabledExtensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    // The layer provides VK_EXT_validation_features: with it, synchronization validation checks
    // every barrier the render graph derives (a missing one is a hazard message, failing tests).
    if (validation) enabledExtensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);

    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vkcollide";
    app.pEngineName = "vkcollide";
    app.apiVersion = apiVersion;
    VkInstanceCreateInfo info = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    info.enabledLayerCount = uint32_t(layers.size());
    info.ppEnabledLayerNames = layers.data();
    info.enabledExtensionCount = uint32_t(enabledExtensions.size());
    info.ppEnabledExtensionNames = enabledExtensions.data();
    // Chained so that messages from vkCreateInstance/vkDestroyInstance are counted too.
    VkDebugUtilsMessengerCreateInfoEXT messengerInfo = messengerCreateInfo(ctx);
    const VkValidationFeatureEnableEXT syncValidation = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkValidationFeaturesEXT validationFeatures = {VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    validationFeatures.enabledValidationFeatureCount = 1;
    validationFeatures.pEnabledValidationFeatures = &syncValidation;
    validationFeatures.pNext = &messengerInfo;
    if (validation) info.pNext = &validationFeatures;
    VkResult result = createInstanceFn(&info, nullptr, &ctx.instance);
    // The loader answers INCOMPATIBLE_DRIVER when it found no driver (ICD) at all.
    if (result == VK_ERROR_INCOMPATIBLE_DRIVER)
        return makeError(ErrorCode::NotFound, "no Vulkan driver found" + driverFilesHint(), result);
    VKC_TRY(checkVk(result, "vkCreateInstance"));
    ctx.ownsInstance = true;
    ctx.apiVersion = apiVersion;
    VKC_TRY(loadInstanceFunctions(gipa, ctx.instance, ctx.hasDebugUtils, ctx.vki));
    if (validation) VKC_TRY(createMessenger(ctx));
    return Status::success();
}

int typeRank(uint32_t type) {
    switch (type) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
        case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
        default: return 4;
    }
}

std::string joinNames(const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
    return text;
}

// Why `caps` cannot serve `desc`; empty when it can.
std::string unusableReason(const PhysicalDeviceCaps& caps, const HeadlessDesc& desc) {
    if (!caps.info.missing.empty()) return "lacks " + joinNames(caps.info.missing);
    if (desc.requireRayQuery && !(caps.supportedSets & kFeatureSetRayQuery))
        return "lacks the ray-query set (requireRayQuery)";
    if (desc.featureSets && (caps.supportedSets & *desc.featureSets) != *desc.featureSets)
        return "lacks a requested feature set (HeadlessDesc::featureSets)";
    return {};
}

Result<size_t> selectDevice(const std::vector<PhysicalDeviceCaps>& devices, const HeadlessDesc& desc) {
    std::optional<uint32_t> index = desc.deviceIndex;
    std::string name = desc.deviceName ? desc.deviceName : "";
    if (const char* env = getenv("VKC_DEVICE"); env && *env) {
        char* end = nullptr;
        unsigned long value = strtoul(env, &end, 10);
        if (*end == 0) {
            index = uint32_t(value);
            name.clear();
        } else {
            index.reset();
            name = env;
        }
    }
    if (index) {
        if (*index >= devices.size())
            return makeError(ErrorCode::NotFound, "device index " + std::to_string(*index) + " requested, but only " +
                                                      std::to_string(devices.size()) + " device(s) exist");
        if (std::string why = unusableReason(devices[*index], desc); !why.empty())
            return makeError(ErrorCode::MissingFeature, "device " + std::to_string(*index) + " '" +
                                                            devices[*index].info.name + "' " + why);
        return size_t(*index);
    }
    std::optional<size_t> best;
    std::string rejected;
    for (size_t i = 0; i < devices.size(); ++i) {
        const PhysicalDeviceCaps& caps = devices[i];
        if (!name.empty() && caps.info.name.find(name) == std::string::npos) continue;
        if (std::string why = unusableReason(caps, desc); !why.empty()) {
            rejected += "; '" + caps.info.name + "' " + why;
            continue;
        }
        if (!best || typeRank(caps.info.type) < typeRank(devices[*best].info.type)) best = i;
    }
    if (!best)
        return makeError(name.empty() ? ErrorCode::MissingFeature : ErrorCode::NotFound,
                         "no usable Vulkan device" + (name.empty() ? std::string() : " named like '" + name + "'") +
                             rejected);
    return *best;
}

}  // namespace

Result<Context> createHeadlessContext(const HeadlessDesc& desc) {
    auto ctx = std::make_unique<VulkanContext>();
    ctx->log = desc.log;
    ctx->logUser = desc.logUser;
    VKC_TRY(createInstance(*ctx, desc.enableValidation));

    Result<std::vector<PhysicalDeviceCaps>> devices = probePhysicalDevices(ctx->vki, ctx->instance, ctx->apiVersion);
    if (!devices) return devices.status();
    if (devices->empty()) return makeError(ErrorCode::NotFound, "no Vulkan physical device" + driverFilesHint());
    Result<size_t> chosen = selectDevice(devices.value(), desc);
    if (!chosen) return chosen.status();
    const PhysicalDeviceCaps& caps = devices.value()[chosen.value()];

    // By default every method the device can serve, and ray tracing unless disabled.
    FeatureSets sets = desc.featureSets.value_or(caps.supportedSets);
    if (desc.disableRayTracing) sets &= ~FeatureSets(kFeatureSetRayQuery | kFeatureSetRayTracingPipeline);
    DeviceRequirements requirements = requiredDeviceFeatures(sets);
    std::vector<const char*> extensionNames = deviceExtensionNames(requirements, caps.apiVersion, caps.extensions);
    std::vector<std::string> extensions(extensionNames.begin(), extensionNames.end());
    DeviceFeatureChain features;
    initFeatureChain(features, caps.apiVersion, extensions);
    enableRequiredFeatures(features, requirements, caps.features->head());

    float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queueInfo.queueFamilyIndex = caps.queueFamily;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;
    VkDeviceCreateInfo info = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    info.pNext = features.head();
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queueInfo;
    info.enabledExtensionCount = uint32_t(extensionNames.size());
    info.ppEnabledExtensionNames = extensionNames.data();
    ctx->physicalDevice = caps.handle;
    ctx->queueFamilyIndex = caps.queueFamily;
    VKC_TRY(checkVk(ctx->vki.vkCreateDevice(caps.handle, &info, nullptr, &ctx->device),
                    ("vkCreateDevice(" + caps.info.name + ")").c_str()));
    ctx->ownsDevice = true;
    ctx->featureSets = sets;
    VKC_TRY(initContext(*ctx, caps, extensions, features.head(), nullptr));
    logMessage(*ctx, LogLevel::Info, "vkcollide: headless device '" + ctx->info.name + "', " + ctx->info.driver);
    return Context(std::move(ctx));
}

Result<std::vector<DeviceInfo>> listDevices() {
    VulkanContext ctx;  // owns the temporary instance and the loader handle
    VKC_TRY(createInstance(ctx, false));
    Result<std::vector<PhysicalDeviceCaps>> devices = probePhysicalDevices(ctx.vki, ctx.instance, ctx.apiVersion);
    if (!devices) return devices.status();
    std::vector<DeviceInfo> infos;
    for (const PhysicalDeviceCaps& caps : devices.value()) infos.push_back(caps.info);
    return infos;
}

}  // namespace vkc
