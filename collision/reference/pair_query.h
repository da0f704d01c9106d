// Exact answer for one pair of placed meshes: do they interfere, which triangle pairs intersect,
// is one inside the other, and (closed meshes) the intersection volume.
#pragma once

#include "collision/reference/intersection_volume.h"
#include "collision/reference/point_classifier.h"
#include "collision/reference/triangle_pairs.h"
#include "collision/reference/world_mesh.h"

#include <vkcollide/mesh.h>
#include <vkcollide/status.h>

#include <glm/mat4x4.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vkc::reference {

// A mesh placed in world space, prepared once for many pair queries (scenes).
struct PlacedMesh {
    WorldMesh world;
    WorldBounds bounds;
    // Set when the mesh is a closed oriented 2-manifold (containment and volume are meaningful);
    // shared so PlacedMesh stays copyable.
    std::shared_ptr<const PointClassifier> classifier;
    Status closedStatus; // ok when `classifier` is set, else why the mesh is not a closed solid

    bool closed() const { return classifier != nullptr; }
    // Errors: toWorld's. An open mesh or soup is not an error (closedStatus says why).
    static Result<PlacedMesh> create(const MeshData& mesh, const glm::dmat4& transform);
};

struct PairSettings {
    bool computeVolume = true;     // intersection volume when both meshes are closed (corefinement: slow)
    bool keepTrianglePairs = true; // keep the list, not only the count
    VolumeSettings volume;         // checks run before the corefinement
};

struct PairResult {
    bool interfering = false;               // surfaces intersect (touching counts) or one contains the other
    size_t trianglePairCount = 0;           // exact number of intersecting triangle pairs
    std::vector<TrianglePair> trianglePairs; // sorted (a, b); empty unless keepTrianglePairs
    bool aInsideB = false;                  // A lies inside closed B, surfaces not intersecting
    bool bInsideA = false;                  // B lies inside closed A, surfaces not intersecting
    std::optional<double> volume;           // volume(A ∩ B) when both closed and computeVolume, else absent
    size_t degenerateA = 0;                 // degenerate triangles skipped (see triangle_pairs.h); counted
                                            // only when the world bounds overlap
    size_t degenerateB = 0;
    std::string warning;                    // why containment or volume is absent/unknown; empty if none
};

// Containment policy: tested only when no triangle pair intersects, by classifying the first
// vertex of A's first triangle against B (and vice versa) with Side_of_triangle_mesh; only a
// closed mesh can contain. A vertex on the boundary counts as inside (closed solids).
// Errors: toWorld's. Volume failures (e.g. a self-intersecting mesh) do not fail the call: the
// volume is left absent and `warning` says why.
Result<PairResult> exactPair(const PlacedMesh& a, const PlacedMesh& b, const PairSettings& settings = {});
Result<PairResult> exactPair(const MeshData& meshA, const glm::dmat4& transformA, const MeshData& meshB,
                             const glm::dmat4& transformB, const PairSettings& settings = {});

// Whether the two placed meshes interfere (surfaces touch or intersect, or one contains the other).
Result<bool> interferes(const MeshData& meshA, const glm::dmat4& transformA, const MeshData& meshB,
                        const glm::dmat4& transformB);

}  // namespace vkc::reference
