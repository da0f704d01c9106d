// JSON serialisation of run reports; see report_json.h.
#include "tools/cli/report_json.h"

#include <fstream>
#include <iostream>

namespace vkc::tools {

static nlohmann::json toJson(const glm::vec3& v) { return nlohmann::json::array({v.x, v.y, v.z}); }

template <typename T>
static nlohmann::json vectorsToJson(const std::vector<T>& values) {
    nlohmann::json array = nlohmann::json::array();
    for (const T& value : values) array.push_back(toJson(value));
    return array;
}

nlohmann::json toJson(const PairResult& pair) {
    nlohmann::json json = {{"a", pair.a}, {"b", pair.b}};
    if (pair.trianglePairs) json["triangle_pairs"] = *pair.trianglePairs;
    if (!pair.trianglePairList.empty()) json["triangle_pair_list"] = pair.trianglePairList;
    if (pair.volume) json["volume"] = *pair.volume;
    if (pair.volumeErrorBound) json["volume_error_bound"] = *pair.volumeErrorBound;
    if (!pair.points.empty()) json["points"] = vectorsToJson(pair.points);
    if (!pair.normals.empty()) json["normals"] = vectorsToJson(pair.normals);
    if (!pair.penetrating.empty()) json["penetrating"] = pair.penetrating;
    if (!pair.penetrated.empty()) json["penetrated"] = pair.penetrated;
    if (!pair.insideVertices.empty()) json["inside_vertices"] = pair.insideVertices;
    if (pair.truncated) json["truncated"] = true;
    return json;
}

nlohmann::json toJson(const AabbTreeFrameDetails& details) {
    return {{"global_levels", details.globalLevels},
            {"box_pairs_tested_per_level", details.levelTested},
            {"box_pairs_overlapping_per_level", details.levelOverlaps},
            {"triangle_pairs", details.trianglePairCount},
            {"node_pair_overflow", details.nodePairOverflow},
            {"trees_refit", details.refitTrees}};
}

static nlohmann::json pairsJson(const std::vector<ObjectPair>& pairs) {
    nlohmann::json out = nlohmann::json::array();
    for (const ObjectPair& pair : pairs) out.push_back({pair.a, pair.b});
    return out;
}

nlohmann::json toJson(const StencilFrameDetails& details) {
    return {{"interference", details.interference},
            {"interfering_samples_per_view", details.interferingSamples},
            {"negative_samples_per_view", details.negativeSamples},
            {"penetrating_objects", details.penetratingObjects},
            {"penetrated_objects", details.penetratedObjects},
            {"points", details.pointCount},
            {"points_truncated", details.pointsTruncated},
            {"pixel_size", details.pixelSize},
            {"undecided_pairs", pairsJson(details.undecidedPairs)}};
}

nlohmann::json toJson(const ConsistentPairsFrameDetails& details) {
    return {{"iterations", details.iterationsRun},
            {"iterations_truncated", details.iterationsTruncated},
            {"fragments_per_peel", details.fragmentsPerPeel},
            {"inconsistent_pixels", details.inconsistentPixels},
            {"drawn_objects", details.drawnObjects},
            {"points", details.pointCount},
            {"points_truncated", details.pointsTruncated},
            {"pixel_size", details.pixelSize},
            {"distance_threshold", details.distanceThreshold}};
}

nlohmann::json toJson(const LdiFrameDetails& details) {
    nlohmann::json pairs = nlohmann::json::array();
    for (const LdiPairDetails& p : details.pairs) {
        nlohmann::json pair = {{"a", p.a},
                               {"b", p.b},
                               {"layers", {p.layersA, p.layersB}},
                               {"truncated", p.truncated},
                               {"invalid_order_pixels", {p.invalidOrderPixelsA, p.invalidOrderPixelsB}},
                               {"axis", p.axis},
                               {"resolution", p.resolution},
                               {"a_from_min", p.aFromMin},
                               {"voi_extended", p.extended},
                               {"voi", {toJson(p.box.min), toJson(p.box.max)}}};
        if (p.truncated) pair["needed_layers"] = p.neededLayers;
        pairs.push_back(std::move(pair));
    }
    nlohmann::json self = nlohmann::json::array();
    for (const LdiSelfIntersection& s : details.selfIntersections)
        self.push_back({{"object", s.object}, {"pixels", s.pixels}, {"region", {toJson(s.region.min), toJson(s.region.max)}}});
    return {{"pairs", pairs}, {"self_intersections", self}, {"render_passes", details.renderPasses}};
}

nlohmann::json toJson(const EbpiFrameDetails& details) {
    nlohmann::json pairs = nlohmann::json::array();
    for (const EbpiPairDetails& p : details.pairs) {
        nlohmann::json directions = nlohmann::json::array();
        for (const glm::dvec3& d : p.directions) directions.push_back({d.x, d.y, d.z});
        pairs.push_back({{"a", p.a},
                         {"b", p.b},
                         {"directions", directions},
                         {"volume_per_direction", p.volumePerDirection},
                         {"bound_per_direction", p.boundPerDirection},
                         {"float_rounding_bound", p.floatRoundingBound},
                         {"rays", p.rays},
                         {"odd_rays", p.oddRays},
                         {"truncated_rays", p.truncatedRays},
                         {"bound_not_met", p.boundNotMet},
                         {"truncated", p.truncated},
                         {"transient_edges_covered", p.transientEdgesCovered}});
    }
    const EbpiStageTimings& t = details.stageTimingsMs;
    const nlohmann::json stages = {{"directions", t.directions}, {"image", t.image},   {"rays", t.rays},
                                   {"bvh", t.bvh},               {"casting", t.casting}, {"volume", t.volume},
                                   {"readback", t.readback}};
    return {{"pairs", pairs},
            {"total_rays", details.totalRays},
            {"rays_truncated", details.raysTruncated},
            {"stage_timings_ms", stages}};
}

nlohmann::json toJson(const FrameReport& frame) {
    nlohmann::json pairs = nlohmann::json::array();
    for (const PairResult& pair : frame.results.pairs) pairs.push_back(toJson(pair));
    nlohmann::json json = {
        {"colliding", frame.results.colliding},
        {"pairs", pairs},
        {"timings_ms", {{"wall", frame.wallMs}, {"gpu", frame.results.gpuTimingsMs}}},
    };
    if (frame.results.truncated) json["truncated"] = true;
    if (!frame.results.warnings.empty()) json["warnings"] = frame.results.warnings;
    json.update(frame.extra);
    return json;
}

nlohmann::json toJson(const DeviceSummary& device) {
    return {{"name", device.name}, {"driver", device.driver}, {"ray_query", device.rayQuery}};
}

nlohmann::json toJson(const RunReport& report) {
    nlohmann::json frames = nlohmann::json::array();
    for (const FrameReport& frame : report.frames) frames.push_back(toJson(frame));
    return {
        {"method", report.method},
        {"scene", report.scene},
        {"device", toJson(report.device)},
        {"settings", report.settings},
        {"frames", frames},
    };
}

Status writeReport(const nlohmann::json& report, const std::string& path) {
    std::string text = report.dump(2) + "\n";
    if (path.empty() || path == "-") {
        std::cout << text;
        return Status::success();
    }
    std::ofstream file(path);
    if (!(file << text)) return makeError(ErrorCode::IoError, "cannot write report \"" + path + "\"");
    return Status::success();
}

}  // namespace vkc::tools
