// Self-intersection of a mesh on the CPU, for the library itself (the oracle's exact test is
// CGAL's, collision/reference/self_intersections.h, which the library does not link): ldi's §7
// order test flags pixels whose front and back faces come out of order, and a float depth tie at a
// silhouette pixel does that on a clean mesh too. Only the geometry tells the two apart, so ldi
// asks this before it warns.
#pragma once

#include "vkcollide/mesh.h"
#include "vkcollide/scene.h"
#include "vkcollide/status.h"

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace vkc {

struct SceneMesh;

// Whether two triangles of `mesh` that share no corner position meet, by aabb-tree's triangle test
// (collision/aabb_tree/tri_tri.h: touching within its tolerance counts, so near-touching sheets
// count too) over the triangle pairs of the mesh's own AABB tree whose boxes overlap. Neighbours
// (a shared corner) are not tested: a fold that crosses only its own vertex's fan goes unseen.
// O(n log n) for a mesh whose triangles are not piled up. Errors: buildAabbTree's.
Result<bool> meshSelfIntersects(const MeshData& mesh);

// A scene's verdicts per mesh: computed when first asked, kept until the mesh is deformed. Frames
// hold it weakly (SceneImpl owns it), so a scene destroyed before a frame is read leaves none.
class SceneSelfIntersections {
public:
    explicit SceneSelfIntersections(const std::vector<SceneMesh>& meshes) : meshes_(meshes) {}
    // nullopt where the CPU positions are not what the GPU drew (a host buffer the host deformed)
    // or the mesh cannot be tested.
    std::optional<bool> selfIntersects(MeshId mesh);

private:
    const std::vector<SceneMesh>& meshes_;
    std::map<MeshId, std::pair<uint64_t, bool>> verdicts_;  // mesh: (its deformedGeneration, verdict)
};

}  // namespace vkc
