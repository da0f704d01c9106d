// `vkcollide detect SCENE --method M`: loads a scene, runs the GPU broadphase and the method on
// every frame, checks the broadphase against the method's pairs, and writes the report JSON.
#include "tools/cli/commands.h"
#include "tools/cli/exit_code.h"
#include "tools/cli/harness_context.h"
#include "tools/cli/method_catalog.h"
#include "tools/cli/method_run.h"
#include "tools/cli/renderdoc_capture.h"
#include "tools/cli/report_json.h"
#include "tools/io/scene_builder.h"
#include "vkcollide/broadphase.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace vkc::tools {

namespace {

struct DetectOptions {
    std::string scene;
    std::string method;
    MethodOptions methodOptions;  // resolution, views, layer cap, tolerance, ...
    bool validate = false;  // Khronos validation (with synchronization checks); any message fails the run
    std::string report;
    std::optional<uint32_t> frames;
    std::string renderdocCapture;
    std::string device;
};

Status runDetect(const DetectOptions& options) {
    const MethodEntry* method = findMethod(options.method);
    if (!method) return makeError(ErrorCode::InvalidArgument, "unknown method \"" + options.method + "\" (see `vkcollide info`)");

    auto description = io::loadScene(options.scene);
    if (!description) return description.status();

    // RenderDoc hooks Vulkan through its layer: load it before the instance exists.
    std::optional<RenderDocCapture> capture;
    if (!options.renderdocCapture.empty()) {
        auto loaded = RenderDocCapture::load(options.renderdocCapture);
        if (!loaded) return loaded.status();
        capture = std::move(loaded.value());
    }
    // RenderDoc 1.24 cannot capture ray queries, acceleration structures or device addresses.
    auto context = createHarnessContext({options.device, options.validate, capture.has_value()});
    if (!context) return context.status();
    const DeviceInfo& device = deviceInfo(context.value());

    auto scene = io::buildScene(context.value(), description.value(), kObjectSpaceMethodRequirements);
    if (!scene) return scene.status();
    auto broadphase = Broadphase::create(context.value());
    if (!broadphase) return broadphase.status();
    auto methodRun = startMethod(options.method, options.methodOptions, context.value(), description.value(), scene.value());
    if (!methodRun) return methodRun.status();

    RunReport report;
    report.method = options.method;
    report.scene = options.scene;
    report.device = {device.name, device.driver, contextInfo(*context).rayQuery};
    const size_t frameCount = std::min<size_t>(description->frameCount(), options.frames.value_or(UINT32_MAX));
    for (size_t f = 0; f < frameCount; ++f) {
        const io::SceneFrame& frame = description->frames[f];
        auto start = std::chrono::steady_clock::now();
        VKC_TRY(io::applyFrame(scene.value(), frame));
        if (capture && f == 0) capture->begin(contextInfo(*context).instance);
        auto pcs = broadphase->run(scene.value());
        if (!pcs) return pcs.status();
        auto frameReport = runReportedFrame(methodRun.value(), frame, pcs.value());
        if (capture && f == 0) VKC_TRY(capture->end());
        if (!frameReport) return frameReport.status();
        frameReport->wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        std::cerr << "frame " << f << ": " << frameReport->results.pairs.size() << " colliding pairs of "
                  << pcs->pairCount << " potentially colliding\n";
        for (const std::string& warning : frameReport->results.warnings) std::cerr << "  warning: " << warning << "\n";
        report.frames.push_back(std::move(frameReport.value()));
    }
    report.settings = methodRun->settings();
    VKC_TRY(methodRun->finish());
    if (!options.methodOptions.gradient.empty() && options.method != "ebpi")
        std::cerr << "--gradient: only --method ebpi computes the volume's gradient; nothing written\n";
    if (!options.methodOptions.images.empty() && !method->images)
        std::cerr << "--images: --method " << options.method << " reads back no images; nothing written\n";
    VKC_TRY(writeReport(toJson(report), options.report));
    if (options.validate) VKC_TRY(validationVerdict(context.value()));
    return Status::success();
}

}  // namespace

void addDetectCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<DetectOptions>();
    CLI::App* command = app.add_subcommand("detect", "Run a collision method on a scene file and write a report");
    command->add_option("scene", options->scene, "Scene file (JSON, see DESIGN.md)")->required()->check(CLI::ExistingFile);
    command->add_option("--method,-m", options->method, "Method id (see `vkcollide info`)")->required();
    command->add_option("--resolution", options->methodOptions.resolution,
                        "Image-space methods: pixels per side (default: the method's, shown in the report)")
        ->check(CLI::Range(16u, 16384u));
    command->add_option("--layer-cap", options->methodOptions.layerCap,
                        "ldi: layers peeled per pixel at first (default: the method's); a frame with deeper pairs runs "
                        "again with the layers it needs, up to 254 (the cap used is in the report)")
        ->check(CLI::Range(1u, 254u));
    command->add_option("--max-bound", options->methodOptions.maxBound,
                        "ldi: a pair whose bound is above this fraction of its volume runs again at twice the "
                        "resolution, as far as the device holds (default 0.2; 0: every pair at --resolution only)")
        ->check(CLI::Range(0.0, 1.0));
    command->add_option("--max-rays", options->methodOptions.maxRays,
                        "ebpi: rays per frame at first (default: the method's); a frame that needs more runs again "
                        "with them, as far as the device's storage bindings hold")
        ->check(CLI::Range(1u, 1u << 26));
    command->add_option("--hit-capacity", options->methodOptions.hitCapacity,
                        "ebpi: hits kept per ray at first (default: the method's); doubled while rays meet more")
        ->check(CLI::Range(1u, 1024u));
    command->add_option("--point-capacity", options->methodOptions.pointCapacity,
                        "stencil, consistent-pairs: collision points kept at first (default: the method's); a frame "
                        "with more runs again with room for them")
        ->check(CLI::Range(1u, 1u << 26));
    command->add_option("--error-bound", options->methodOptions.errorBound, kLdiErrorBoundHelp)
        ->check(CLI::IsMember(ldiErrorBoundNames()));
    command->add_option("--views", options->methodOptions.views, "stencil: orthogonal views, 3 or 1 (default: the method's)")
        ->check(CLI::IsMember({1u, 3u}));
    command->add_option("--tolerance", options->methodOptions.tolerance,
                        "ebpi (required): intersection-volume error allowed per pair: a volume in world units cubed, "
                        "or a percentage of each pair's own volume, such as 2%");
    command->add_option("--gradient", options->methodOptions.gradient,
                        "ebpi: JSON file for each pair's volume gradient per vertex (dV/d world position)");
    command->add_option("--ray-backend", options->methodOptions.rayBackend, kRayBackendHelp)
        ->check(CLI::IsMember(rayBackendNames()));
    command->add_option("--directions", options->methodOptions.directions, kDirectionsHelp)
        ->check(CLI::IsMember(directionNames()));
    command->add_option("--report", options->report, "Report file (JSON); default: standard output");
    command->add_option("--images", options->methodOptions.images,
                        "Directory for PNGs of the method's intermediate images (" + imagesHelp() + ")");
    command->add_option("--frames", options->frames, "Run at most this many frames of the scene")
        ->check(CLI::Range(1u, std::numeric_limits<uint32_t>::max()));  // PositiveNumber prints DBL_MAX's 309 digits
    command->add_option("--renderdoc-capture", options->renderdocCapture,
                        "Capture the first frame's GPU work with RenderDoc into this .rdc file");
    command->add_option("--device", options->device, "Device index or name substring (default: VKC_DEVICE or best)");
    command->add_flag("--list", options->methodOptions.list, "Include the triangle pair lists in the report");
    command->add_flag("--validate", options->validate,
                      "Run under the Khronos validation layer (synchronization checks too); any message fails (exit 1)");
    command->callback([options, &exitCode] { exitCode = commandExitCode("detect", runDetect(*options)); });
}

}  // namespace vkc::tools
