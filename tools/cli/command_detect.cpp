// `vkcollide detect SCENE --method M`: loads a scene, runs the GPU broadphase and the method on
// every frame, checks the broadphase against the method's pairs, and writes the report JSON.
#include "tools/cli/aabb_tree_method.h"
#include "tools/cli/commands.h"
#include "tools/cli/ebpi_method.h"
#include "tools/cli/exact_method.h"
#include "tools/cli/ldi_method.h"
#include "tools/cli/method_catalog.h"
#include "tools/cli/renderdoc_capture.h"
#include "tools/cli/report_json.h"
#include "tools/io/scene_builder.h"
#include "vkcollide/aabb_tree.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/consistent_pairs.h"
#include "vkcollide/ldi.h"
#include "vkcollide/stencil.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>

namespace vkc::tools {

namespace {

// The backends --ray-backend names (Default is its absence).
constexpr EbpiRayBackendChoice kRayBackends[] = {EbpiRayBackendChoice::Compute, EbpiRayBackendChoice::RayQuery,
                                                 EbpiRayBackendChoice::RayTracingPipeline};

std::vector<std::string> rayBackendNames() {
    std::vector<std::string> names;
    for (EbpiRayBackendChoice backend : kRayBackends) names.push_back(ebpiRayBackendName(backend));
    return names;
}

struct DetectOptions {
    std::string scene;
    std::string method;
    std::optional<uint32_t> resolution;  // unset: the method's default (its settings header)
    std::optional<uint32_t> views;
    std::optional<uint32_t> layerCap;
    std::optional<double> tolerance;  // ebpi: absolute volume tolerance per pair
    std::string gradient;             // ebpi: --gradient FILE
    std::string rayBackend;           // ebpi: empty (the device's best) or an ebpiRayBackendName
    bool validate = false;  // Khronos validation (with synchronization checks); any message fails the run
    std::string report;
    std::string images;
    std::optional<uint32_t> frames;
    std::string renderdocCapture;
    std::string device;
    bool list = false;
};

// The broadphase must keep every pair the method found (it is conservative by construction).
void checkBroadphase(const BroadphaseResults& broadphase, FrameResults& results) {
    for (const PairResult& pair : results.pairs)
        if (!std::binary_search(broadphase.pairs.begin(), broadphase.pairs.end(), ObjectPair{pair.a, pair.b}))
            results.warnings.push_back("GPU broadphase missed colliding pair " + std::to_string(pair.a) + "-" +
                                       std::to_string(pair.b));
}

Status writeReport(const RunReport& report, const std::string& path) {
    std::string text = toJson(report).dump(2) + "\n";
    if (path.empty() || path == "-") {
        std::cout << text;
        return Status::success();
    }
    std::ofstream file(path);
    if (!(file << text)) return makeError(ErrorCode::IoError, "cannot write report \"" + path + "\"");
    return Status::success();
}

// One frame of a method, given the frame's poses (already applied to `scene`) and the broadphase;
// method-specific report fields go into `extra`.
using FrameRunner =
    std::function<Result<FrameResults>(const io::SceneFrame&, const BroadphaseResults&, nlohmann::json& extra)>;

// A method as `detect` runs it: its frames, and the settings its detector used (defaults filled in,
// read once the frames ran) for the report.
struct MethodRun {
    FrameRunner runFrame;
    std::function<nlohmann::json()> settings = [] { return nlohmann::json::object(); };
    std::function<Status()> finish = [] { return Status::success(); };  // after the last frame
};

// The settings the report shows of each detector.
nlohmann::json reportedSettings(const StencilSettings& s) { return {{"resolution", s.resolution}, {"views", s.views}}; }
nlohmann::json reportedSettings(const ConsistentPairsSettings& s) { return {{"resolution", s.resolution}}; }

// A detector whose blocking run() over the broadphase's pairs is the frame; its details go into
// the report under `key`.
template <class Detector>
Result<MethodRun> startDetector(Context& context, const typename Detector::Settings& settings, const Scene& scene,
                                const char* key) {
    auto created = Detector::create(context, settings);
    if (!created) return created.status();
    auto detector = std::make_shared<Detector>(std::move(created.value()));
    MethodRun run;
    run.runFrame = [detector, &scene, key](const io::SceneFrame&, const BroadphaseResults& pcs, nlohmann::json& extra) {
        typename Detector::Details details;
        auto results = detector->run(scene, pcs, &details);
        if (results) extra[key] = toJson(details);
        return results;
    };
    run.settings = [detector] { return reportedSettings(detector->settings()); };
    return run;
}

Result<MethodRun> startExact(const DetectOptions& options, Context&, const io::SceneDescription& file, const Scene&) {
    MethodRun run;
    run.runFrame = [&options, &file](const io::SceneFrame& frame, const BroadphaseResults&, nlohmann::json&) {
        return runExactFrame(file, frame, options.list);
    };
    return run;
}

Result<MethodRun> startAabbTree(const DetectOptions& options, Context& context, const io::SceneDescription&,
                                const Scene& scene) {
    AabbTreeSettings settings;
    settings.keepTrianglePairList = options.list;
    auto created = AabbTreeDetector::create(context, settings);
    if (!created) return created.status();
    // runAabbTreeFrame replaces the detector when its lists must grow.
    auto detector = std::make_shared<std::optional<AabbTreeDetector>>(std::move(created.value()));
    MethodRun run;
    run.runFrame = [&options, &context, &scene, detector](const io::SceneFrame&, const BroadphaseResults& pcs,
                                                          nlohmann::json& extra) {
        AabbTreeFrameDetails details;
        auto results = runAabbTreeFrame(context, *detector, scene, pcs, options.list, &details);
        if (results) extra["aabb_tree"] = toJson(details);
        return results;
    };
    return run;
}

Result<MethodRun> startStencil(const DetectOptions& options, Context& context, const io::SceneDescription&,
                               const Scene& scene) {
    StencilSettings settings;
    settings.resolution = options.resolution.value_or(0);
    settings.views = options.views.value_or(0);
    return startDetector<StencilDetector>(context, settings, scene, "stencil");
}

Result<MethodRun> startConsistentPairs(const DetectOptions& options, Context& context, const io::SceneDescription&,
                                       const Scene& scene) {
    ConsistentPairsSettings settings;
    settings.resolution = options.resolution.value_or(0);
    return startDetector<ConsistentPairsDetector>(context, settings, scene, "consistent_pairs");
}

Result<MethodRun> startLdi(const DetectOptions& options, Context& context, const io::SceneDescription&,
                           const Scene& scene) {
    auto runner = std::make_shared<LdiRunner>();
    runner->settings.resolution = options.resolution.value_or(0);
    runner->settings.layerCap = options.layerCap.value_or(0);
    runner->settings.keepImages = !options.images.empty();
    auto framesWritten = std::make_shared<size_t>(0);
    MethodRun run;
    run.runFrame = [&options, &context, &scene, runner, framesWritten](const io::SceneFrame&, const BroadphaseResults& pcs,
                                                                       nlohmann::json& extra) -> Result<FrameResults> {
        LdiFrameDetails details;
        auto results = runLdiFrame(context, *runner, scene, pcs, &details);
        if (!results) return results;
        extra["ldi"] = toJson(details);
        if (!options.images.empty()) {
            auto written = writeLdiImages(details, options.images, (*framesWritten)++);
            if (!written) return written.status();
            std::cerr << "--images: " << written->size() << " intersection-depth PNGs in " << options.images << "\n";
        }
        return results;
    };
    run.settings = [runner] {
        if (!runner->detector) return nlohmann::json::object();  // no frame ran
        const LdiSettings& used = runner->detector->settings();
        return nlohmann::json{{"resolution", used.resolution}, {"layer_cap", used.layerCap}};
    };
    return run;
}

Result<MethodRun> startEbpi(const DetectOptions& options, Context& context, const io::SceneDescription&,
                            const Scene& scene) {
    if (!options.tolerance)
        return makeError(ErrorCode::InvalidArgument,
                         "--method ebpi needs --tolerance V: the intersection volume's absolute error allowed per pair "
                         "(world units cubed)");
    if (!(*options.tolerance > 0.0) || !std::isfinite(*options.tolerance))
        return makeError(ErrorCode::InvalidArgument,
                         "--tolerance " + std::to_string(*options.tolerance) + ": must be a finite volume > 0");
    auto runner = std::make_shared<EbpiRunner>();
    runner->settings.tolerance = *options.tolerance;
    runner->settings.resolution = options.resolution.value_or(0);
    runner->settings.keepImages = !options.images.empty();
    for (EbpiRayBackendChoice backend : kRayBackends)
        if (options.rayBackend == ebpiRayBackendName(backend)) runner->settings.rayBackend = backend;
    auto gradients = std::make_shared<nlohmann::json>(nlohmann::json::array());
    MethodRun run;
    run.runFrame = [&options, &context, &scene, runner, gradients](const io::SceneFrame&, const BroadphaseResults& pcs,
                                                                   nlohmann::json& extra) -> Result<FrameResults> {
        EbpiFrameDetails details;
        auto results = runEbpiFrame(context, *runner, scene, pcs, &details);
        if (!results) return results;
        extra["ebpi"] = toJson(details);
        if (!options.images.empty()) {
            auto written = writeEbpiImages(details, options.images, gradients->size());
            if (!written) return written.status();
            std::cerr << "--images: " << written->size() << " EBPI bound and ray PNGs in " << options.images << "\n";
        }
        gradients->push_back(ebpiGradientJson(details));
        return results;
    };
    run.settings = [runner] {
        if (!runner->detector) return nlohmann::json::object();  // no frame ran
        const EbpiSettings& used = runner->detector->settings();
        return nlohmann::json{{"tolerance", used.tolerance}, {"resolution", used.resolution},
                              {"max_split", used.maxSplit}, {"max_rays", used.maxRays},
                              {"hit_capacity", used.hitCapacity},
                              {"ray_backend", ebpiRayBackendName(runner->detector->rayBackend())}};
    };
    run.finish = [&options, gradients]() -> Status {
        if (options.gradient.empty()) return Status::success();
        std::ofstream file(options.gradient);
        if (!(file << nlohmann::json{{"frames", *gradients}}.dump() << "\n"))
            return makeError(ErrorCode::IoError, "--gradient: cannot write \"" + options.gradient + "\"");
        return Status::success();
    };
    return run;
}

// Every method `detect` runs, by --method id (method_catalog.h lists them for `info`).
using MethodStart = Result<MethodRun> (*)(const DetectOptions&, Context&, const io::SceneDescription&, const Scene&);
constexpr std::pair<std::string_view, MethodStart> kMethodStarts[] = {
    {"exact", startExact},   {"aabb-tree", startAabbTree}, {"stencil", startStencil},
    {"consistent-pairs", startConsistentPairs}, {"ldi", startLdi}, {"ebpi", startEbpi},
};

Result<MethodRun> startMethod(const DetectOptions& options, Context& context, const io::SceneDescription& file,
                              const Scene& scene) {
    for (const auto& [id, start] : kMethodStarts)
        if (id == options.method) return start(options, context, file, scene);
    return makeError(ErrorCode::InvalidArgument, "unknown method \"" + options.method + "\" (see `vkcollide info`)");
}

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
    HeadlessDesc headless = {};
    headless.deviceName = options.device.empty() ? nullptr : options.device.c_str();
    // RenderDoc 1.24 cannot capture ray queries, acceleration structures or device addresses.
    headless.disableRayTracing = capture.has_value();
    headless.enableValidation = options.validate;
    auto context = createHeadlessContext(headless);
    if (!context) return context.status();
    const DeviceInfo& device = deviceInfo(context.value());

    auto scene = io::buildScene(context.value(), description.value(), kObjectSpaceMethodRequirements);
    if (!scene) return scene.status();
    auto broadphase = Broadphase::create(context.value());
    if (!broadphase) return broadphase.status();
    auto methodRun = startMethod(options, context.value(), description.value(), scene.value());
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
        FrameReport frameReport;
        auto results = methodRun->runFrame(frame, pcs.value(), frameReport.extra);
        if (capture && f == 0) VKC_TRY(capture->end());
        if (!results) return results.status();
        frameReport.results = std::move(results.value());
        checkBroadphase(pcs.value(), frameReport.results);
        frameReport.results.gpuTimingsMs.insert(pcs->gpuTimingsMs.begin(), pcs->gpuTimingsMs.end());
        frameReport.extra["potentially_colliding_pairs"] = pcs->pairCount;
        frameReport.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        std::cerr << "frame " << f << ": " << frameReport.results.pairs.size() << " colliding pairs of "
                  << pcs->pairCount << " potentially colliding\n";
        for (const std::string& warning : frameReport.results.warnings) std::cerr << "  warning: " << warning << "\n";
        report.frames.push_back(std::move(frameReport));
    }
    report.settings = methodRun->settings();
    VKC_TRY(methodRun->finish());
    if (!options.gradient.empty() && options.method != "ebpi")
        std::cerr << "--gradient: only --method ebpi computes the volume's gradient; nothing written\n";
    if (!options.images.empty() && options.method != "ldi" && options.method != "ebpi")
        std::cerr << "--images: only --method ldi (per-pair intersection depth) and ebpi (EBPI bound and rays per "
                     "direction) write images; nothing written\n";
    VKC_TRY(writeReport(report, options.report));
    if (options.validate && validationMessageCount(context.value()) != 0) {
        for (const std::string& message : validationMessages(context.value())) std::cerr << message << "\n";
        return makeError(ErrorCode::VulkanError, "--validate: " + std::to_string(validationMessageCount(context.value())) +
                                                     " validation message(s), printed above");
    }
    return Status::success();
}

}  // namespace

void addDetectCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<DetectOptions>();
    CLI::App* command = app.add_subcommand("detect", "Run a collision method on a scene file and write a report");
    command->add_option("scene", options->scene, "Scene file (JSON, see DESIGN.md)")->required()->check(CLI::ExistingFile);
    command->add_option("--method,-m", options->method, "Method id (see `vkcollide info`)")->required();
    command->add_option("--resolution", options->resolution,
                        "Image-space methods: pixels per side (default: the method's, shown in the report)")
        ->check(CLI::Range(16u, 16384u));
    command->add_option("--layer-cap", options->layerCap,
                        "ldi: layers peeled per pixel at most (default: the method's, shown in the report); deeper "
                        "pairs are reported truncated")
        ->check(CLI::Range(1u, 254u));
    command->add_option("--views", options->views, "stencil: orthogonal views, 3 or 1 (default: the method's)")
        ->check(CLI::IsMember({1u, 3u}));
    command->add_option("--tolerance", options->tolerance,
                        "ebpi: absolute intersection-volume error allowed per pair, world units cubed (required)");
    command->add_option("--gradient", options->gradient,
                        "ebpi: JSON file for each pair's volume gradient per vertex (dV/d world position)");
    command->add_option("--ray-backend", options->rayBackend,
                        "ebpi: how rays are cast (default: ray-query where the device has it, else "
                        "ray-tracing-pipeline, else compute)")
        ->check(CLI::IsMember(rayBackendNames()));
    command->add_option("--report", options->report, "Report file (JSON); default: standard output");
    command->add_option("--images", options->images,
                        "ldi: directory for PNGs of each pair's intersection depth; ebpi: of each pair's EBPI bound "
                        "and rays per pixel, per direction");
    command->add_option("--frames", options->frames, "Run at most this many frames of the scene")
        ->check(CLI::Range(1u, std::numeric_limits<uint32_t>::max()));  // PositiveNumber prints DBL_MAX's 309 digits
    command->add_option("--renderdoc-capture", options->renderdocCapture,
                        "Capture the first frame's GPU work with RenderDoc into this .rdc file");
    command->add_option("--device", options->device, "Device index or name substring (default: VKC_DEVICE or best)");
    command->add_flag("--list", options->list, "Include the triangle pair lists in the report");
    command->add_flag("--validate", options->validate,
                      "Run under the Khronos validation layer (synchronization checks too); any message fails (exit 1)");
    command->callback([options, &exitCode] {
        Status status = runDetect(*options);
        if (!status.ok()) {
            std::cerr << "vkcollide detect: " << status.describe() << "\n";
            exitCode = status.code == ErrorCode::Unsupported ? 2 : 1;
            return;
        }
        exitCode = 0;
    });
}

}  // namespace vkc::tools
