// The example's frame loop, as a renderer runs it: per frame one command buffer holding the host's
// deformation pass, vkcollide's CollisionFrame (the broadphase and a GPU-driven detector, aabb-tree,
// ebpi, stencil or consistent-pairs, reading the deformed vertices in place, no CPU boxes; one
// completion signal), and the draw, whose tints come from the collision results of two frames
// earlier (read without waiting, once that frame's fence has passed); with a window, the image
// blitted into the swapchain and presented.
#pragma once

#include <cstdint>
#include <string>

namespace vkc::example {

struct ExampleOptions {
    std::string scene;
    std::string method = "aabb-tree";  // or "ebpi" (the GPU-driven methods)
    double tolerance = 1e-3;           // ebpi: intersection volume error allowed per pair (world units cubed)
    uint32_t frames = 20;
    std::string out = "example-frames";
    uint32_t deformObject = 0;  // its mesh grows by `growth` of its size each frame
    float growth = 0.02f;
    bool validation = false;  // Khronos layer; any message makes the exit code 1
    std::string renderdocCapture;  // .rdc file: RenderDoc captures frame `captureFrame` (host's passes and vkcollide's)
    uint32_t captureFrame = 2;
    bool window = false;  // also show the frames in a window (needs a display; the PNGs are still written)
};

// 0 on success, 1 for validation messages, 2 for bad input or a Vulkan failure (said on stderr).
int runExample(const ExampleOptions& options);

}  // namespace vkc::example
