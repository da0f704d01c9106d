// Debug-utils names, labels and the messenger that counts validation messages.
#pragma once

#include "vk/context.h"

namespace vkc {

// No-ops when VK_EXT_debug_utils is not enabled on the instance.
void setObjectName(const VulkanContext& ctx, VkObjectType type, uint64_t handle, const char* name);
void beginLabel(const VulkanContext& ctx, VkCommandBuffer cmd, const char* name);
void endLabel(const VulkanContext& ctx, VkCommandBuffer cmd);
void insertLabel(const VulkanContext& ctx, VkCommandBuffer cmd, const char* name);

template <typename Handle>
void setObjectName(const VulkanContext& ctx, VkObjectType type, Handle handle, const char* name) {
    setObjectName(ctx, type, reinterpret_cast<uint64_t>(handle), name);
}

// Counts validation warnings/errors into ctx and forwards every message to ctx.log. `ctx` must
// stay at one address while the messenger lives (VulkanContext is heap-allocated).
VkDebugUtilsMessengerCreateInfoEXT messengerCreateInfo(VulkanContext& ctx);
Status createMessenger(VulkanContext& ctx);

}  // namespace vkc
