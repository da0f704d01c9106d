// Exact intersecting triangle pairs: box_intersection_d broad phase on closed double boxes, then
// CGAL::do_intersect(Triangle_3, Triangle_3) with exact predicates (Epick) per candidate.
#include "collision/reference/triangle_pairs.h"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/box_intersection_d.h>
#include <CGAL/intersections.h>

#include <algorithm>
#include <exception>

namespace vkc::reference {
namespace {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Point = Kernel::Point_3;
using Triangle = Kernel::Triangle_3;
using Box = CGAL::Box_intersection_d::Box_with_info_d<double, 3, uint32_t>;

Point toPoint(const glm::dvec3& p) { return Point(p.x, p.y, p.z); }

Triangle triangleOf(const WorldMesh& m, size_t t) {
    return Triangle(toPoint(m.positions[m.indices[3 * t]]), toPoint(m.positions[m.indices[3 * t + 1]]),
                    toPoint(m.positions[m.indices[3 * t + 2]]));
}

// Boxes of the non-degenerate triangles; counts the degenerate ones.
std::vector<Box> boxesOf(const WorldMesh& m, size_t& degenerate) {
    std::vector<Box> boxes;
    boxes.reserve(m.triangleCount());
    degenerate = 0;
    for (size_t t = 0; t < m.triangleCount(); ++t) {
        const Triangle tri = triangleOf(m, t);
        if (tri.is_degenerate()) {
            ++degenerate;
            continue;
        }
        // bbox() of double points is exact (no rounding): min/max of the coordinates.
        boxes.emplace_back(tri.bbox(), static_cast<uint32_t>(t));
    }
    return boxes;
}

}  // namespace

Result<TrianglePairsResult> intersectingTrianglePairs(const WorldMesh& a, const WorldMesh& b) {
    try {
        TrianglePairsResult result;
        std::vector<Box> boxesA = boxesOf(a, result.degenerateA);
        std::vector<Box> boxesB = boxesOf(b, result.degenerateB);
        auto report = [&](const Box& boxA, const Box& boxB) {
            if (CGAL::do_intersect(triangleOf(a, boxA.info()), triangleOf(b, boxB.info())))
                result.pairs.push_back({boxA.info(), boxB.info()});
        };
        // Bipartite: only A-B pairs; closed boxes (the default topology) so touching boxes are candidates.
        CGAL::box_intersection_d(boxesA.begin(), boxesA.end(), boxesB.begin(), boxesB.end(), report);
        std::sort(result.pairs.begin(), result.pairs.end());
        result.pairs.erase(std::unique(result.pairs.begin(), result.pairs.end()), result.pairs.end());
        return result;
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Unsupported, "triangle pairs of '" + a.name + "' and '" + b.name +
                                                     "': CGAL failed: " + e.what());
    }
}

Result<TrianglePairsResult> intersectingTrianglePairs(const MeshData& meshA, const glm::dmat4& transformA,
                                                      const MeshData& meshB, const glm::dmat4& transformB) {
    Result<WorldMesh> a = toWorld(meshA, transformA);
    if (!a) return a.status();
    Result<WorldMesh> b = toWorld(meshB, transformB);
    if (!b) return b.status();
    return intersectingTrianglePairs(*a, *b);
}

}  // namespace vkc::reference
