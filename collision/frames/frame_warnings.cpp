// Warnings about a frame's inputs; see frame_warnings.h.
#include "collision/frames/frame_warnings.h"

#include <set>

namespace vkc {

void noteFrameInputs(DetectorFrames& frames, uint64_t frame, const SceneImpl& scene, const char* method) {
    FrameInputWarnings& kept = frames.slotWarnings[frame % frames.slotWarnings.size()];
    kept.objectMeshes.clear();
    for (const SceneObject& object : scene.objects) kept.objectMeshes.push_back(object.mesh);
    kept.meshWarnings.clear();
    for (MeshId id = 0; id < scene.meshes.size(); ++id) {
        const MeshCheckReport& report = scene.meshes[id].report;
        if (report.degenerateTriangles() == 0) continue;
        kept.meshWarnings[id] = std::string(method) + ": mesh \"" + scene.meshes[id].data.name + "\" has " +
                                std::to_string(report.degenerateTriangles()) +
                                " degenerate triangle(s) (zero area or a repeated vertex; first: triangle " +
                                std::to_string(report.firstDegenerateTriangle) +
                                "): they are drawn and tested as they are, where the exact oracle skips them";
    }
}

void appendFrameWarnings(const DetectorFrames& frames, uint64_t frame, std::span<const ObjectPair> pairs,
                         std::vector<std::string>& out) {
    const FrameInputWarnings& kept = frames.slotWarnings[frame % frames.slotWarnings.size()];
    if (kept.meshWarnings.empty()) return;
    std::set<MeshId> meshes;
    for (const ObjectPair& pair : pairs)
        for (uint32_t object : {pair.a, pair.b})
            if (object < kept.objectMeshes.size()) meshes.insert(kept.objectMeshes[object]);
    for (MeshId id : meshes) {
        auto warning = kept.meshWarnings.find(id);
        if (warning != kept.meshWarnings.end()) out.push_back(warning->second);
    }
}

std::string pairName(uint32_t a, uint32_t b) { return "(" + std::to_string(a) + ", " + std::to_string(b) + ")"; }

bool reportUntestedPairs(const std::string& method, const char* eligibleWhat, const char* settings, uint32_t maxPairs,
                         const UntestedPairs& pairs, FrameResults& out) {
    if (pairs.listed > pairs.listCapacity) {
        out.warnings.push_back(method + ": the broadphase found " + std::to_string(pairs.listed) +
                               " candidate pairs, more than its list holds (" + std::to_string(pairs.listCapacity) +
                               "): the pairs past it were not tested");
        out.truncated = true;
    }
    if (pairs.open != 0) {
        out.warnings.push_back(method + ": " + std::to_string(pairs.open) + " candidate pairs (one is " +
                               pairName(pairs.firstOpenA, pairs.firstOpenB) + ") have an object that is not a closed, oriented solid: not tested");
        out.truncated = true;
    }
    if (pairs.eligible <= maxPairs) return false;
    out.warnings.push_back(method + ": " + std::to_string(pairs.eligible) + " " + eligibleWhat + ", more than " +
                           settings + "::maxPairs (" + std::to_string(maxPairs) +
                           "): " + std::to_string(pairs.eligible - pairs.tested) + " not tested");
    out.truncated = true;
    return true;
}

}  // namespace vkc
