// Brute-force all-pairs CGAL::do_intersect over two world meshes: the independent check of the
// box broad phase in intersectingTrianglePairs (same degenerate policy: collinear triangles skipped).
#pragma once

#include "collision/reference/triangle_pairs.h"
#include "collision/reference/world_mesh.h"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/intersections.h>

#include <vector>

namespace vkc::reference::test {

inline std::vector<TrianglePair> bruteForcePairs(const WorldMesh& a, const WorldMesh& b) {
    using K = CGAL::Exact_predicates_inexact_constructions_kernel;
    auto tri = [](const WorldMesh& m, size_t t) {
        auto p = [&](int k) {
            const glm::dvec3& v = m.positions[m.indices[3 * t + k]];
            return K::Point_3(v.x, v.y, v.z);
        };
        return K::Triangle_3(p(0), p(1), p(2));
    };
    std::vector<K::Triangle_3> ta, tb;
    for (size_t t = 0; t < a.triangleCount(); ++t) ta.push_back(tri(a, t));
    for (size_t t = 0; t < b.triangleCount(); ++t) tb.push_back(tri(b, t));
    std::vector<TrianglePair> pairs;
    for (size_t i = 0; i < ta.size(); ++i) {
        if (ta[i].is_degenerate()) continue;
        for (size_t j = 0; j < tb.size(); ++j)
            if (!tb[j].is_degenerate() && CGAL::do_intersect(ta[i], tb[j]))
                pairs.push_back({static_cast<uint32_t>(i), static_cast<uint32_t>(j)});
    }
    return pairs;  // already sorted by (a, b)
}

}  // namespace vkc::reference::test
