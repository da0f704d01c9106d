// Error bounds of method `ldi`: see ldi_error_bound.h.
#include "collision/ldi/ldi_error_bound.h"

#include "collision/ebpi/ebpi_edge_terms.h"
#include "collision/ebpi/ebpi_pair_views.h"
#include "collision/ebpi/ebpi_segment_pixels.h"
#include "collision/ebpi/ebpi_transient_edges.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace vkc {

namespace {

// Both meshes' area near the VoI (within d of its overlap), for the snapping term.
double areaNear(const MeshData& mesh, const glm::dmat4& m, const LdiVoi& voi, double d) {
    double area = 0.0;
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        glm::dvec3 p[3];
        for (int c = 0; c < 3; ++c) p[c] = glm::dvec3(m * glm::dvec4(glm::dvec3(mesh.positions[mesh.indices[t + c]]), 1.0));
        bool near = true;
        for (int k = 0; k < 3 && near; ++k) {
            const double lo = std::min({p[0][k], p[1][k], p[2][k]}), hi = std::max({p[0][k], p[1][k], p[2][k]});
            near = hi >= voi.overlap.min[k] - d && lo <= voi.overlap.max[k] + d;
        }
        if (near) area += 0.5 * glm::length(glm::cross(p[1] - p[0], p[2] - p[0]));
    }
    return area;
}

// Each term at the pixel's size, in every pixel its closed segment touches; a pixel's sum capped
// at its column's volume (pixel area x the VoI's depth extent). The length inside both solids
// along any column lies in [0, depth], so no pixel's midpoint error can exceed that; without the
// cap a face a rounding error away from parallel to the rays (not steep, so no steep-wall term)
// gives its edges crease terms without limit (1e10 for a ring rotated by a float quaternion).
double midpointErrorBound(const std::vector<EbpiEdgeTerm>& terms, const EbpiWindow& window, double depthExtent) {
    std::vector<double> pixelBounds(size_t(window.width) * window.height, 0.0);
    for (const EbpiEdgeTerm& term : terms) {
        const double bound = term.bound.evaluate(window.pixelSize.x, window.pixelSize.y);
        for (const glm::uvec2& pixel : ebpiPixelsTouched(term.a, term.b, window))
            pixelBounds[size_t(pixel.y) * window.width + pixel.x] += bound;
    }
    const double columnVolume = window.pixelSize.x * window.pixelSize.y * depthExtent;
    double bound = 0.0;
    for (double pixelBound : pixelBounds) bound += std::min(pixelBound, columnVolume);
    return bound;
}

}  // namespace

double ldiVolumeErrorBound(const MeshData& meshA, const glm::mat4& transformA, const MeshData& meshB,
                           const glm::mat4& transformB, const LdiVoi& voi, uint32_t resolution) {
    const uint32_t u = (voi.axis + 1) % 3, v = (voi.axis + 2) % 3;
    // The LDI's pixel grid as an EBPI window: frame x along world axis u, y along v, rays along the axis.
    EbpiRotation rotation{};
    rotation.rows[0][u] = 1.0;
    rotation.rows[1][v] = 1.0;
    rotation.rows[2][voi.axis] = 1.0;  // e_u x e_v = e_axis: right-handed, outward normals kept
    EbpiWindow window;
    window.origin = {double(voi.box.min[u]), double(voi.box.min[v])};
    window.pixelSize = voi.footprint() / double(resolution);
    window.width = window.height = resolution;
    // Only edges that meet the boxes' overlap bend the intersection's depth span (EbpiEdgeRegion),
    // grown by far more than the float boxes' rounding.
    const EbpiEdgeRegion region =
        ebpiGrownRegion(glm::dvec3(voi.overlap.min), glm::dvec3(voi.overlap.max), rotation);
    std::vector<EbpiEdgeTerm> terms;
    for (auto [mesh, transform] : {std::pair{&meshA, &transformA}, std::pair{&meshB, &transformB}}) {
        const std::vector<EbpiEdgeTerm> edges =
            ebpiEdgeTerms(toEbpiRayFrame(*mesh, *transform, rotation), EbpiSteepWallDepth::ConnectedWall, region);
        terms.insert(terms.end(), edges.begin(), edges.end());
    }
    const EbpiBox box{glm::dvec3(voi.box.min), glm::dvec3(voi.box.max)};
    const std::vector<EbpiEdgeTerm> crossings = ebpiTransientEdgeTerms(
        ebpiSurfaceCrossings(meshA, transformA, meshB, transformB, box),
        rotation);
    terms.insert(terms.end(), crossings.begin(), crossings.end());

    const double d = 2.0 / gpu::kLdiSubpixelSteps * glm::length(window.pixelSize);
    const double snapping = 2.0 * d * (areaNear(meshA, glm::dmat4(transformA), voi, d) +
                                       areaNear(meshB, glm::dmat4(transformB), voi, d));
    return midpointErrorBound(terms, window, voi.depthExtent()) + snapping;
}

LdiDrawnBoundRegion ldiDrawnBoundRegion(const LdiVoi& voi, uint32_t resolution) {
    const double d = (0.5 + 2.0 / gpu::kLdiSubpixelSteps) * glm::length(voi.footprint() / double(resolution));
    LdiDrawnBoundRegion region;
    region.origin = glm::dvec3(voi.overlap.min);
    const glm::dvec3 extent = glm::dvec3(voi.overlap.max) - region.origin;
    // The shader transforms in float into coordinates relative to `origin`, where the vertices that
    // decide a triangle's test lie within about the grown overlap: each may move by a few float
    // steps of that size, so the region grows by far more than those as well (a world position far
    // from the origin costs nothing: the float translation is small).
    const double local = glm::length(extent) + 2.0 * d;
    const double grow = d * (1.0 + 1e-6) + local * std::ldexp(1.0, -18);
    region.nearLo = glm::vec3(glm::dvec3(-grow));
    region.nearHi = glm::vec3(extent + grow);
    region.margin = float(d * (1.0 + 1e-6));  // rounded up, never below d
    return region;
}

double ldiFloatDepthErrorBound(const LdiVoi& voi, uint32_t layersA, uint32_t layersB) {
    const glm::dvec2 footprint = voi.footprint();
    return footprint.x * footprint.y * voi.depthExtent() * double(layersA + layersB) * std::ldexp(1.0, -20);
}

}  // namespace vkc
