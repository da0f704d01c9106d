// The example's window (--window): a GLFW window, its Vulkan surface and swapchain, and per frame
// the rendered image blitted into an acquired swapchain image and presented, in the frame's own
// command buffer and submit, as a renderer presents. GLFW is Debian's libglfw3 (3.3); it finds
// the same Vulkan loader volk does.
#pragma once

#include <volk.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct GLFWwindow;

namespace vkc::example {

class HostDevice;

class WindowPresenter {
public:
    // A window of width x height; null with `error` when there is no display (or GLFW has no
    // Vulkan support).
    static std::unique_ptr<WindowPresenter> open(uint32_t width, uint32_t height, std::string& error);
    ~WindowPresenter();

    // What the host's instance must enable to make a surface (VK_KHR_surface and the platform's).
    std::vector<const char*> instanceExtensions() const;
    // Whether queue family `family` of `device` can present to this display.
    bool canPresent(VkInstance instance, VkPhysicalDevice device, uint32_t family) const;

    // The surface and a FIFO swapchain on `host` (created with this window's extensions, its
    // queue able to present, VK_KHR_swapchain enabled), and an acquisition semaphore per frame in
    // flight. Empty on success.
    std::string createSwapchain(const HostDevice& host, uint32_t framesInFlight);

    // Acquires the next image for frame slot `slot`; false with `error` when the swapchain is lost.
    bool acquire(uint32_t slot, std::string& error);
    // Blits `source` (width x height, in TRANSFER_SRC_OPTIMAL) into the acquired image, left ready
    // to present.
    void recordBlit(VkCommandBuffer cmd, VkImage source) const;
    // The frame's submit waits on the acquisition and signals the image's presentation semaphore.
    VkSemaphoreSubmitInfo acquiredWait(uint32_t slot) const;
    VkSemaphoreSubmitInfo renderedSignal() const;
    // Presents the acquired image after the frame's submit; false with `error` on failure.
    bool present(VkQueue queue, std::string& error);
    // The user closed the window.
    bool closed() const;

private:
    WindowPresenter() = default;

    GLFWwindow* window_ = nullptr;
    uint32_t width_ = 0, height_ = 0;
    const HostDevice* host_ = nullptr;
    VkSurfaceKHR surface_ = VK_NULL_HANDLE;
    VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
    VkExtent2D extent_{};
    std::vector<VkImage> images_;
    std::vector<VkSemaphore> acquired_;  // per frame slot
    std::vector<VkSemaphore> rendered_;  // per swapchain image: waited by its presentation
    uint32_t imageIndex_ = 0;
};

}  // namespace vkc::example
