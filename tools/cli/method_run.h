// A method as the harness runs it, frame after frame: the one place where `detect` and `compare`
// turn a method id and its options into detector runs, so both run every method the same way.
#pragma once

#include "tools/cli/report_json.h"
#include "tools/io/scene_file.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/context.h"
#include "vkcollide/ebpi.h"
#include "vkcollide/scene.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace vkc::tools {

// What the command line sets for a method; unset or empty: the method's default.
struct MethodOptions {
    std::optional<uint32_t> resolution;  // image-space methods: pixels per side
    std::optional<uint32_t> views;       // stencil: 1 or 3
    std::optional<uint32_t> layerCap;    // ldi: the first cap (it grows to the need)
    std::optional<double> maxBound;      // ldi: LdiRunner::boundFraction
    std::string errorBound;              // ldi: empty (tight) or one of ldiErrorBoundNames()
    std::string tolerance;               // ebpi (required): parseEbpiTolerance's text
    // First capacities; each grows to what a frame needs (grow_to_need.h).
    std::optional<uint32_t> maxRays;        // ebpi
    std::optional<uint32_t> hitCapacity;    // ebpi
    std::optional<uint32_t> pointCapacity;  // stencil, consistent-pairs
    std::string gradient;                // ebpi: --gradient FILE
    std::string rayBackend;              // ebpi: empty (the device's best) or an ebpiRayBackendName
    std::string directions;              // ebpi: empty (optimised) or one of directionNames()
    std::string images;                  // directory for the intermediate images (MethodEntry::images)
    bool list = false;                   // exact, aabb-tree: keep the triangle pair lists
};

// The names --ray-backend accepts, and the option's help.
std::vector<std::string> rayBackendNames();
inline constexpr const char* kRayBackendHelp =
    "ebpi: how rays are cast (default: the fastest the device runs: compute on a CPU device such as lavapipe; on a "
    "GPU ray-query where it has it, else ray-tracing-pipeline, else compute)";

// The names --error-bound accepts (LdiErrorBound), and the option's help.
std::vector<std::string> ldiErrorBoundNames();
inline constexpr const char* kLdiErrorBoundHelp =
    "ldi: tight (default; on the CPU from the meshes' edges and surface crossings, about 1-2% of the volume, "
    "milliseconds of CPU per pair) or drawn-triangles (on the GPU from the drawn triangles: 4-59 times "
    "looser, no CPU time)";

// The names --directions accepts, and the option's help.
std::vector<std::string> directionNames();
inline constexpr const char* kDirectionsHelp =
    "ebpi: the three ray directions per pair: optimised (default; turned away from the meshes' faces, paper 5 "
    "Sec. 4.4) or axes (the world axes)";

// One frame of a method, given the frame's poses (already applied to the scene) and the
// broadphase; method-specific report fields go into `extra`.
using FrameRunner =
    std::function<Result<FrameResults>(const io::SceneFrame&, const BroadphaseResults&, nlohmann::json& extra)>;

// A started method: its frames, and the settings its detector used (defaults filled in, read once
// the frames ran) for the report.
struct MethodRun {
    FrameRunner runFrame;
    std::function<nlohmann::json()> settings = [] { return nlohmann::json::object(); };
    std::function<Status()> finish = [] { return Status::success(); };  // after the last frame
};

// Creates method `id`'s detector (method_catalog.h's ids). `context`, `file` and `scene` must
// outlive the run. InvalidArgument for an unknown id or a bad option (ebpi without a tolerance).
Result<MethodRun> startMethod(const std::string& id, const MethodOptions& options, Context& context,
                              const io::SceneDescription& file, const Scene& scene);

// One frame of `run` over the broadphase's pairs, as a report shows it: the method's results with
// the broadphase's GPU timings and candidate count, and a warning for any pair the broadphase
// missed. The wall time is the caller's to measure.
Result<FrameReport> runReportedFrame(MethodRun& run, const io::SceneFrame& frame, const BroadphaseResults& pcs);

}  // namespace vkc::tools
