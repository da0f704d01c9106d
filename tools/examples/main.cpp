// vkcollide-example: a small Vulkan renderer that uses vkcollide the way an engine would (its own
// instance and device through volk, its own vertex buffer, its own deformation pass, vkcollide's
// passes recorded into its command buffers). One PNG per frame, and with --window a window too.
#include "tools/examples/example_run.h"

#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
    vkc::example::ExampleOptions options;
    CLI::App app{"vkcollide-example: render a scene, deform one mesh on the GPU, tint the colliding objects"};
    app.add_option("scene", options.scene, "Scene file (JSON, see the README's formats)")->required();
    app.add_option("--method", options.method, "Collision method: aabb-tree, ebpi, stencil, consistent-pairs or ldi (each GPU-driven)");
    app.add_option("--tolerance", options.tolerance, "ebpi: intersection volume error allowed per pair, world units cubed")
        ->check(CLI::PositiveNumber);
    app.add_option("--frames", options.frames, "Frames to render")->check(CLI::Range(1u, 100000u));
    app.add_option("--out", options.out, "Folder for frame_NNNN.png");
    app.add_option("--deform", options.deformObject, "Object whose mesh the example deforms on the GPU");
    app.add_option("--growth", options.growth, "How much that mesh grows each frame (fraction of its size)")
        ->check(CLI::Range(0.0f, 1.0f));
    app.add_flag("--validation", options.validation, "Khronos validation layer; any message fails the run");
    app.add_flag("--window", options.window, "Also show the frames in a window (needs a display, e.g. X11 or xvfb-run)");
    app.add_option("--renderdoc-capture", options.renderdocCapture,
                   "Capture one frame with RenderDoc's in-application API into this .rdc file");
    app.add_option("--capture-frame", options.captureFrame, "The frame --renderdoc-capture captures (default 2)");
    CLI11_PARSE(app, argc, argv);
    return vkc::example::runExample(options);
}
