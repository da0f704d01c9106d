#include "collision/ebpi/ebpi_midpoint_error.h"

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <vector>

namespace vkc {
namespace {

double cross2(const glm::dvec2& a, const glm::dvec2& b) { return a.x * b.y - a.y * b.x; }

// Triangle `t` as its three positions and twice its signed projected area (sign(n_z)).
struct Face {
    glm::dvec3 p[3];
    double projectedArea2;
};

Face face(const EbpiRayMesh& mesh, size_t t) {
    Face f{{mesh.positions[mesh.indices[3 * t]], mesh.positions[mesh.indices[3 * t + 1]],
            mesh.positions[mesh.indices[3 * t + 2]]},
           0};
    f.projectedArea2 = cross2(glm::dvec2(f.p[1] - f.p[0]), glm::dvec2(f.p[2] - f.p[0]));
    return f;
}

// Depth of the face's plane at `q`, through barycentric coordinates of the projection.
double depthAt(const Face& f, const glm::dvec2& q) {
    const glm::dvec2 a(f.p[0]), b(f.p[1]), c(f.p[2]);
    const double wb = cross2(q - a, c - a) / cross2(b - a, c - a);
    const double wc = cross2(b - a, q - a) / cross2(b - a, c - a);
    return f.p[0].z + wb * (f.p[1].z - f.p[0].z) + wc * (f.p[2].z - f.p[0].z);
}

// Sutherland-Hodgman against one side of the rectangle: keep sign * (v[axis] - bound) >= 0.
std::vector<glm::dvec2> clipSide(const std::vector<glm::dvec2>& poly, int axis, double bound, double sign) {
    std::vector<glm::dvec2> out;
    for (size_t i = 0; i < poly.size(); ++i) {
        const glm::dvec2& cur = poly[i];
        const glm::dvec2& next = poly[(i + 1) % poly.size()];
        const double dc = sign * (cur[axis] - bound);
        const double dn = sign * (next[axis] - bound);
        if (dc >= 0) out.push_back(cur);
        if ((dc >= 0) != (dn >= 0)) out.push_back(cur + (next - cur) * (dc / (dc - dn)));
    }
    return out;
}

}  // namespace

double ebpiVolumeOverRect(const EbpiRayMesh& mesh, const EbpiRect& rect) {
    double volume = 0;
    for (size_t t = 0; t < mesh.triangleCount(); ++t) {
        const Face f = face(mesh, t);
        if (f.projectedArea2 == 0) continue;  // steep: no area to integrate over
        std::vector<glm::dvec2> poly{glm::dvec2(f.p[0]), glm::dvec2(f.p[1]), glm::dvec2(f.p[2])};
        poly = clipSide(poly, 0, rect.min.x, 1);
        poly = clipSide(poly, 0, rect.max.x, -1);
        poly = clipSide(poly, 1, rect.min.y, 1);
        poly = clipSide(poly, 1, rect.max.y, -1);
        if (poly.size() < 3) continue;
        // Area and centroid by the shoelace fan; a linear depth integrates to area x depth(centroid).
        double area2 = 0;
        glm::dvec2 centroid6(0);
        for (size_t i = 0; i < poly.size(); ++i) {
            const double c = cross2(poly[i], poly[(i + 1) % poly.size()]);
            area2 += c;
            centroid6 += (poly[i] + poly[(i + 1) % poly.size()]) * c;
        }
        if (area2 == 0) continue;
        // The clipped polygon keeps the triangle's winding, so area2 carries sign(n_z).
        volume += 0.5 * area2 * depthAt(f, centroid6 / (3 * area2));
    }
    return volume;
}

double ebpiDepthSpan(const EbpiRayMesh& mesh, const glm::dvec2& point) {
    double span = 0;
    for (size_t t = 0; t < mesh.triangleCount(); ++t) {
        const Face f = face(mesh, t);
        if (f.projectedArea2 == 0) continue;
        const glm::dvec2 a(f.p[0]), b(f.p[1]), c(f.p[2]);
        const double s = f.projectedArea2 > 0 ? 1 : -1;
        // Inside the closed projection: the same side of all three edges as the winding.
        if (s * cross2(b - a, point - a) >= 0 && s * cross2(c - b, point - b) >= 0 && s * cross2(a - c, point - c) >= 0)
            span += s * depthAt(f, point);
    }
    return span;
}

double ebpiMidpointError(const EbpiRayMesh& mesh, const EbpiRect& rect) {
    const glm::dvec2 size = rect.size();
    return ebpiVolumeOverRect(mesh, rect) - size.x * size.y * ebpiDepthSpan(mesh, rect.centre());
}

}  // namespace vkc
