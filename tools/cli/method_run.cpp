// Methods as the harness runs them; see method_run.h.
#include "tools/cli/method_run.h"

#include "shaders_glsl/shared/consistent_pairs.h"
#include "tools/cli/aabb_tree_method.h"
#include "tools/cli/count_images.h"
#include "tools/cli/ebpi_method.h"
#include "tools/cli/exact_method.h"
#include "tools/cli/grow_to_need.h"
#include "tools/cli/ldi_method.h"
#include "tools/cli/method_catalog.h"
#include "vkcollide/aabb_tree.h"
#include "vkcollide/consistent_pairs.h"
#include "vkcollide/stencil.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string_view>
#include <utility>

namespace vkc::tools {

namespace {

// The backends --ray-backend names (Default is its absence).
constexpr EbpiRayBackendChoice kRayBackends[] = {EbpiRayBackendChoice::Compute, EbpiRayBackendChoice::RayQuery,
                                                 EbpiRayBackendChoice::RayTracingPipeline};

// The ray directions --directions names (the issue spells the default "optimised").
constexpr std::pair<const char*, EbpiDirectionChoice> kDirections[] = {{"optimised", EbpiDirectionChoice::Optimized},
                                                                       {"axes", EbpiDirectionChoice::WorldAxes}};

// ldi's error bounds --error-bound names (tight is the default).
constexpr std::pair<const char*, LdiErrorBound> kLdiErrorBounds[] = {{"tight", LdiErrorBound::Tight},
                                                                     {"drawn-triangles", LdiErrorBound::DrawnTriangles}};

// The option name of `choice` in one of the tables above.
template <class Choice, size_t N>
const char* choiceName(const std::pair<const char*, Choice> (&table)[N], Choice choice) {
    for (const auto& [name, known] : table)
        if (known == choice) return name;
    return "unknown";
}

// Every option name of a table, for the option's check.
template <class Choice, size_t N>
std::vector<std::string> choiceNames(const std::pair<const char*, Choice> (&table)[N]) {
    std::vector<std::string> names;
    for (const auto& entry : table) names.push_back(entry.first);
    return names;
}

// The broadphase must keep every pair the method found (it is conservative by construction).
void checkBroadphase(const BroadphaseResults& broadphase, FrameResults& results) {
    for (const PairResult& pair : results.pairs)
        if (!std::binary_search(broadphase.pairs.begin(), broadphase.pairs.end(), ObjectPair{pair.a, pair.b}))
            results.warnings.push_back("GPU broadphase missed colliding pair " + std::to_string(pair.a) + "-" +
                                       std::to_string(pair.b));
}

// The settings the report shows of each detector.
nlohmann::json reportedSettings(const StencilSettings& s) { return {{"resolution", s.resolution}, {"views", s.views}}; }
nlohmann::json reportedSettings(const ConsistentPairsSettings& s) { return {{"resolution", s.resolution}}; }

// A frame's --images, as method `id`'s writer returned them: says how many of what went where.
Status noteImages(const Result<std::vector<std::filesystem::path>>& written, const char* id, const std::string& dir) {
    if (!written) return written.status();
    std::cerr << "--images: " << written->size() << (written->size() == 1 ? " PNG (" : " PNGs (")
              << findMethod(id)->images << ") in " << dir << "\n";
    return Status::success();
}

// Method `id`, a detector whose blocking run() over the broadphase's pairs is the frame; its
// details go into the report under `key`, its per-pixel counts into `images` (when set) as
// count_images.h writes them.
// Every detector takes the scene's objects, however many (a method that cannot refuses naming
// its limit), instead of DetectorSettings' default 4,096.
uint32_t sceneObjects(const Scene& scene) { return std::max(1u, uint32_t(scene.objectCount())); }

// Room for the points a frame found (and consistent-pairs' iterations), as grow_to_need.h asks.
std::optional<StencilSettings> grownFor(const StencilSettings& current, const StencilFrameDetails& frame) {
    if (!frame.pointsTruncated) return std::nullopt;
    StencilSettings grown = current;
    grown.pointCapacity = capacityFor(frame.pointCount, current.pointCapacity);
    return grown;
}
std::optional<ConsistentPairsSettings> grownFor(const ConsistentPairsSettings& current,
                                                const ConsistentPairsFrameDetails& frame) {
    ConsistentPairsSettings grown = current;
    if (frame.pointsTruncated) grown.pointCapacity = capacityFor(frame.pointCount, current.pointCapacity);
    if (frame.iterationsTruncated) grown.maxIterations = std::min(gpu::kConsistentPairsMaxIterations, 2 * current.maxIterations);
    if (grown.pointCapacity == current.pointCapacity && grown.maxIterations == current.maxIterations) return std::nullopt;
    return grown;
}

template <class Detector>
Result<MethodRun> startDetector(Context& context, typename Detector::Settings settings, const Scene& scene,
                                const char* id, const char* key, const std::string& images) {
    settings.keepImages = !images.empty();
    settings.maxObjects = sceneObjects(scene);
    auto created = Detector::create(context, settings);
    if (!created) return created.status();
    // Replaced by a larger one when a frame needs more (grow_to_need.h).
    auto detector = std::make_shared<std::optional<Detector>>(std::move(created.value()));
    auto framesWritten = std::make_shared<size_t>(0);
    MethodRun run;
    run.runFrame = [detector, &context, &scene, id, key, images, framesWritten](
                       const io::SceneFrame&, const BroadphaseResults& pcs, nlohmann::json& extra) -> Result<FrameResults> {
        typename Detector::Details details;
        auto results = runToNeed(
            context, *detector, id, pcs, details,
            [&](Detector& current, typename Detector::Details& out) { return current.run(scene, pcs, &out); },
            [](const typename Detector::Settings& current, const typename Detector::Details& frame) {
                return grownFor(current, frame);
            });
        if (!results) return results;
        extra[key] = toJson(details);
        if (!images.empty())
            VKC_TRY(noteImages(writeImages(details, (*detector)->settings().resolution, images, (*framesWritten)++), id,
                               images));
        return results;
    };
    run.settings = [detector] { return reportedSettings((*detector)->settings()); };
    return run;
}

Result<MethodRun> startExact(const MethodOptions& options, Context&, const io::SceneDescription& file, const Scene&) {
    MethodRun run;
    run.runFrame = [list = options.list, &file](const io::SceneFrame& frame, const BroadphaseResults&, nlohmann::json&) {
        return runExactFrame(file, frame, list);
    };
    return run;
}

Result<MethodRun> startAabbTree(const MethodOptions& options, Context& context, const io::SceneDescription&,
                                const Scene& scene) {
    AabbTreeSettings settings;
    settings.keepTrianglePairList = options.list;
    settings.maxObjects = sceneObjects(scene);
    auto created = AabbTreeDetector::create(context, settings);
    if (!created) return created.status();
    // runAabbTreeFrame replaces the detector when its lists must grow.
    auto detector = std::make_shared<std::optional<AabbTreeDetector>>(std::move(created.value()));
    MethodRun run;
    run.runFrame = [list = options.list, &context, &scene, detector](const io::SceneFrame&, const BroadphaseResults& pcs,
                                                                     nlohmann::json& extra) {
        AabbTreeFrameDetails details;
        auto results = runAabbTreeFrame(context, *detector, scene, pcs, list, &details);
        if (results) extra["aabb_tree"] = toJson(details);
        return results;
    };
    return run;
}

Result<MethodRun> startStencil(const MethodOptions& options, Context& context, const io::SceneDescription&,
                               const Scene& scene) {
    StencilSettings settings;
    settings.resolution = options.resolution.value_or(0);
    settings.views = options.views.value_or(0);
    settings.pointCapacity = options.pointCapacity.value_or(0);
    return startDetector<StencilDetector>(context, settings, scene, "stencil", "stencil", options.images);
}

Result<MethodRun> startConsistentPairs(const MethodOptions& options, Context& context, const io::SceneDescription&,
                                       const Scene& scene) {
    ConsistentPairsSettings settings;
    settings.resolution = options.resolution.value_or(0);
    settings.pointCapacity = options.pointCapacity.value_or(0);
    return startDetector<ConsistentPairsDetector>(context, settings, scene, "consistent-pairs", "consistent_pairs",
                                                  options.images);
}

Result<MethodRun> startLdi(const MethodOptions& options, Context& context, const io::SceneDescription&,
                           const Scene& scene) {
    auto runner = std::make_shared<LdiRunner>();
    runner->settings.resolution = options.resolution.value_or(0);
    runner->settings.layerCap = options.layerCap.value_or(0);
    if (options.maxBound) runner->boundFraction = *options.maxBound;
    runner->settings.maxObjects = sceneObjects(scene);
    runner->settings.keepImages = !options.images.empty();
    for (const auto& [name, choice] : kLdiErrorBounds)
        if (options.errorBound == name) runner->settings.errorBound = choice;
    auto framesWritten = std::make_shared<size_t>(0);
    MethodRun run;
    run.runFrame = [images = options.images, &context, &scene, runner, framesWritten](
                       const io::SceneFrame&, const BroadphaseResults& pcs, nlohmann::json& extra) -> Result<FrameResults> {
        LdiFrameDetails details;
        auto results = runLdiFrame(context, *runner, scene, pcs, &details);
        if (!results) return results;
        extra["ldi"] = toJson(details);
        if (!images.empty())
            VKC_TRY(noteImages(writeLdiImages(details, images, (*framesWritten)++), "ldi", images));
        return results;
    };
    run.settings = [runner] {
        if (!runner->detector) return nlohmann::json::object();  // no frame ran
        const LdiSettings& used = runner->detector->settings();
        return nlohmann::json{{"resolution", used.resolution}, {"layer_cap", used.layerCap}, {"max_bound", runner->boundFraction},
                              {"error_bound", choiceName(kLdiErrorBounds, used.errorBound)}};
    };
    return run;
}

Result<MethodRun> startEbpi(const MethodOptions& options, Context& context, const io::SceneDescription&,
                            const Scene& scene) {
    if (options.tolerance.empty())
        return makeError(ErrorCode::InvalidArgument,
                         "--method ebpi needs --tolerance: the intersection volume's error allowed per pair, absolute "
                         "(world units cubed) or a percentage of each pair's volume, such as 2%");
    auto tolerance = parseEbpiTolerance(options.tolerance);
    if (!tolerance) return tolerance.status();
    auto runner = std::make_shared<EbpiRunner>();
    runner->tolerance = tolerance.value();
    runner->settings.maxObjects = sceneObjects(scene);
    runner->settings.resolution = options.resolution.value_or(0);
    runner->settings.maxRays = options.maxRays.value_or(0);
    runner->settings.hitCapacity = options.hitCapacity.value_or(0);
    runner->settings.keepImages = !options.images.empty();
    for (EbpiRayBackendChoice backend : kRayBackends)
        if (options.rayBackend == ebpiRayBackendName(backend)) runner->settings.rayBackend = backend;
    for (const auto& [name, choice] : kDirections)
        if (options.directions == name) runner->settings.directions = choice;
    auto gradients = std::make_shared<nlohmann::json>(nlohmann::json::array());
    MethodRun run;
    run.runFrame = [images = options.images, &context, &scene, runner, gradients](
                       const io::SceneFrame&, const BroadphaseResults& pcs, nlohmann::json& extra) -> Result<FrameResults> {
        EbpiFrameDetails details;
        auto results = runEbpiFrame(context, *runner, scene, pcs, &details);
        if (!results) return results;
        extra["ebpi"] = toJson(details);
        if (!images.empty())
            VKC_TRY(noteImages(writeEbpiImages(details, images, gradients->size()), "ebpi", images));
        gradients->push_back(ebpiGradientJson(details));
        return results;
    };
    run.settings = [runner] {
        if (!runner->detector) return nlohmann::json::object();  // no frame ran
        const EbpiSettings& used = runner->detector->settings();
        const nlohmann::json tolerance =
            runner->tolerance.ofPairVolume ? nlohmann::json(optionText(runner->tolerance)) : nlohmann::json(used.tolerance);
        return nlohmann::json{{"tolerance", tolerance}, {"resolution", used.resolution},
                              {"max_split", used.maxSplit}, {"max_rays", used.maxRays},
                              {"hit_capacity", used.hitCapacity},
                              {"ray_backend", ebpiRayBackendName(runner->detector->rayBackend())},
                              {"directions", choiceName(kDirections, used.directions)}};
    };
    run.finish = [gradient = options.gradient, gradients]() -> Status {
        if (gradient.empty()) return Status::success();
        std::ofstream file(gradient);
        if (!(file << nlohmann::json{{"frames", *gradients}}.dump() << "\n"))
            return makeError(ErrorCode::IoError, "--gradient: cannot write \"" + gradient + "\"");
        return Status::success();
    };
    return run;
}

// Every method the harness runs, by id (method_catalog.h lists them for `info`).
using MethodStart = Result<MethodRun> (*)(const MethodOptions&, Context&, const io::SceneDescription&, const Scene&);
constexpr std::pair<std::string_view, MethodStart> kMethodStarts[] = {
    {"exact", startExact},   {"aabb-tree", startAabbTree}, {"stencil", startStencil},
    {"consistent-pairs", startConsistentPairs}, {"ldi", startLdi}, {"ebpi", startEbpi},
};

}  // namespace

std::vector<std::string> directionNames() { return choiceNames(kDirections); }

std::vector<std::string> ldiErrorBoundNames() { return choiceNames(kLdiErrorBounds); }

std::vector<std::string> rayBackendNames() {
    std::vector<std::string> names;
    for (EbpiRayBackendChoice backend : kRayBackends) names.push_back(ebpiRayBackendName(backend));
    return names;
}

Result<MethodRun> startMethod(const std::string& id, const MethodOptions& options, Context& context,
                              const io::SceneDescription& file, const Scene& scene) {
    for (const auto& [knownId, start] : kMethodStarts)
        if (knownId == id) return start(options, context, file, scene);
    return makeError(ErrorCode::InvalidArgument, "unknown method \"" + id + "\" (see `vkcollide info`)");
}

Result<FrameReport> runReportedFrame(MethodRun& run, const io::SceneFrame& frame, const BroadphaseResults& pcs) {
    FrameReport report;
    auto results = run.runFrame(frame, pcs, report.extra);
    if (!results) return results.status();
    report.results = std::move(results.value());
    checkBroadphase(pcs, report.results);
    report.results.gpuTimingsMs.insert(pcs.gpuTimingsMs.begin(), pcs.gpuTimingsMs.end());
    report.extra["potentially_colliding_pairs"] = pcs.pairCount;
    return report;
}

}  // namespace vkc::tools
