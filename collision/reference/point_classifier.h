// Exact point-in-solid queries against a closed mesh (vertex-in-volume ground truth).
#pragma once

#include "collision/reference/world_mesh.h"

#include <vkcollide/mesh.h>
#include <vkcollide/status.h>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace vkc::reference {

enum class PointSide : uint8_t {
    Outside = 0,
    Inside = 1,
    OnBoundary = 2, // exactly on the surface (exact predicates)
};

// Classifies world-space points against one closed mesh. Builds the AABB tree once, so batches
// of many points (100k vertices) cost one tree build plus a ray query per point.
// Exact: CGAL::Side_of_triangle_mesh with Epick predicates on the double world mesh.
// Not thread-safe (the CGAL tree caches state); use one classifier per thread.
class PointClassifier {
public:
    // Errors (InvalidMesh, naming the mesh): not an oriented 2-manifold, not closed, plus toWorld's.
    static Result<PointClassifier> create(const MeshData& mesh, const glm::dmat4& transform);
    static Result<PointClassifier> create(const WorldMesh& world);

    PointClassifier(PointClassifier&&) noexcept;
    PointClassifier& operator=(PointClassifier&&) noexcept;
    ~PointClassifier();

    // `point` in world space. Never throws: a CGAL failure is reported as an error Status.
    Result<PointSide> classify(const glm::dvec3& point) const;
    // One PointSide per input point, in order.
    Result<std::vector<PointSide>> classify(std::span<const glm::dvec3> points) const;

private:
    struct Impl;
    explicit PointClassifier(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// Whether the world-space `point` lies in the closed solid bounded by `mesh` placed by
// `transform`; the boundary counts as inside (closed solid). Builds a classifier each call: use
// pointsInside() or PointClassifier for many points.
Result<bool> pointInside(const MeshData& mesh, const glm::dmat4& transform, const glm::dvec3& point);
// Batch form: one entry per point, 1 = inside or on the boundary, 0 = outside.
Result<std::vector<uint8_t>> pointsInside(const MeshData& mesh, const glm::dmat4& transform,
                                          std::span<const glm::dvec3> points);

}  // namespace vkc::reference
