// The table `vkcollide compare` makes of one frame: every object pair that the exact oracle or any
// method reported, and what each method says about it beside the exact answer (found, volume and
// its error against the exact volume and the method's bound, triangle pairs).
#pragma once

#include "tools/cli/report_json.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace vkc::tools {

// One method's frame as the table reads it.
struct MethodFrame {
    std::string method;  // method id
    const FrameReport* report = nullptr;
};

struct CompareCell {
    // "yes", "truncated" (reported, but a capacity was hit: its volume or lists are incomplete),
    // "undecided" (stencil: a candidate it could not decide, paper 1 §6.4) or "no".
    std::string found;
    std::optional<double> volume;            // methods that compute one
    std::optional<double> volumeErrorBound;  // the method's own |volume - exact| bound
    std::optional<double> volumeError;       // |volume - exact volume| (0 where exact has no pair)
    std::optional<uint64_t> trianglePairs;   // methods that count them (exact, aabb-tree)

    bool withinBound() const { return volumeError && volumeErrorBound && *volumeError <= *volumeErrorBound; }
    // How conservative the bound was: bound / |volume - exact|, where the error is not 0.
    std::optional<double> boundOverError() const {
        if (!volumeError || !volumeErrorBound || !(*volumeError > 0.0)) return std::nullopt;
        return *volumeErrorBound / *volumeError;
    }
};

struct CompareRow {
    uint32_t a = 0, b = 0;           // object indices, a < b
    std::vector<CompareCell> cells;  // one per method, in CompareTable::methods' order
};

struct CompareTable {
    std::vector<std::string> methods;  // "exact" first
    std::vector<CompareRow> rows;      // sorted by (a, b)
};

// `exact` is the oracle's frame (its volumes are the truth); `methods` the frames of the other
// methods that ran, in column order. Rows: the pairs any of them reported.
CompareTable buildCompareTable(const FrameReport& exact, std::span<const MethodFrame> methods);

// The table for the report: [{"a", "b", "objects": [name a, name b], "methods": {id: {"found",
// "volume", "volume_error_bound", "volume_error", "within_bound", "triangle_pairs"}}}], each field
// present only where the method gives it. `objectNames` is indexed by object.
nlohmann::json toJson(const CompareTable& table, std::span<const std::string> objectNames);

}  // namespace vkc::tools
