// The example's window; see window_presenter.h.
#include "tools/examples/window_presenter.h"

#include "tools/examples/host_device.h"

// After volk.h (window_presenter.h): GLFW declares its Vulkan functions once it has seen Vulkan's types.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>

namespace vkc::example {

std::unique_ptr<WindowPresenter> WindowPresenter::open(uint32_t width, uint32_t height, std::string& error) {
    if (!glfwInit()) {
        error = "--window: no display (GLFW could not initialise; is DISPLAY set?)";
        return nullptr;
    }
    std::unique_ptr<WindowPresenter> presenter(new WindowPresenter());
    if (!glfwVulkanSupported()) {
        error = "--window: GLFW finds no Vulkan loader";
        return nullptr;
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
    presenter->window_ = glfwCreateWindow(int(width), int(height), "vkcollide-example", nullptr, nullptr);
    if (!presenter->window_) {
        error = "--window: GLFW could not create a window";
        return nullptr;
    }
    presenter->width_ = width;
    presenter->height_ = height;
    return presenter;
}

WindowPresenter::~WindowPresenter() {
    if (host_) {
        for (VkSemaphore s : acquired_) vkDestroySemaphore(host_->device, s, nullptr);
        for (VkSemaphore s : rendered_) vkDestroySemaphore(host_->device, s, nullptr);
        if (swapchain_) vkDestroySwapchainKHR(host_->device, swapchain_, nullptr);
        if (surface_) vkDestroySurfaceKHR(host_->instance, surface_, nullptr);
    }
    if (window_) glfwDestroyWindow(window_);
    glfwTerminate();
}

std::vector<const char*> WindowPresenter::instanceExtensions() const {
    uint32_t count = 0;
    const char** names = glfwGetRequiredInstanceExtensions(&count);
    return std::vector<const char*>(names, names + count);
}

bool WindowPresenter::canPresent(VkInstance instance, VkPhysicalDevice device, uint32_t family) const {
    return glfwGetPhysicalDevicePresentationSupport(instance, device, family) == GLFW_TRUE;
}

std::string WindowPresenter::createSwapchain(const HostDevice& host, uint32_t framesInFlight) {
    host_ = &host;
    if (glfwCreateWindowSurface(host.instance, window_, nullptr, &surface_) != VK_SUCCESS)
        return "--window: cannot create a Vulkan surface for the window";
    VkBool32 supported = VK_FALSE;
    if (vkGetPhysicalDeviceSurfaceSupportKHR(host.physicalDevice, host.queueFamily, surface_, &supported) != VK_SUCCESS ||
        !supported)
        return "--window: the device's queue cannot present to the window";
    VkSurfaceCapabilitiesKHR caps;
    if (vkGetPhysicalDeviceSurfaceCapabilitiesKHR(host.physicalDevice, surface_, &caps) != VK_SUCCESS)
        return "--window: vkGetPhysicalDeviceSurfaceCapabilitiesKHR failed";
    if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT))
        return "--window: the surface's images cannot be blitted into (no TRANSFER_DST usage)";
    uint32_t count = 0;
    std::vector<VkSurfaceFormatKHR> formats;
    if (vkGetPhysicalDeviceSurfaceFormatsKHR(host.physicalDevice, surface_, &count, nullptr) == VK_SUCCESS) {
        formats.resize(count);
        if (vkGetPhysicalDeviceSurfaceFormatsKHR(host.physicalDevice, surface_, &count, formats.data()) < VK_SUCCESS)
            formats.clear();
        formats.resize(std::min<size_t>(count, formats.size()));
    }
    if (formats.empty()) return "--window: the surface offers no format";
    // The rendered image is UNORM: an UNORM swapchain shows it as the PNGs do.
    VkSurfaceFormatKHR format = formats[0];
    for (const VkSurfaceFormatKHR& f : formats)
        if (f.format == VK_FORMAT_B8G8R8A8_UNORM || f.format == VK_FORMAT_R8G8B8A8_UNORM) format = f;
    extent_ = caps.currentExtent.width != UINT32_MAX ? caps.currentExtent : VkExtent2D{width_, height_};

    VkSwapchainCreateInfoKHR info = {VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    info.surface = surface_;
    info.minImageCount = caps.maxImageCount == 0 ? caps.minImageCount + 1 : std::min(caps.minImageCount + 1, caps.maxImageCount);
    info.imageFormat = format.format;
    info.imageColorSpace = format.colorSpace;
    info.imageExtent = extent_;
    info.imageArrayLayers = 1;
    info.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.preTransform = caps.currentTransform;
    info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    info.presentMode = VK_PRESENT_MODE_FIFO_KHR;  // always there; vsync, as a game's default
    info.clipped = VK_TRUE;
    if (vkCreateSwapchainKHR(host.device, &info, nullptr, &swapchain_) != VK_SUCCESS) return "--window: vkCreateSwapchainKHR failed";
    if (vkGetSwapchainImagesKHR(host.device, swapchain_, &count, nullptr) != VK_SUCCESS) return "--window: vkGetSwapchainImagesKHR failed";
    images_.resize(count);
    if (vkGetSwapchainImagesKHR(host.device, swapchain_, &count, images_.data()) < VK_SUCCESS)
        return "--window: vkGetSwapchainImagesKHR failed";
    images_.resize(count);
    const VkSemaphoreCreateInfo semaphore = {VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    acquired_.resize(framesInFlight);
    rendered_.resize(count);
    for (std::vector<VkSemaphore>* set : {&acquired_, &rendered_})
        for (VkSemaphore& s : *set)
            if (vkCreateSemaphore(host.device, &semaphore, nullptr, &s) != VK_SUCCESS) return "--window: vkCreateSemaphore failed";
    return {};
}

bool WindowPresenter::acquire(uint32_t slot, std::string& error) {
    glfwPollEvents();
    const VkResult acquired =
        vkAcquireNextImageKHR(host_->device, swapchain_, UINT64_MAX, acquired_[slot], VK_NULL_HANDLE, &imageIndex_);
    if (acquired == VK_SUCCESS || acquired == VK_SUBOPTIMAL_KHR) return true;
    error = "--window: vkAcquireNextImageKHR failed (" + std::to_string(acquired) + ")";
    return false;
}

void WindowPresenter::recordBlit(VkCommandBuffer cmd, VkImage source) const {
    auto transition = [&](VkImageLayout from, VkImageLayout to, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
                          VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess) {
        VkImageMemoryBarrier2 barrier = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
        barrier.srcStageMask = srcStage;
        barrier.srcAccessMask = srcAccess;
        barrier.dstStageMask = dstStage;
        barrier.dstAccessMask = dstAccess;
        barrier.oldLayout = from;
        barrier.newLayout = to;
        barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        barrier.image = images_[imageIndex_];
        barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        VkDependencyInfo dependency = {VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
        dependency.imageMemoryBarrierCount = 1;
        dependency.pImageMemoryBarriers = &barrier;
        (vkCmdPipelineBarrier2 ? vkCmdPipelineBarrier2 : vkCmdPipelineBarrier2KHR)(cmd, &dependency);
    };
    // The acquisition's semaphore is waited at the blit's stage (acquiredWait), so the layout
    // change chains after it.
    transition(VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_BLIT_BIT,
               VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    VkImageBlit region = {};
    region.srcSubresource = region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.srcOffsets[1] = {int32_t(width_), int32_t(height_), 1};
    region.dstOffsets[1] = {int32_t(extent_.width), int32_t(extent_.height), 1};
    vkCmdBlitImage(cmd, source, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, images_[imageIndex_],
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region, VK_FILTER_NEAREST);
    transition(VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_PIPELINE_STAGE_2_BLIT_BIT,
               VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE);
}

VkSemaphoreSubmitInfo WindowPresenter::acquiredWait(uint32_t slot) const {
    VkSemaphoreSubmitInfo wait = {VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    wait.semaphore = acquired_[slot];
    wait.stageMask = VK_PIPELINE_STAGE_2_BLIT_BIT;
    return wait;
}

VkSemaphoreSubmitInfo WindowPresenter::renderedSignal() const {
    VkSemaphoreSubmitInfo signal = {VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    signal.semaphore = rendered_[imageIndex_];
    signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    return signal;
}

bool WindowPresenter::present(VkQueue queue, std::string& error) {
    VkPresentInfoKHR info = {VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    info.waitSemaphoreCount = 1;
    info.pWaitSemaphores = &rendered_[imageIndex_];
    info.swapchainCount = 1;
    info.pSwapchains = &swapchain_;
    info.pImageIndices = &imageIndex_;
    const VkResult presented = vkQueuePresentKHR(queue, &info);
    if (presented == VK_SUCCESS || presented == VK_SUBOPTIMAL_KHR) return true;
    error = "--window: vkQueuePresentKHR failed (" + std::to_string(presented) + ")";
    return false;
}

bool WindowPresenter::closed() const { return glfwWindowShouldClose(window_); }

}  // namespace vkc::example
