// INTERNAL (not installed, includes CGAL): builds a CGAL::Surface_mesh from a WorldMesh and
// checks it is a closed, oriented 2-manifold. Used by the point classifier and the volume code;
// templated on the point type so the Epick and Epeck translation units share it.
#pragma once

#include "collision/reference/world_mesh.h"

#include <vkcollide/status.h>

#include <CGAL/Polygon_mesh_processing/orient_polygon_soup.h>
#include <CGAL/Polygon_mesh_processing/polygon_soup_to_polygon_mesh.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/boost/graph/helpers.h>

#include <array>
#include <string>
#include <vector>

namespace vkc::reference::detail {

// Fills `out` with the triangles of `world` (unreferenced vertices dropped, orientation kept as
// given). Fails with InvalidMesh, naming the mesh, when the triangles do not form an oriented
// 2-manifold (non-manifold edge or vertex, inconsistent winding, repeated index in a triangle)
// or, with `requireClosed`, when the surface has a boundary.
template <class Point>
Status buildSurfaceMesh(const WorldMesh& world, CGAL::Surface_mesh<Point>& out, bool requireClosed) {
    namespace PMP = CGAL::Polygon_mesh_processing;
    out.clear();
    if (world.indices.empty()) return makeError(ErrorCode::InvalidMesh, "mesh '" + world.name + "' has no triangles");
    std::vector<uint32_t> remap(world.positions.size(), UINT32_MAX);
    std::vector<Point> points;
    std::vector<std::array<size_t, 3>> faces;
    faces.reserve(world.triangleCount());
    for (size_t t = 0; t < world.triangleCount(); ++t) {
        std::array<size_t, 3> face;
        for (int k = 0; k < 3; ++k) {
            uint32_t& slot = remap[world.indices[3 * t + k]];
            if (slot == UINT32_MAX) {
                const glm::dvec3& p = world.positions[world.indices[3 * t + k]];
                slot = static_cast<uint32_t>(points.size());
                points.emplace_back(p.x, p.y, p.z);
            }
            face[k] = slot;
        }
        faces.push_back(face);
    }
    if (!PMP::is_polygon_soup_a_polygon_mesh(faces))
        return makeError(ErrorCode::InvalidMesh, "mesh '" + world.name +
                                                     "' is not an oriented 2-manifold (non-manifold edge or vertex, "
                                                     "inconsistent winding, or a repeated index in a triangle)");
    PMP::polygon_soup_to_polygon_mesh(points, faces, out);
    if (requireClosed && !CGAL::is_closed(out)) {
        size_t border = 0;
        for (auto h : out.halfedges())
            if (out.is_border(h)) ++border;
        return makeError(ErrorCode::InvalidMesh,
                         "mesh '" + world.name + "' is not closed (" + std::to_string(border) + " boundary edges)");
    }
    return Status::success();
}

}  // namespace vkc::reference::detail
