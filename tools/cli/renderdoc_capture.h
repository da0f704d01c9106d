// `--renderdoc-capture FILE`: brackets one detection with RenderDoc's in-application API.
// RenderDoc hooks Vulkan through its layer, so the library must be loaded before the VkInstance is
// created; the capture path must also avoid ray queries, acceleration structures and buffer device
// addresses, which RenderDoc 1.24 cannot capture.
#pragma once

#include "vkcollide/status.h"

#include <renderdoc_app.h>
#include <vulkan/vulkan_core.h>

#include <string>

namespace vkc::tools {

class RenderDocCapture {
public:
    // Loads librenderdoc.so (or finds it already injected by renderdoccmd) and points its capture
    // path at `outputFile`. Call before creating the Vulkan context.
    static Result<RenderDocCapture> load(const std::string& outputFile);

    // Starts a capture of everything the device does until end().
    void begin(VkInstance instance);
    // Ends the capture and moves RenderDoc's file to the requested path.
    Status end();

private:
    RENDERDOC_API_1_4_1* api_ = nullptr;
    std::string outputFile_;
    void* device_ = nullptr;
};

}  // namespace vkc::tools
