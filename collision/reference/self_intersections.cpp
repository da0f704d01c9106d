// Self-intersection count; see self_intersections.h.
#include "collision/reference/self_intersections.h"

#include "collision/reference/cgal_surface_mesh.h"
#include "collision/reference/world_mesh.h"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Polygon_mesh_processing/self_intersections.h>

#include <exception>
#include <iterator>
#include <utility>
#include <vector>

namespace vkc::reference {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Mesh = CGAL::Surface_mesh<Kernel::Point_3>;

Result<size_t> selfIntersectingTrianglePairs(const MeshData& meshData) {
    auto world = toWorld(meshData, glm::mat4(1.0f));
    if (!world) return world.status();
    try {
        Mesh mesh;
        VKC_TRY(detail::buildSurfaceMesh(world.value(), mesh, /*requireClosed=*/true));
        std::vector<std::pair<Mesh::Face_index, Mesh::Face_index>> pairs;
        CGAL::Polygon_mesh_processing::self_intersections(mesh, std::back_inserter(pairs));
        return pairs.size();
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Unsupported,
                         "self-intersection test of '" + meshData.name + "': CGAL failed: " + e.what());
    }
}

}  // namespace vkc::reference
