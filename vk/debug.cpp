// Debug utils: object names and labels for RenderDoc, and a messenger that counts validation.
#include "vk/debug.h"

#include <cstring>

namespace vkc {

void setObjectName(const VulkanContext& ctx, VkObjectType type, uint64_t handle, const char* name) {
    if (!ctx.vki.vkSetDebugUtilsObjectNameEXT || !name || !handle) return;
    VkDebugUtilsObjectNameInfoEXT info = {VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    info.objectType = type;
    info.objectHandle = handle;
    info.pObjectName = name;
    // A failed name must not fail the caller's work; log it instead.
    Status status = checkVk(ctx.vki.vkSetDebugUtilsObjectNameEXT(ctx.device, &info), "vkSetDebugUtilsObjectNameEXT");
    if (!status) logMessage(ctx, LogLevel::Warning, status.describe() + " for '" + name + "'");
}

void beginLabel(const VulkanContext& ctx, VkCommandBuffer cmd, const char* name) {
    if (!ctx.vki.vkCmdBeginDebugUtilsLabelEXT) return;
    VkDebugUtilsLabelEXT label = {VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
    label.pLabelName = name;
    ctx.vki.vkCmdBeginDebugUtilsLabelEXT(cmd, &label);
}

void endLabel(const VulkanContext& ctx, VkCommandBuffer cmd) {
    if (ctx.vki.vkCmdEndDebugUtilsLabelEXT) ctx.vki.vkCmdEndDebugUtilsLabelEXT(cmd);
}

void insertLabel(const VulkanContext& ctx, VkCommandBuffer cmd, const char* name) {
    if (!ctx.vki.vkCmdInsertDebugUtilsLabelEXT) return;
    VkDebugUtilsLabelEXT label = {VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
    label.pLabelName = name;
    ctx.vki.vkCmdInsertDebugUtilsLabelEXT(cmd, &label);
}

static VKAPI_ATTR VkBool32 VKAPI_CALL onDebugMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                     VkDebugUtilsMessageTypeFlagsEXT types,
                                                     const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                     void* user) {
    auto& ctx = *static_cast<VulkanContext*>(user);
    bool problem = severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    // Only the layer's findings count: loader chatter is logged but is not a test failure.
    bool validation = (types & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) != 0;
    std::string text = std::string(validation ? "[validation] " : "[vulkan] ") +
                       (data->pMessageIdName ? data->pMessageIdName : "") + ": " +
                       (data->pMessage ? data->pMessage : "");
    if (problem && validation) {
        ctx.validationCount.fetch_add(1);
        std::lock_guard<std::mutex> lock(ctx.messageMutex);
        if (ctx.messages.size() < 256) ctx.messages.push_back(text);
    }
    LogLevel level = severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT     ? LogLevel::Error
                     : severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT ? LogLevel::Warning
                     : severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT    ? LogLevel::Info
                                                                                    : LogLevel::Debug;
    logMessage(ctx, level, text);
    return VK_FALSE;
}

VkDebugUtilsMessengerCreateInfoEXT messengerCreateInfo(VulkanContext& ctx) {
    VkDebugUtilsMessengerCreateInfoEXT info = {VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    info.pfnUserCallback = onDebugMessage;
    info.pUserData = &ctx;
    return info;
}

Status createMessenger(VulkanContext& ctx) {
    if (!ctx.vki.vkCreateDebugUtilsMessengerEXT)
        return makeError(ErrorCode::MissingFeature, "counting validation messages needs VK_EXT_debug_utils on the instance");
    VkDebugUtilsMessengerCreateInfoEXT info = messengerCreateInfo(ctx);
    return checkVk(ctx.vki.vkCreateDebugUtilsMessengerEXT(ctx.instance, &info, ctx.allocationCallbacks, &ctx.messenger),
                   "vkCreateDebugUtilsMessengerEXT(vkcollide validation counter)");
}

}  // namespace vkc
