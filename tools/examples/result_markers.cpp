// The example's result overlay; see result_markers.h.
#include "tools/examples/result_markers.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace vkc::example {

MeshData markerMesh() {
    MeshData mesh;
    mesh.name = "marker";
    mesh.positions = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    mesh.indices = {0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5};
    return mesh;
}

MeshData volumeBarMesh() {
    MeshData mesh;
    mesh.name = "volume bar";
    for (int i = 0; i < 8; ++i) mesh.positions.push_back({float(i & 1), float((i >> 1) & 1), float((i >> 2) & 1)});
    mesh.indices = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                    2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
    return mesh;
}

ResultMarkers resultMarkers(std::span<const PlacedMesh> objects, float margin, uint32_t markerMesh, uint32_t barMesh) {
    const auto [lo, hi] = restBox(objects);
    const float extent = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
    // The camera's depth range reaches margin x the depth above the top (cameraWorldToClip).
    return {markerMesh, barMesh, hi.z + 0.5f * margin * (hi.z - lo.z), 0.008f * extent};
}

void appendResultMarkers(const ResultMarkers& markers, const FrameResults& results, std::span<const glm::vec3> centres,
                         std::vector<ObjectDraw>& draws) {
    auto flat = [&](glm::vec3 p) { return glm::vec3(p.x, p.y, markers.top); };
    // Each pair gets its share of the markers, spread over its points.
    const size_t perPair = kMostMarkedPoints / std::max<size_t>(1, results.pairs.size());
    for (const PairResult& pair : results.pairs) {
        const size_t stride = std::max<size_t>(1, (pair.points.size() + perPair - 1) / std::max<size_t>(1, perPair));
        for (size_t i = 0; i < pair.points.size(); i += stride) {
            const glm::vec3 p = flat(pair.points[i]);
            draws.push_back({markers.markerMesh, glm::scale(glm::translate(glm::mat4(1.0f), p), glm::vec3(markers.size)),
                             kMarkerColor});
            if (i < pair.normals.size())
                draws.push_back({markers.markerMesh,
                                 glm::scale(glm::translate(glm::mat4(1.0f), p + 4.0f * markers.size * pair.normals[i]),
                                            glm::vec3(0.5f * markers.size)),
                                 kNormalColor});
        }
        if (!pair.volume) continue;
        // A bar from between the pair's centres, as long as the side of a cube of the volume.
        const glm::vec3 base = flat(0.5f * (centres[pair.a] + centres[pair.b]));
        const float length = float(std::cbrt(*pair.volume));
        draws.push_back({markers.barMesh,
                         glm::scale(glm::translate(glm::mat4(1.0f), base), glm::vec3(2.0f * markers.size, length, markers.size)),
                         kVolumeBarColor});
    }
}

}  // namespace vkc::example
