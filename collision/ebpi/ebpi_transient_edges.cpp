// Transient edges of an ebpi pair; see ebpi_transient_edges.h.
#include "collision/ebpi/ebpi_transient_edges.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <array>

namespace vkc {

namespace {

struct WorldTriangle {
    std::array<glm::dvec3, 3> v;
    glm::dvec3 lo, hi;
};

// The triangles of the placed mesh whose boxes meet `box`.
std::vector<WorldTriangle> trianglesIn(const MeshData& mesh, const glm::mat4& objectToLocal, const EbpiBox& box) {
    std::vector<WorldTriangle> out;
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        WorldTriangle w;
        for (int k = 0; k < 3; ++k) w.v[k] = ebpiLocalPoint(objectToLocal, mesh.positions[mesh.indices[t + k]]);
        w.lo = glm::min(w.v[0], glm::min(w.v[1], w.v[2]));
        w.hi = glm::max(w.v[0], glm::max(w.v[1], w.v[2]));
        if (glm::all(glm::lessThanEqual(w.lo, box.hi)) && glm::all(glm::greaterThanEqual(w.hi, box.lo))) out.push_back(w);
    }
    std::sort(out.begin(), out.end(), [](const WorldTriangle& a, const WorldTriangle& b) { return a.lo.x < b.lo.x; });
    return out;
}

// The points where `t`'s boundary meets the plane n . x = d: two for a crossing, fewer otherwise.
int planeCrossing(const WorldTriangle& t, const glm::dvec3& n, double d, glm::dvec3 out[2]) {
    double s[3];
    for (int k = 0; k < 3; ++k) s[k] = glm::dot(n, t.v[k]) - d;
    if ((s[0] > 0 && s[1] > 0 && s[2] > 0) || (s[0] < 0 && s[1] < 0 && s[2] < 0)) return 0;
    if (s[0] == 0 && s[1] == 0 && s[2] == 0) return 0;  // coplanar: equal gradients, no crease
    int count = 0;
    for (int k = 0; k < 3 && count < 2; ++k) {
        const int j = (k + 1) % 3;
        if (s[k] == 0) out[count++] = t.v[k];
        else if ((s[k] < 0) != (s[j] < 0) && s[j] != 0) out[count++] = t.v[k] + (t.v[j] - t.v[k]) * (s[k] / (s[k] - s[j]));
    }
    return count;
}

glm::dvec3 unitNormal(const WorldTriangle& t) {
    const glm::dvec3 n = glm::cross(t.v[1] - t.v[0], t.v[2] - t.v[0]);
    const double length = glm::length(n);
    return length > 0 ? n / length : glm::dvec3(0.0);
}

// The segment where triangles a and b meet, if it has a length.
bool crossingSegment(const WorldTriangle& a, const WorldTriangle& b, EbpiSurfaceCrossing& out) {
    const glm::dvec3 na = unitNormal(a), nb = unitNormal(b);
    if (na == glm::dvec3(0.0) || nb == glm::dvec3(0.0)) return false;
    glm::dvec3 onA[2], onB[2];
    if (planeCrossing(b, na, glm::dot(na, a.v[0]), onB) != 2) return false;  // b's chord on a's plane
    if (planeCrossing(a, nb, glm::dot(nb, b.v[0]), onA) != 2) return false;
    const glm::dvec3 line = glm::cross(na, nb);
    if (glm::dot(line, line) == 0) return false;
    auto along = [&](const glm::dvec3& p) { return glm::dot(line, p); };
    if (along(onA[0]) > along(onA[1])) std::swap(onA[0], onA[1]);
    if (along(onB[0]) > along(onB[1])) std::swap(onB[0], onB[1]);
    const glm::dvec3 start = along(onA[0]) > along(onB[0]) ? onA[0] : onB[0];
    const glm::dvec3 end = along(onA[1]) < along(onB[1]) ? onA[1] : onB[1];
    if (!(along(start) < along(end))) return false;
    out = {start, end, na, nb};
    return true;
}

}  // namespace

std::vector<EbpiSurfaceCrossing> ebpiSurfaceCrossings(const MeshData& meshA, const glm::mat4& objectToLocalA,
                                                      const MeshData& meshB, const glm::mat4& objectToLocalB,
                                                      const EbpiBox& box) {
    const std::vector<WorldTriangle> a = trianglesIn(meshA, objectToLocalA, box);
    const std::vector<WorldTriangle> b = trianglesIn(meshB, objectToLocalB, box);
    std::vector<EbpiSurfaceCrossing> out;
    size_t firstB = 0;
    for (const WorldTriangle& ta : a) {
        while (firstB < b.size() && b[firstB].lo.x < ta.lo.x && b[firstB].hi.x < ta.lo.x) ++firstB;
        for (size_t j = firstB; j < b.size() && b[j].lo.x <= ta.hi.x; ++j) {
            const WorldTriangle& tb = b[j];
            if (tb.hi.x < ta.lo.x || glm::any(glm::greaterThan(tb.lo, ta.hi)) || glm::any(glm::lessThan(tb.hi, ta.lo)))
                continue;
            EbpiSurfaceCrossing c;
            if (crossingSegment(ta, tb, c)) out.push_back(c);
        }
    }
    return out;
}

std::vector<EbpiEdgeTerm> ebpiTransientEdgeTerms(const std::vector<EbpiSurfaceCrossing>& crossings,
                                                 const EbpiRotation& rotation) {
    auto toFrame = [&](const glm::dvec3& p) {
        return glm::dvec3(glm::dot(rotation.rows[0], p), glm::dot(rotation.rows[1], p), glm::dot(rotation.rows[2], p));
    };
    std::vector<EbpiEdgeTerm> terms;
    for (const EbpiSurfaceCrossing& c : crossings) {
        const glm::dvec3 na = toFrame(c.normalA), nb = toFrame(c.normalB);
        if (na.z == 0 || nb.z == 0) continue;  // steep: the face's own wall terms cover the jump
        const glm::dvec2 gradientA(-na.x / na.z, -na.y / na.z), gradientB(-nb.x / nb.z, -nb.y / nb.z);
        EbpiEdgeTerm term;
        // Widened by a rounding's worth so that the closed segment touches every pixel the exact one does.
        const glm::dvec2 p(toFrame(c.p)), q(toFrame(c.q));
        const glm::dvec2 widen = (q - p) * 1e-9 + glm::sign(q - p) * 1e-12 * (glm::abs(p) + glm::abs(q));
        term.a = p - widen;
        term.b = q + widen;
        term.bound = ebpiCreaseBound(gradientA - gradientB);
        if (term.bound.evaluate(1, 1) > 0) terms.push_back(term);
    }
    return terms;
}

}  // namespace vkc
