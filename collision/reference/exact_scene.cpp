// Scene oracle: place every object once, sweep closed world AABBs, run exactPair on overlaps.
#include "collision/reference/exact_scene.h"

#include <algorithm>
#include <numeric>

namespace vkc::reference {

Result<std::vector<ScenePairResult>> exactScene(std::span<const SceneObject> objects, const SceneSettings& settings) {
    std::vector<PlacedMesh> placed;
    placed.reserve(objects.size());
    for (size_t i = 0; i < objects.size(); ++i) {
        if (!objects[i].mesh)
            return makeError(ErrorCode::InvalidArgument, "scene object " + std::to_string(i) + " has no mesh");
        Result<PlacedMesh> p = PlacedMesh::create(*objects[i].mesh, objects[i].transform);
        if (!p) {
            Status s = p.status();
            s.message = "object " + std::to_string(i) + ": " + s.message;
            return s;
        }
        placed.push_back(std::move(p).value());
    }
    PairSettings pairSettings;
    pairSettings.computeVolume = settings.computeVolumes;
    pairSettings.keepTrianglePairs = settings.keepTrianglePairs;
    pairSettings.volume = settings.volume;

    // Sort-and-sweep on min x (closed intervals: touching boxes are candidates).
    std::vector<uint32_t> order(placed.size());
    std::iota(order.begin(), order.end(), 0u);
    std::erase_if(order, [&](uint32_t i) { return placed[i].bounds.empty(); });
    std::sort(order.begin(), order.end(), [&](uint32_t l, uint32_t r) {
        return placed[l].bounds.min.x < placed[r].bounds.min.x || (placed[l].bounds.min.x == placed[r].bounds.min.x && l < r);
    });
    std::vector<ScenePairResult> out;
    for (size_t i = 0; i < order.size(); ++i) {
        for (size_t j = i + 1; j < order.size(); ++j) {
            const PlacedMesh& pi = placed[order[i]];
            const PlacedMesh& pj = placed[order[j]];
            if (pj.bounds.min.x > pi.bounds.max.x) break;
            if (!pi.bounds.overlaps(pj.bounds)) continue;
            const uint32_t a = std::min(order[i], order[j]);
            const uint32_t b = std::max(order[i], order[j]);
            Result<PairResult> r = exactPair(placed[a], placed[b], pairSettings);
            if (!r) return r.status();
            if (r->interfering) out.push_back({a, b, std::move(r).value()});
        }
    }
    std::sort(out.begin(), out.end(), [](const ScenePairResult& l, const ScenePairResult& r) {
        return l.a < r.a || (l.a == r.a && l.b < r.b);
    });
    return out;
}

}  // namespace vkc::reference
