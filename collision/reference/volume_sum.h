// INTERNAL (includes CGAL): volume enclosed by a closed triangulated Surface_mesh, as the sum of
// signed tetrahedra (c, p, q, r) over faces with c the centre of the vertex bounds (small terms,
// little cancellation), accumulated in double with Neumaier compensation. Deterministic for the
// same surface whatever its face order and each face's first vertex, which CGAL's corefinement
// output varies from run to run (it iterates containers keyed by addresses): each face starts at
// its least vertex and the terms are summed sorted. `toDouble(point)` converts a vertex point to
// double coordinates.
#pragma once

#include <CGAL/Surface_mesh.h>

#include <glm/glm.hpp>

#include <algorithm>
#include <array>
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
    auto less = [](const glm::dvec3& p, const glm::dvec3& q) {
        return p.x != q.x ? p.x < q.x : p.y != q.y ? p.y < q.y : p.z < q.z;
    };
    std::vector<double> terms;
    terms.reserve(mesh.number_of_faces());
    for (auto f : mesh.faces()) {
        auto h = mesh.halfedge(f);
        std::array<glm::dvec3, 3> v = {pts[mesh.target(mesh.prev(h)).idx()], pts[mesh.target(h).idx()],
                                       pts[mesh.target(mesh.next(h)).idx()]};
        const size_t least = less(v[1], v[0]) ? (less(v[2], v[1]) ? 2 : 1) : (less(v[2], v[0]) ? 2 : 0);
        std::rotate(v.begin(), v.begin() + least, v.end());  // keeps the orientation
        terms.push_back(glm::dot(v[0] - c, glm::cross(v[1] - c, v[2] - c)) / 6.0);
    }
    std::sort(terms.begin(), terms.end());
    double sum = 0.0, comp = 0.0;
    for (const double term : terms) {
        const double t = sum + term;
        comp += std::abs(sum) >= std::abs(term) ? (sum - t) + term : (term - t) + sum;
        sum = t;
    }
    return sum + comp;
}

}  // namespace vkc::reference::detail
