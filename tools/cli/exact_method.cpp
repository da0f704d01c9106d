// The exact method for the harness; see exact_method.h.
#include "tools/cli/exact_method.h"

#include "collision/reference/exact_scene.h"

namespace vkc::tools {

Result<FrameResults> runExactFrame(const io::SceneDescription& scene, const io::SceneFrame& frame,
                                   bool keepTrianglePairs) {
    // Deformed meshes of this frame replace their base positions.
    std::vector<MeshData> meshes;
    meshes.reserve(scene.meshes.size());
    for (const io::SceneMesh& mesh : scene.meshes) meshes.push_back(mesh.data);
    for (const io::DeformedMesh& deformed : frame.deformed) meshes[deformed.mesh].positions = deformed.positions;

    std::vector<reference::SceneObject> objects;
    for (size_t i = 0; i < scene.objects.size(); ++i)
        objects.push_back({&meshes[scene.objects[i].mesh], frame.transforms[i]});
    reference::SceneSettings settings;
    settings.keepTrianglePairs = keepTrianglePairs;
    auto exact = reference::exactScene(objects, settings);
    if (!exact) return exact.status();

    FrameResults results;
    for (const reference::ScenePairResult& pair : exact.value()) {
        PairResult out;
        out.a = pair.a;
        out.b = pair.b;
        out.trianglePairs = pair.result.trianglePairCount;
        for (const reference::TrianglePair& triangles : pair.result.trianglePairs)
            out.trianglePairList.push_back({triangles.a, triangles.b});
        out.volume = pair.result.volume;
        if (pair.result.volume) out.volumeErrorBound = 0.0;  // exact up to the final rounding
        if (!pair.result.warning.empty())
            results.warnings.push_back("pair " + std::to_string(pair.a) + "-" + std::to_string(pair.b) + ": " +
                                       pair.result.warning);
        results.pairs.push_back(std::move(out));
    }
    results.colliding = !results.pairs.empty();
    return results;
}

}  // namespace vkc::tools
