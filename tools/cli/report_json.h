// The run report of DESIGN.md "Formats": one JSON document per `vkcollide detect` (`compare`
// reuses its frames).
// Fields a method does not compute are left out, never zero-filled.
#pragma once

#include "vkcollide/aabb_tree.h"
#include "vkcollide/consistent_pairs.h"
#include "vkcollide/ebpi.h"
#include "vkcollide/ldi.h"
#include "vkcollide/results.h"
#include "vkcollide/status.h"
#include "vkcollide/stencil.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace vkc::tools {

struct DeviceSummary {
    std::string name;
    std::string driver;
    bool rayQuery = false;
};

struct FrameReport {
    FrameResults results;
    double wallMs = 0.0;
    nlohmann::json extra = nlohmann::json::object();  // method-specific fields, e.g. broadphase stats
};

struct RunReport {
    std::string method;
    std::string scene;
    DeviceSummary device;
    nlohmann::json settings = nlohmann::json::object();
    std::vector<FrameReport> frames;
};

nlohmann::json toJson(const PairResult& pair);
// Method-specific frame fields: the counts each paper read with occlusion queries.
nlohmann::json toJson(const AabbTreeFrameDetails& details);
nlohmann::json toJson(const StencilFrameDetails& details);
nlohmann::json toJson(const LdiFrameDetails& details);
// Per tested pair: directions, per-direction volume and bound, rays, odd and truncated rays, and why
// it is truncated; the frame's ray total.
nlohmann::json toJson(const EbpiFrameDetails& details);
// Iterations (run, truncated), fragments per peel, inconsistent pixels, drawn objects, point count
// and truncation, pixel size, distance threshold.
nlohmann::json toJson(const ConsistentPairsFrameDetails& details);
// A frame as `detect` reports it: pairs, timings, warnings, then the method's own fields.
nlohmann::json toJson(const FrameReport& frame);
nlohmann::json toJson(const DeviceSummary& device);
nlohmann::json toJson(const RunReport& report);

// Writes `report` (indented) to `path`, or to standard output when `path` is empty or "-";
// IoError naming the file when it cannot be written.
Status writeReport(const nlohmann::json& report, const std::string& path);

}  // namespace vkc::tools
