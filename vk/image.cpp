// Images through the context's Allocator.
#include "vk/image.h"

#include "vk/debug.h"

#include <string>

namespace vkc {

VkImageAspectFlags formatAspect(VkFormat format) {
    switch (format) {
        case VK_FORMAT_D16_UNORM:
        case VK_FORMAT_X8_D24_UNORM_PACK32:
        case VK_FORMAT_D32_SFLOAT: return VK_IMAGE_ASPECT_DEPTH_BIT;
        case VK_FORMAT_S8_UINT: return VK_IMAGE_ASPECT_STENCIL_BIT;
        case VK_FORMAT_D16_UNORM_S8_UINT:
        case VK_FORMAT_D24_UNORM_S8_UINT:
        case VK_FORMAT_D32_SFLOAT_S8_UINT: return VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
        default: return VK_IMAGE_ASPECT_COLOR_BIT;
    }
}

Result<VkImageView> createImageView(VulkanContext& ctx, VkImage image, VkFormat format, VkImageAspectFlags aspect,
                                    uint32_t baseLayer, uint32_t layerCount, const char* name) {
    VkImageViewCreateInfo info = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    info.image = image;
    info.viewType = layerCount > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
    info.format = format;
    info.subresourceRange = {aspect, 0, 1, baseLayer, layerCount};
    VkImageView view = VK_NULL_HANDLE;
    std::string what = std::string("vkCreateImageView(") + (name ? name : "unnamed") + ")";
    VKC_TRY(checkVk(ctx.vkd.vkCreateImageView(ctx.device, &info, ctx.allocationCallbacks, &view), what.c_str()));
    setObjectName(ctx, VK_OBJECT_TYPE_IMAGE_VIEW, view, name);
    return view;
}

VkFormat pickDepthStencilFormat(const VulkanContext& ctx, VkFormatFeatureFlags features) {
    for (VkFormat format : {VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT}) {
        VkFormatProperties props = {};
        ctx.vki.vkGetPhysicalDeviceFormatProperties(ctx.physicalDevice, format, &props);
        if ((props.optimalTilingFeatures & features) == features) return format;
    }
    return VK_FORMAT_UNDEFINED;
}

Result<Image> createImage(VulkanContext& ctx, const ImageDesc& desc) {
    const char* name = desc.name ? desc.name : "unnamed image";
    if (!desc.width || !desc.height || desc.format == VK_FORMAT_UNDEFINED)
        return makeError(ErrorCode::InvalidArgument, std::string("image '") + name + "' has no size or no format");
    Image image;
    image.format = desc.format;
    image.extent = {desc.width, desc.height};
    image.layers = desc.layers ? desc.layers : 1;
    image.aspect = formatAspect(desc.format);

    VkImageCreateInfo info = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = desc.format;
    info.extent = {desc.width, desc.height, 1};
    info.mipLevels = 1;
    info.arrayLayers = image.layers;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = desc.usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    std::string what = std::string("vkCreateImage(") + name + ", " + std::to_string(desc.width) + "x" +
                       std::to_string(desc.height) + "x" + std::to_string(image.layers) + ")";
    VKC_TRY(checkVk(ctx.vkd.vkCreateImage(ctx.device, &info, ctx.allocationCallbacks, &image.image), what.c_str()));
    setObjectName(ctx, VK_OBJECT_TYPE_IMAGE, image.image, name);

    VkMemoryRequirements requirements;
    ctx.vkd.vkGetImageMemoryRequirements(ctx.device, image.image, &requirements);
    AllocationRequest request = {};
    request.requirements = {requirements.size, requirements.alignment, requirements.memoryTypeBits};
    request.usage = MemoryUsage::DeviceLocal;
    request.linear = false;
    request.name = name;
    Result<Allocation> allocation = ctx.allocator->allocate(request);
    if (!allocation) {
        destroyImage(ctx, image);
        return allocation.status();
    }
    image.allocation = allocation.value();
    what = std::string("vkBindImageMemory(") + name + ")";
    Status status = checkVk(
        ctx.vkd.vkBindImageMemory(ctx.device, image.image, image.allocation.memory, image.allocation.offset), what.c_str());
    if (status) {
        Result<VkImageView> view = createImageView(ctx, image.image, desc.format, image.aspect, 0, image.layers, name);
        if (view) image.view = view.value();
        else status = view.status();
    }
    if (!status) {
        destroyImage(ctx, image);
        return status;
    }
    return image;
}

void destroyImage(VulkanContext& ctx, Image& image) {
    if (image.view) ctx.vkd.vkDestroyImageView(ctx.device, image.view, ctx.allocationCallbacks);
    if (image.image) ctx.vkd.vkDestroyImage(ctx.device, image.image, ctx.allocationCallbacks);
    if (image.allocation.memory) ctx.allocator->free(image.allocation);
    image = Image{};
}

}  // namespace vkc
