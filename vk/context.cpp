// Context handle, adoption of a host's device, and the setup both paths share.
#include "vk/context.h"

#include "vk/block_allocator.h"
#include "vk/debug.h"
#include "vk/device_table.h"
#include "vk/physical_device.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstring>

namespace vkc {

Context::Context() = default;
Context::Context(std::unique_ptr<VulkanContext> impl) : impl_(std::move(impl)) {}
Context::Context(Context&&) noexcept = default;
Context& Context::operator=(Context&&) noexcept = default;
Context::~Context() = default;

void logMessage(const VulkanContext& ctx, LogLevel level, const std::string& message) {
    if (ctx.log) ctx.log(ctx.logUser, level, message.c_str());
}

VulkanContext::~VulkanContext() {
    if (device && vkd.vkDeviceWaitIdle && ownsDevice) vkd.vkDeviceWaitIdle(device);
    ownedAllocator.reset();  // frees every block; reports leaked allocations by name
    if (oneShotPool) vkd.vkDestroyCommandPool(device, oneShotPool, allocationCallbacks);
    if (device && ownsDevice) vki.vkDestroyDevice(device, allocationCallbacks);
    // The messenger goes after the device so that messages about leaked objects still count.
    if (messenger) vki.vkDestroyDebugUtilsMessengerEXT(instance, messenger, allocationCallbacks);
    if (instance && ownsInstance) vki.vkDestroyInstance(instance, allocationCallbacks);
    if (library) dlclose(library);
}

static bool enabledByName(const DeviceRequirements& table, const VkPhysicalDeviceFeatures2* chain, const char* name) {
    for (const FeatureRequirement& f : table.features)
        if (!strcmp(f.name, name)) return featureEnabled(chain, f);
    return false;
}

Status initContext(VulkanContext& ctx, const PhysicalDeviceCaps& caps, std::span<const std::string> enabledExtensions,
                   const VkPhysicalDeviceFeatures2* enabledFeatures, Allocator* hostAllocator) {
    ctx.apiVersion = caps.apiVersion;
    ctx.properties = caps.properties;
    ctx.timestampPeriod = caps.properties.limits.timestampPeriod;
    ctx.subgroupSize = caps.subgroupSize;
    ctx.info = caps.info;
    ctx.vki.vkGetPhysicalDeviceMemoryProperties(ctx.physicalDevice, &ctx.memoryProperties);

    uint32_t familyCount = 0;
    ctx.vki.vkGetPhysicalDeviceQueueFamilyProperties(ctx.physicalDevice, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    ctx.vki.vkGetPhysicalDeviceQueueFamilyProperties(ctx.physicalDevice, &familyCount, families.data());
    if (ctx.queueFamilyIndex >= familyCount)
        return makeError(ErrorCode::InvalidArgument, "queue family index " + std::to_string(ctx.queueFamilyIndex) +
                                                         " is out of range for '" + ctx.info.name + "'");
    VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    if ((families[ctx.queueFamilyIndex].queueFlags & need) != need)
        return makeError(ErrorCode::InvalidArgument, "queue family " + std::to_string(ctx.queueFamilyIndex) +
                                                         " lacks graphics+compute, which vkcollide's passes need");
    ctx.timestampValidBits = families[ctx.queueFamilyIndex].timestampValidBits;

    loadDeviceTable(ctx.vkd, ctx.device, ctx.vki.vkGetDeviceProcAddr);
    const char* missing = !ctx.vkd.vkQueueSubmit2          ? "vkQueueSubmit2"
                          : !ctx.vkd.vkCmdPipelineBarrier2 ? "vkCmdPipelineBarrier2"
                          : !ctx.vkd.vkCmdBeginRendering   ? "vkCmdBeginRendering"
                          : !ctx.vkd.vkGetSemaphoreCounterValue ? "vkGetSemaphoreCounterValue"
                                                                : nullptr;
    if (missing)
        return makeError(ErrorCode::MissingFeature,
                         std::string("vkGetDeviceProcAddr returned null for ") + missing + " on '" + ctx.info.name + "'");
    if (!ctx.queue) ctx.vkd.vkGetDeviceQueue(ctx.device, ctx.queueFamilyIndex, 0, &ctx.queue);

    auto enabledExtension = [&](const char* name) {
        return std::find(enabledExtensions.begin(), enabledExtensions.end(), name) != enabledExtensions.end();
    };
    DeviceRequirements table = requiredDeviceFeatures(kFeatureSetRayQuery | kFeatureSetRayTracingPipeline);
    ctx.hasAccelerationStructure = enabledExtension(VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME) &&
                                   enabledByName(table, enabledFeatures, "accelerationStructure");
    ctx.hasRayQuery = enabledExtension(VK_KHR_RAY_QUERY_EXTENSION_NAME) && enabledByName(table, enabledFeatures, "rayQuery");
    ctx.hasRayTracingPipeline = enabledExtension(VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME) &&
                                enabledByName(table, enabledFeatures, "rayTracingPipeline");
    ctx.hasBufferDeviceAddress = enabledByName(table, enabledFeatures, "bufferDeviceAddress");
    ctx.hasPipelineStatistics = enabledByName(table, enabledFeatures, "pipelineStatisticsQuery");

    if (hostAllocator) {
        ctx.allocator = hostAllocator;
    } else {
        ctx.ownedAllocator = createBlockAllocator(ctx);
        ctx.allocator = ctx.ownedAllocator.get();
    }

    VkCommandPoolCreateInfo poolInfo = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT | VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = ctx.queueFamilyIndex;
    VKC_TRY(checkVk(ctx.vkd.vkCreateCommandPool(ctx.device, &poolInfo, ctx.allocationCallbacks, &ctx.oneShotPool),
                    "vkCreateCommandPool(vkcollide one-shot pool)"));
    setObjectName(ctx, VK_OBJECT_TYPE_COMMAND_POOL, ctx.oneShotPool, "vkcollide one-shot pool");
    return Status::success();
}

static std::string joinNames(const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
    return text;
}

Result<Context> adoptContext(const ContextDesc& desc) {
    const char* nullField = !desc.instance              ? "instance"
                            : !desc.physicalDevice      ? "physicalDevice"
                            : !desc.device              ? "device"
                            : !desc.queue               ? "queue"
                            : !desc.getInstanceProcAddr ? "getInstanceProcAddr"
                                                        : nullptr;
    if (nullField) return makeError(ErrorCode::InvalidArgument, std::string("adoptContext: ContextDesc::") + nullField + " is null");

    auto ctx = std::make_unique<VulkanContext>();
    ctx->instance = desc.instance;
    ctx->physicalDevice = desc.physicalDevice;
    ctx->device = desc.device;
    ctx->queue = desc.queue;
    ctx->queueFamilyIndex = desc.queueFamilyIndex;
    ctx->allocationCallbacks = desc.allocationCallbacks;
    ctx->log = desc.log;
    ctx->logUser = desc.logUser;

    std::vector<std::string> instanceExtensions(desc.enabledInstanceExtensions,
                                                desc.enabledInstanceExtensions + desc.enabledInstanceExtensionCount);
    std::vector<std::string> deviceExtensions(desc.enabledDeviceExtensions,
                                              desc.enabledDeviceExtensions + desc.enabledDeviceExtensionCount);
    ctx->hasDebugUtils = std::find(instanceExtensions.begin(), instanceExtensions.end(),
                                   VK_EXT_DEBUG_UTILS_EXTENSION_NAME) != instanceExtensions.end();
    VKC_TRY(loadInstanceFunctions(desc.getInstanceProcAddr, desc.instance, ctx->hasDebugUtils, ctx->vki));

    uint32_t instanceApi = desc.apiVersion ? desc.apiVersion : VK_API_VERSION_1_0;
    Result<PhysicalDeviceCaps> caps = probePhysicalDevice(ctx->vki, desc.physicalDevice, instanceApi, 0);
    if (!caps) return caps.status();

    DeviceRequirements requirements = requiredDeviceFeatures(desc.featureSets);
    std::vector<std::string> unsupported = missingRequirements(requirements, caps->apiVersion, caps->extensions,
                                                               caps->features->head());
    if (!unsupported.empty())
        return makeError(ErrorCode::MissingFeature, "adoptContext: device '" + caps->info.name +
                                                        "' does not support " + joinNames(unsupported));
    std::vector<std::string> notEnabled =
        missingRequirements(requirements, caps->apiVersion, deviceExtensions, desc.enabledFeatures);
    if (!notEnabled.empty())
        return makeError(ErrorCode::MissingFeature,
                         "adoptContext: the host's VkDevice on '" + caps->info.name + "' was created without " +
                             joinNames(notEnabled) + " (enable what requiredDeviceFeatures() lists)");

    if (desc.countValidationMessages) VKC_TRY(createMessenger(*ctx));
    ctx->featureSets = desc.featureSets;
    VKC_TRY(initContext(*ctx, caps.value(), deviceExtensions, desc.enabledFeatures, desc.allocator));
    return Context(std::move(ctx));
}

Status requireFeatureSet(const VulkanContext& ctx, FeatureSets set, const char* who) {
    if ((ctx.featureSets & set) == set) return Status::success();
    const DeviceRequirements base = requiredDeviceFeatures(kFeatureSetBase);
    auto inBase = [&](const char* name) {
        return std::any_of(base.features.begin(), base.features.end(),
                           [&](const FeatureRequirement& f) { return !f.optional && !strcmp(f.name, name); });
    };
    std::vector<std::string> names;
    for (const FeatureRequirement& f : requiredDeviceFeatures(set).features)
        if (!f.optional && !inBase(f.name)) names.push_back(f.name);
    std::string setName;
    for (const NamedFeatureSet& named : namedFeatureSets())
        if (named.set == set) setName = named.name;
    return makeError(ErrorCode::MissingFeature, std::string(who) + " needs " + joinNames(names) + " (the \"" +
                                                    setName + "\" feature set), which the context was created "
                                                    "without (ContextDesc::featureSets, HeadlessDesc::featureSets)");
}

const DeviceInfo& deviceInfo(const Context& context) { return vulkanOf(context).info; }

ContextInfo contextInfo(const Context& context) {
    const VulkanContext& c = vulkanOf(context);
    return {c.instance,   c.physicalDevice,   c.device,     c.queueFamilyIndex,        c.queue,
            c.apiVersion, c.hasRayQuery,      c.hasRayTracingPipeline, c.hasAccelerationStructure, c.hasDebugUtils,
            c.featureSets};
}

uint32_t validationMessageCount(const Context& context) { return vulkanOf(context).validationCount.load(); }

std::vector<std::string> validationMessages(const Context& context) {
    VulkanContext& ctx = vulkanOf(context);
    std::lock_guard<std::mutex> lock(ctx.messageMutex);
    return ctx.messages;
}

void setObjectName(const Context& context, uint32_t objectType, uint64_t handle, const char* name) {
    setObjectName(vulkanOf(context), VkObjectType(objectType), handle, name);
}
void beginLabel(const Context& context, VkCommandBuffer cmd, const char* name) { beginLabel(vulkanOf(context), cmd, name); }
void endLabel(const Context& context, VkCommandBuffer cmd) { endLabel(vulkanOf(context), cmd); }

}  // namespace vkc
