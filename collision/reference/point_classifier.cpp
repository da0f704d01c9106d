// Exact point-in-solid classification with CGAL::Side_of_triangle_mesh (Epick: exact predicates,
// double points; the ray-shooting picks new random rays on degenerate hits, answers stay exact).
#include "collision/reference/point_classifier.h"

#include "collision/reference/cgal_surface_mesh.h"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Side_of_triangle_mesh.h>

#include <exception>
#include <optional>

namespace vkc::reference {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Mesh = CGAL::Surface_mesh<Kernel::Point_3>;
using Side = CGAL::Side_of_triangle_mesh<Mesh, Kernel>;

struct PointClassifier::Impl {
    std::string name;
    Mesh mesh;
    std::optional<Side> side; // references `mesh`; Impl is heap-held so the address is stable
};

PointClassifier::PointClassifier(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PointClassifier::PointClassifier(PointClassifier&&) noexcept = default;
PointClassifier& PointClassifier::operator=(PointClassifier&&) noexcept = default;
PointClassifier::~PointClassifier() = default;

Result<PointClassifier> PointClassifier::create(const WorldMesh& world) {
    try {
        auto impl = std::make_unique<Impl>();
        impl->name = world.name;
        VKC_TRY(detail::buildSurfaceMesh(world, impl->mesh, /*requireClosed=*/true));
        impl->side.emplace(impl->mesh);
        return PointClassifier(std::move(impl));
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Unsupported, "point classifier for '" + world.name + "': CGAL failed: " + e.what());
    }
}

Result<PointClassifier> PointClassifier::create(const MeshData& mesh, const glm::dmat4& transform) {
    Result<WorldMesh> world = toWorld(mesh, transform);
    if (!world) return world.status();
    return create(*world);
}

static PointSide convert(CGAL::Bounded_side s) {
    switch (s) {
        case CGAL::ON_BOUNDED_SIDE: return PointSide::Inside;
        case CGAL::ON_BOUNDARY: return PointSide::OnBoundary;
        default: return PointSide::Outside;
    }
}

Result<PointSide> PointClassifier::classify(const glm::dvec3& p) const {
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
        return makeError(ErrorCode::InvalidArgument, "point query against '" + impl_->name + "' is not finite");
    try {
        return convert((*impl_->side)(Kernel::Point_3(p.x, p.y, p.z)));
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Unsupported, "point query against '" + impl_->name + "': CGAL failed: " + e.what());
    }
}

Result<std::vector<PointSide>> PointClassifier::classify(std::span<const glm::dvec3> points) const {
    std::vector<PointSide> out;
    out.reserve(points.size());
    for (const glm::dvec3& p : points) {
        Result<PointSide> s = classify(p);
        if (!s) return s.status();
        out.push_back(*s);
    }
    return out;
}

Result<bool> pointInside(const MeshData& mesh, const glm::dmat4& transform, const glm::dvec3& point) {
    Result<PointClassifier> classifier = PointClassifier::create(mesh, transform);
    if (!classifier) return classifier.status();
    Result<PointSide> side = classifier->classify(point);
    if (!side) return side.status();
    return *side != PointSide::Outside;
}

Result<std::vector<uint8_t>> pointsInside(const MeshData& mesh, const glm::dmat4& transform,
                                          std::span<const glm::dvec3> points) {
    Result<PointClassifier> classifier = PointClassifier::create(mesh, transform);
    if (!classifier) return classifier.status();
    Result<std::vector<PointSide>> sides = classifier->classify(points);
    if (!sides) return sides.status();
    std::vector<uint8_t> out(sides->size());
    for (size_t i = 0; i < out.size(); ++i) out[i] = (*sides)[i] != PointSide::Outside ? 1 : 0;
    return out;
}

}  // namespace vkc::reference
