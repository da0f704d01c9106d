// INTERNAL (includes CGAL): volume enclosed by a closed triangulated Surface_mesh, as the sum of
// signed tetrahedra (c, p, q, r) over faces with c the centre of the vertex bounds (small terms,
// little cancellation), accumulated in double with Neumaier compensation in face order
// (deterministic). `toDouble(point)` converts a vertex point to double coordinates.
#pragma once

#include <CGAL/Surface_mesh.h>

#include <glm/glm.hpp>

#include <vector>

namespace vkc::reference::detail {

template <class Point, class ToDouble>
double enclosedVolume(const CGAL::Surface_mesh<Point>& mesh, ToDouble toDouble) {
    if (mesh.number_of_faces() == 0) return 0.0;
    std::vector<glm::dvec3> pts(mesh.number_of_vertices() + mesh.number_of_removed_vertices());
    glm::dvec3 lo(0.0), hi(0.0);
    bool first = true;
    for (auto v : mesh.vertices()) {
        const glm::dvec3 p = toDouble(mesh.point(v));
        pts[v.idx()] = p;
        lo = first ? p : glm::min(lo, p);
        hi = first ? p : glm::max(hi, p);
        first = false;
    }
    const glm::dvec3 c = 0.5 * (lo + hi);
    double sum = 0.0, comp = 0.0;
    for (auto f : mesh.faces()) {
        auto h = mesh.halfedge(f);
        const glm::dvec3 a = pts[mesh.target(mesh.prev(h)).idx()] - c;
        const glm::dvec3 b = pts[mesh.target(h).idx()] - c;
        const glm::dvec3 d = pts[mesh.target(mesh.next(h)).idx()] - c;
        const double term = glm::dot(a, glm::cross(b, d)) / 6.0;
        const double t = sum + term;
        comp += std::abs(sum) >= std::abs(term) ? (sum - t) + term : (term - t) + sum;
        sum = t;
    }
    return sum + comp;
}

}  // namespace vkc::reference::detail
