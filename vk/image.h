// 2D images (optionally layered) with a default view; plain struct + create/destroy.
#pragma once

#include "vk/context.h"

namespace vkc {

struct ImageDesc {
    uint32_t width, height;
    VkFormat format;
    VkImageUsageFlags usage;
    uint32_t layers;  // 0 or 1: a 2D image; more: a 2D array (the view is an array view)
    const char* name;
};

struct Image {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;  // all layers, every aspect of the format
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkExtent2D extent = {};
    uint32_t layers = 0;
    VkImageAspectFlags aspect = 0;
    Allocation allocation;
};

// Depth and/or stencil aspects for depth formats, color otherwise.
VkImageAspectFlags formatAspect(VkFormat format);

// The first of D32_SFLOAT_S8_UINT and D24_UNORM_S8_UINT (exact float depth preferred) whose optimal
// tiling has every one of `features`; VK_FORMAT_UNDEFINED when neither has.
VkFormat pickDepthStencilFormat(const VulkanContext& ctx, VkFormatFeatureFlags features);

Result<Image> createImage(VulkanContext& ctx, const ImageDesc& desc);
void destroyImage(VulkanContext& ctx, Image& image);

// A view of `layerCount` layers from `baseLayer` (2D when layerCount is 1, else a 2D array).
Result<VkImageView> createImageView(VulkanContext& ctx, VkImage image, VkFormat format, VkImageAspectFlags aspect,
                                    uint32_t baseLayer, uint32_t layerCount, const char* name);

}  // namespace vkc
