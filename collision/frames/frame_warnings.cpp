// Warnings about a frame's inputs; see frame_warnings.h.
#include "collision/frames/frame_warnings.h"

#include "collision/frames/candidate_pairs.h"

#include <set>

namespace vkc {

void noteFrameInputs(DetectorFrames& frames, uint64_t frame, const SceneImpl& scene,
                     std::span<const ObjectPair> pairs, const char* method) {
    std::vector<std::string>& warnings = frames.slotWarnings[frame % frames.slotWarnings.size()];
    warnings.clear();
    std::set<MeshId> meshes;
    for (uint32_t object : objectsOfPairs(pairs)) meshes.insert(scene.objects[object].mesh);
    for (MeshId id : meshes) {
        const MeshCheckReport& report = scene.meshes[id].report;
        if (report.degenerateTriangles() == 0) continue;
        warnings.push_back(std::string(method) + ": mesh \"" + scene.meshes[id].data.name + "\" has " +
                           std::to_string(report.degenerateTriangles()) +
                           " degenerate triangle(s) (zero area or a repeated vertex; first: triangle " +
                           std::to_string(report.firstDegenerateTriangle) +
                           "): they are drawn and tested as they are, where the exact oracle skips them");
    }
}

void appendFrameWarnings(const DetectorFrames& frames, uint64_t frame, std::vector<std::string>& out) {
    const std::vector<std::string>& warnings = frames.slotWarnings[frame % frames.slotWarnings.size()];
    out.insert(out.end(), warnings.begin(), warnings.end());
}

}  // namespace vkc
