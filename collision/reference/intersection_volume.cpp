// Exact corefinement of two closed solids with Epeck and the volume of their intersection.
// The only translation unit that instantiates the corefinement (the heaviest CGAL code): keep it
// alone so the build stays quick; compiled -O2 in every configuration (see CMakeLists.txt).
#include "collision/reference/intersection_volume.h"

#include "collision/reference/cgal_surface_mesh.h"
#include "collision/reference/volume_sum.h"

#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Polygon_mesh_processing/corefinement.h>

#include <algorithm>
#include <cmath>
#include <exception>

namespace vkc::reference {
namespace {

using Kernel = CGAL::Exact_predicates_exact_constructions_kernel;
using Mesh = CGAL::Surface_mesh<Kernel::Point_3>;
namespace PMP = CGAL::Polygon_mesh_processing;

// Nearest double to an exact coordinate. The lazy interval is used when it pins the value to
// ~1e-15 relative (always for input vertices, almost always for intersection points); otherwise
// the exact rational is computed.
double toDouble(const Kernel::FT& v) {
    const auto& iv = v.approx();
    const double lo = iv.inf(), hi = iv.sup();
    if (lo == hi) return lo;
    if (hi - lo <= 4e-16 * std::max(std::abs(lo), std::abs(hi))) return 0.5 * (lo + hi);
    return CGAL::to_double(v.exact());
}

glm::dvec3 pointToDouble(const Kernel::Point_3& p) { return {toDouble(p.x()), toDouble(p.y()), toDouble(p.z())}; }

}  // namespace

Result<double> intersectionVolume(const WorldMesh& a, const WorldMesh& b, const VolumeSettings& settings) {
    VKC_TRY(checkSolid(a, settings.check));
    VKC_TRY(checkSolid(b, settings.check));
    try {
        Mesh meshA, meshB, out;
        VKC_TRY(detail::buildSurfaceMesh(a, meshA, /*requireClosed=*/true));
        VKC_TRY(detail::buildSurfaceMesh(b, meshB, /*requireClosed=*/true));
        // Disjoint bounds: nothing to corefine (the closed box test keeps touching pairs, volume 0 anyway).
        if (!boundsOf(a).overlaps(boundsOf(b))) return 0.0;
        const double volumeA = detail::enclosedVolume(meshA, pointToDouble);
        const double volumeB = detail::enclosedVolume(meshB, pointToDouble);
        // Throws Self_intersection_exception when triangles near the intersection curve self-intersect.
        if (PMP::corefine_and_compute_intersection(meshA, meshB, out, PMP::parameters::throw_on_self_intersection(true)))
            return std::max(0.0, detail::enclosedVolume(out, pointToDouble));
        // The intersection is not a 2-manifold (e.g. solids sharing an edge); the union may be.
        Mesh unionMesh;
        if (PMP::corefine_and_compute_union(meshA, meshB, unionMesh))
            return std::max(0.0, volumeA + volumeB - detail::enclosedVolume(unionMesh, pointToDouble));
        return makeError(ErrorCode::Unsupported, "intersection volume of '" + a.name + "' and '" + b.name +
                                                     "': neither their intersection nor their union is a 2-manifold");
    } catch (const PMP::Corefinement::Self_intersection_exception&) {
        return makeError(ErrorCode::InvalidMesh, "intersection volume of '" + a.name + "' and '" + b.name +
                                                     "': one of them self-intersects near their intersection");
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Unsupported,
                         "intersection volume of '" + a.name + "' and '" + b.name + "': CGAL failed: " + e.what());
    }
}

Result<WorldMesh> intersectionMesh(const WorldMesh& a, const WorldMesh& b, const VolumeSettings& settings) {
    VKC_TRY(checkSolid(a, settings.check));
    VKC_TRY(checkSolid(b, settings.check));
    const std::string name = "intersection of '" + a.name + "' and '" + b.name + "'";
    try {
        Mesh meshA, meshB, out;
        VKC_TRY(detail::buildSurfaceMesh(a, meshA, /*requireClosed=*/true));
        VKC_TRY(detail::buildSurfaceMesh(b, meshB, /*requireClosed=*/true));
        if (!PMP::corefine_and_compute_intersection(meshA, meshB, out, PMP::parameters::throw_on_self_intersection(true)))
            return makeError(ErrorCode::Unsupported, name + ": not a 2-manifold");
        if (out.number_of_faces() == 0) return makeError(ErrorCode::Unsupported, name + ": empty");
        out.collect_garbage();  // vertex indices 0..n-1
        WorldMesh mesh;
        mesh.name = name;
        for (Mesh::Vertex_index v : out.vertices()) mesh.positions.push_back(pointToDouble(out.point(v)));
        for (Mesh::Face_index f : out.faces()) {
            if (out.degree(f) != 3) return makeError(ErrorCode::Unsupported, name + ": a face is not a triangle");
            for (Mesh::Vertex_index v : CGAL::vertices_around_face(out.halfedge(f), out)) mesh.indices.push_back(uint32_t(v));
        }
        return mesh;
    } catch (const PMP::Corefinement::Self_intersection_exception&) {
        return makeError(ErrorCode::InvalidMesh, name + ": one of them self-intersects near their intersection");
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Unsupported, name + ": CGAL failed: " + e.what());
    }
}

Result<double> intersectionVolume(const MeshData& meshA, const glm::dmat4& transformA, const MeshData& meshB,
                                  const glm::dmat4& transformB, const VolumeSettings& settings) {
    Result<WorldMesh> a = toWorld(meshA, transformA);
    if (!a) return a.status();
    Result<WorldMesh> b = toWorld(meshB, transformB);
    if (!b) return b.status();
    return intersectionVolume(*a, *b, settings);
}

}  // namespace vkc::reference
