// The per-frame comparison of methods; see compare_table.h.
#include "tools/cli/compare_table.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

namespace vkc::tools {

namespace {

using PairKey = std::pair<uint32_t, uint32_t>;

const PairResult* findPair(const FrameReport& frame, const PairKey& key) {
    for (const PairResult& pair : frame.results.pairs)
        if (pair.a == key.first && pair.b == key.second) return &pair;
    return nullptr;
}

// Stencil's candidates it could not decide, from its report fields (report_json.h).
bool undecided(const FrameReport& frame, const PairKey& key) {
    const nlohmann::json* stencil = frame.extra.contains("stencil") ? &frame.extra["stencil"] : nullptr;
    if (!stencil || !stencil->contains("undecided_pairs")) return false;
    for (const nlohmann::json& pair : (*stencil)["undecided_pairs"])
        if (pair[0] == key.first && pair[1] == key.second) return true;
    return false;
}

CompareCell cellOf(const FrameReport& frame, const PairKey& key, double exactVolume) {
    CompareCell cell;
    const PairResult* pair = findPair(frame, key);
    if (!pair) {
        cell.found = undecided(frame, key) ? "undecided" : "no";
        return cell;
    }
    cell.found = pair->truncated ? "truncated" : "yes";
    cell.volume = pair->volume;
    cell.volumeErrorBound = pair->volumeErrorBound;
    if (pair->volume) cell.volumeError = std::abs(*pair->volume - exactVolume);
    cell.trianglePairs = pair->trianglePairs;
    return cell;
}

}  // namespace

CompareTable buildCompareTable(const FrameReport& exact, std::span<const MethodFrame> methods) {
    CompareTable table;
    table.methods.push_back("exact");
    std::set<PairKey> keys;
    for (const PairResult& pair : exact.results.pairs) keys.insert({pair.a, pair.b});
    for (const MethodFrame& method : methods) {
        table.methods.push_back(method.method);
        for (const PairResult& pair : method.report->results.pairs) keys.insert({pair.a, pair.b});
    }
    for (const PairKey& key : keys) {
        CompareRow row{key.first, key.second, {}};
        const PairResult* truth = findPair(exact, key);
        // No interference, no intersection volume; a pair of open meshes has none either way, and
        // no volume method accepts open meshes.
        const double exactVolume = truth && truth->volume ? *truth->volume : 0.0;
        row.cells.push_back(cellOf(exact, key, exactVolume));
        row.cells.front().volumeError.reset();  // the truth has no error of its own to show
        for (const MethodFrame& method : methods) row.cells.push_back(cellOf(*method.report, key, exactVolume));
        table.rows.push_back(std::move(row));
    }
    return table;
}

nlohmann::json toJson(const CompareTable& table, std::span<const std::string> objectNames) {
    nlohmann::json rows = nlohmann::json::array();
    for (const CompareRow& row : table.rows) {
        nlohmann::json cells = nlohmann::json::object();
        for (size_t m = 0; m < table.methods.size(); ++m) {
            const CompareCell& cell = row.cells[m];
            nlohmann::json json = {{"found", cell.found}};
            if (cell.volume) json["volume"] = *cell.volume;
            if (cell.volumeErrorBound) json["volume_error_bound"] = *cell.volumeErrorBound;
            if (cell.volumeError) json["volume_error"] = *cell.volumeError;
            if (cell.volumeError && cell.volumeErrorBound) json["within_bound"] = cell.withinBound();
            if (auto ratio = cell.boundOverError()) json["bound_over_error"] = *ratio;
            if (cell.trianglePairs) json["triangle_pairs"] = *cell.trianglePairs;
            cells[table.methods[m]] = std::move(json);
        }
        rows.push_back({{"a", row.a},
                        {"b", row.b},
                        {"objects", {objectNames[row.a], objectNames[row.b]}},
                        {"methods", std::move(cells)}});
    }
    return rows;
}

}  // namespace vkc::tools
