// `vkcollide compare SCENE`: runs several methods and the exact oracle on every frame of a scene
// (each method as `detect` runs it, over one GPU broadphase per frame), prints a table per frame of
// what each says about every reported pair, and writes the tables and each method's frames to the
// report. The table is information, not a verdict: exit 0 whenever every method ran.
#include "tools/cli/commands.h"
#include "tools/cli/compare_table.h"
#include "tools/cli/compare_table_text.h"
#include "tools/cli/ebpi_method.h"
#include "tools/cli/exit_code.h"
#include "tools/cli/harness_context.h"
#include "tools/cli/method_catalog.h"
#include "tools/cli/method_run.h"
#include "tools/cli/report_json.h"
#include "tools/io/scene_builder.h"
#include "vkcollide/broadphase.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace vkc::tools {

namespace {

struct CompareOptions {
    std::string scene;
    std::vector<std::string> methods;  // empty: every method the device can run
    std::optional<uint32_t> resolution;
    std::string tolerance;             // ebpi; empty: kDefaultEbpiTolerance (2% of each pair's volume)
    std::string rayBackend;            // ebpi; empty: the device's best
    std::string report;
    std::string images;
    std::optional<uint32_t> frames;
    std::string device;
    bool validate = false;
};

// A method being compared: its run and its report of the current frame.
struct ComparedMethod {
    std::string id;
    MethodRun run;
    std::optional<Status> failure;  // set when a frame failed: no further frames run
    std::optional<FrameReport> frame;
};

// The methods to run, exact first (the truth), in the catalog's order. Named methods must exist
// and run on this device; by default those that cannot are left out, with the reason.
Result<std::vector<std::string>> chooseMethods(const CompareOptions& options, const DeviceInfo& device,
                                               nlohmann::json& unavailable) {
    std::vector<std::string> chosen;
    for (const MethodEntry& method : methodCatalog()) {
        const bool named = std::find(options.methods.begin(), options.methods.end(), method.id) != options.methods.end();
        if (!named && !options.methods.empty() && std::string(method.id) != "exact") continue;
        const std::string reason = methodUnavailableReason(method, device);
        if (!reason.empty() && named)
            return makeError(ErrorCode::Unsupported, "method \"" + std::string(method.id) + "\" cannot run on " +
                                                         device.name + ": " + reason);
        if (!reason.empty()) {
            std::cerr << "compare: leaving out " << method.id << ": " << reason << "\n";
            unavailable[method.id] = reason;
            continue;
        }
        chosen.push_back(method.id);
    }
    return chosen;
}

// The options each method runs with: --resolution sets the image-space methods' pixels per side
// but not ebpi's, whose EBPI resolution is a cost, not its accuracy (that is the tolerance);
// intermediate images go to a folder per method that has them.
MethodOptions optionsFor(const std::string& id, const CompareOptions& options) {
    MethodOptions method;
    if (id != "ebpi") method.resolution = options.resolution;
    method.tolerance = options.tolerance.empty() ? optionText(kDefaultEbpiTolerance) : options.tolerance;
    method.rayBackend = options.rayBackend;
    if (!options.images.empty() && findMethod(id)->images)
        method.images = (std::filesystem::path(options.images) / id).string();
    return method;
}

// "frame 0 (1 of 2)": the report's index, and how far the run is.
std::string frameName(size_t frame, size_t frameCount) {
    return "frame " + std::to_string(frame) + " (" + std::to_string(frame + 1) + " of " + std::to_string(frameCount) + ")";
}

// Every chosen method started, exact first.
Result<std::vector<ComparedMethod>> startMethods(const CompareOptions& options, const std::vector<std::string>& ids,
                                                 Context& context, const io::SceneDescription& file, const Scene& scene) {
    if (options.tolerance.empty() && std::count(ids.begin(), ids.end(), "ebpi"))
        std::cerr << "compare: ebpi tolerance " << optionText(kDefaultEbpiTolerance)
                  << " of each pair's volume (--tolerance sets it)\n";
    std::vector<ComparedMethod> methods;
    for (const std::string& id : ids) {
        auto run = startMethod(id, optionsFor(id, options), context, file, scene);
        if (!run) return run.status();
        methods.push_back({id, std::move(run.value()), std::nullopt, std::nullopt});
    }
    return methods;
}

// Runs every method still running on one frame and prints its table; returns the frame's report
// entry. A method that fails is left out from then on; exact failing fails the run (no truth).
Result<nlohmann::json> compareFrame(std::vector<ComparedMethod>& methods, const io::SceneFrame& frame,
                                    const BroadphaseResults& pcs, const std::string& name,
                                    std::span<const std::string> objectNames) {
    std::vector<MethodFrame> columns;  // the methods that ran this frame, exact's aside
    std::vector<double> wallMs;
    nlohmann::json methodFrames = nlohmann::json::object();
    for (ComparedMethod& method : methods) {
        if (method.failure) continue;
        std::cerr << "compare: " << name << ": " << method.id << "\n";
        const auto start = std::chrono::steady_clock::now();
        auto report = runReportedFrame(method.run, frame, pcs);
        if (!report && method.id == "exact") return report.status();
        if (!report) {
            std::cerr << "compare: " << method.id << " failed, left out from here on: " << report.status().describe()
                      << "\n";
            method.failure = report.status();
            continue;
        }
        report->wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        for (const std::string& warning : report->results.warnings)
            std::cerr << "  " << method.id << " warning: " << warning << "\n";
        methodFrames[method.id] = toJson(report.value());
        wallMs.push_back(report->wallMs);
        method.frame = std::move(report.value());
        if (method.id != "exact") columns.push_back({method.id, &*method.frame});
    }
    const CompareTable table = buildCompareTable(*methods.front().frame, columns);
    printCompareTable(std::cout, name + ": " + std::to_string(pcs.pairCount) + " potentially colliding pairs", table,
                      objectNames, wallMs);
    std::cout << std::flush;  // each table as soon as its frame is done, between the progress lines
    return nlohmann::json{{"potentially_colliding_pairs", pcs.pairCount},
                          {"table", toJson(table, objectNames)},
                          {"methods", std::move(methodFrames)}};
}

Status runCompare(const CompareOptions& options) {
    for (const std::string& id : options.methods)
        if (!findMethod(id))
            return makeError(ErrorCode::InvalidArgument, "unknown method \"" + id + "\" (see `vkcollide info`)");
    auto description = io::loadScene(options.scene);
    if (!description) return description.status();
    auto context = createHarnessContext({options.device, options.validate, false});
    if (!context) return context.status();
    const DeviceInfo& device = deviceInfo(context.value());
    nlohmann::json unavailable = nlohmann::json::object();
    auto ids = chooseMethods(options, device, unavailable);
    if (!ids) return ids.status();
    auto scene = io::buildScene(context.value(), description.value(), kObjectSpaceMethodRequirements);
    if (!scene) return scene.status();
    auto broadphase = Broadphase::create(context.value());
    if (!broadphase) return broadphase.status();
    auto methods = startMethods(options, ids.value(), context.value(), description.value(), scene.value());
    if (!methods) return methods.status();

    std::vector<std::string> objectNames;
    for (const io::SceneObject& object : description->objects) objectNames.push_back(object.name);
    nlohmann::json frames = nlohmann::json::array();
    const size_t frameCount = std::min<size_t>(description->frameCount(), options.frames.value_or(UINT32_MAX));
    for (size_t f = 0; f < frameCount; ++f) {
        const io::SceneFrame& frame = description->frames[f];
        VKC_TRY(io::applyFrame(scene.value(), frame));
        auto pcs = broadphase->run(scene.value());
        if (!pcs) return pcs.status();
        auto entry = compareFrame(methods.value(), frame, pcs.value(), frameName(f, frameCount), objectNames);
        if (!entry) return entry.status();
        frames.push_back(std::move(entry.value()));
    }

    nlohmann::json report = {{"scene", options.scene},
                             {"device", toJson(DeviceSummary{device.name, device.driver, contextInfo(*context).rayQuery})},
                             {"methods", ids.value()},
                             {"settings", nlohmann::json::object()},
                             {"frames", std::move(frames)}};
    std::optional<Status> failure;  // the first method that failed decides the exit code
    for (ComparedMethod& method : methods.value()) {
        report["settings"][method.id] = method.run.settings();
        if (!method.failure) VKC_TRY(method.run.finish());
        if (method.failure) report["failed"][method.id] = method.failure->describe();
        if (method.failure && !failure) failure = method.failure;
    }
    if (!unavailable.empty()) report["unavailable"] = unavailable;
    if (!options.report.empty()) VKC_TRY(writeReport(report, options.report));
    if (options.validate) VKC_TRY(validationVerdict(context.value()));
    return failure.value_or(Status::success());
}

}  // namespace

void addCompareCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<CompareOptions>();
    CLI::App* command = app.add_subcommand(
        "compare", "Run every method (or --methods) and the exact oracle on a scene; print a table per frame");
    command->add_option("scene", options->scene, "Scene file (JSON, see DESIGN.md)")->required()->check(CLI::ExistingFile);
    command->add_option("--methods", options->methods,
                        "Comma-separated method ids (default: every method this device can run); exact always runs")
        ->delimiter(',');
    command->add_option("--resolution", options->resolution,
                        "stencil, ldi, consistent-pairs: pixels per side (default: each method's own)")
        ->check(CLI::Range(16u, 16384u));
    command->add_option("--tolerance", options->tolerance,
                        "ebpi: intersection-volume error allowed per pair: a volume in world units cubed, or a "
                        "percentage of each pair's own volume (default: 2%)");
    command->add_option("--ray-backend", options->rayBackend, kRayBackendHelp)
        ->check(CLI::IsMember(rayBackendNames()));
    command->add_option("--report", options->report, "Report file (JSON): the tables and every method's frames");
    command->add_option("--images", options->images,
                        "Directory for the methods' intermediate images as PNGs, a folder per method (" +
                            imagesHelp() + ")");
    command->add_option("--frames", options->frames, "Run at most this many frames of the scene")
        ->check(CLI::Range(1u, std::numeric_limits<uint32_t>::max()));
    command->add_option("--device", options->device, "Device index or name substring (default: VKC_DEVICE or best)");
    command->add_flag("--validate", options->validate,
                      "Run under the Khronos validation layer (synchronization checks too); any message fails (exit 1)");
    command->callback([options, &exitCode] { exitCode = commandExitCode("compare", runCompare(*options)); });
}

}  // namespace vkc::tools
