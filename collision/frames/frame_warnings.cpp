// Warnings about a frame's inputs; see frame_warnings.h.
#include "collision/frames/frame_warnings.h"

#include <set>

namespace vkc {

void noteFrameInputs(DetectorFrames& frames, uint64_t frame, const SceneImpl& scene, std::span<const ObjectPair> pairs,
                     const char* method) {
    FrameInputWarnings& kept = frames.slotWarnings[frame % frames.slotWarnings.size()];
    kept.pairs.assign(pairs.begin(), pairs.end());
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

void appendFrameWarnings(const DetectorFrames& frames, uint64_t frame, std::vector<std::string>& out) {
    appendFrameWarnings(frames, frame, frames.slotWarnings[frame % frames.slotWarnings.size()].pairs, out);
}

}  // namespace vkc
