// Solid validity checks with exact predicates (Epick) on a CGAL::Surface_mesh of the world mesh.
#include "collision/reference/solid_check.h"

#include "collision/reference/cgal_surface_mesh.h"
#include "collision/reference/volume_sum.h"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Polygon_mesh_processing/orientation.h>
#include <CGAL/Polygon_mesh_processing/self_intersections.h>

#include <exception>

namespace vkc::reference {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Mesh = CGAL::Surface_mesh<Kernel::Point_3>;
namespace PMP = CGAL::Polygon_mesh_processing;

Status checkSolid(const WorldMesh& world, const SolidCheckSettings& settings) {
    try {
        Mesh mesh;
        VKC_TRY(detail::buildSurfaceMesh(world, mesh, /*requireClosed=*/true));
        if (settings.checkSelfIntersections) {
            if (PMP::does_self_intersect(mesh))
                return makeError(ErrorCode::InvalidMesh, "mesh '" + world.name +
                                                             "' self-intersects (or has a degenerate triangle)");
            if (settings.checkOrientation && !PMP::does_bound_a_volume(mesh))
                return makeError(ErrorCode::InvalidMesh,
                                 "mesh '" + world.name + "' does not bound a volume (inward-oriented or badly nested components)");
        }
        // does_bound_a_volume accepts a single inside-out component; the signed volume does not.
        const double volume =
            detail::enclosedVolume(mesh, [](const Kernel::Point_3& p) { return glm::dvec3(p.x(), p.y(), p.z()); });
        if (!(volume > 0.0))
            return makeError(ErrorCode::InvalidMesh, "mesh '" + world.name + "' is inside out (signed volume " +
                                                         std::to_string(volume) + " <= 0)");
        return Status::success();
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Unsupported, "solid check of '" + world.name + "': CGAL failed: " + e.what());
    }
}

Result<double> solidVolume(const WorldMesh& world) {
    try {
        Mesh mesh;
        VKC_TRY(detail::buildSurfaceMesh(world, mesh, /*requireClosed=*/true));
        return detail::enclosedVolume(mesh, [](const Kernel::Point_3& p) { return glm::dvec3(p.x(), p.y(), p.z()); });
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Unsupported, "volume of '" + world.name + "': CGAL failed: " + e.what());
    }
}

}  // namespace vkc::reference
