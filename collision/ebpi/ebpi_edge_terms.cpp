#include "collision/ebpi/ebpi_edge_terms.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace vkc {
namespace {

struct FaceGeometry {
    bool steep = false;
    glm::dvec2 depthGradient{0};  // dz/dx, dz/dy of the face's plane; zero when steep
};

FaceGeometry faceGeometry(const EbpiRayMesh& mesh, size_t triangle) {
    const glm::dvec3& p0 = mesh.positions[mesh.indices[3 * triangle]];
    const glm::dvec3 n = glm::cross(mesh.positions[mesh.indices[3 * triangle + 1]] - p0,
                                    mesh.positions[mesh.indices[3 * triangle + 2]] - p0);
    if (n.z == 0.0) return {true, glm::dvec2(0)};
    return {false, glm::dvec2(-n.x / n.z, -n.y / n.z)};
}

uint64_t edgeKey(uint32_t a, uint32_t b) { return (uint64_t(std::min(a, b)) << 32) | std::max(a, b); }

// The two triangles of each edge, keyed by its vertex pair.
std::unordered_map<uint64_t, std::vector<uint32_t>> edgeTriangles(const EbpiRayMesh& mesh) {
    std::unordered_map<uint64_t, std::vector<uint32_t>> edges;
    for (uint32_t t = 0; t < mesh.triangleCount(); ++t)
        for (int k = 0; k < 3; ++k)
            edges[edgeKey(mesh.indices[3 * t + k], mesh.indices[3 * t + (k + 1) % 3])].push_back(t);
    return edges;
}

uint32_t findRoot(std::vector<uint32_t>& parent, uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

// Depth range [min z, max z] of each triangle's steep wall: the steep triangles joined through
// edges between two steep triangles. Non-steep triangles keep an empty range.
std::vector<glm::dvec2> steepWallDepthRanges(const EbpiRayMesh& mesh, const std::vector<FaceGeometry>& faces,
                                             const std::unordered_map<uint64_t, std::vector<uint32_t>>& edges) {
    std::vector<uint32_t> parent(faces.size());
    std::iota(parent.begin(), parent.end(), 0u);
    for (const auto& [key, tris] : edges)
        if (tris.size() == 2 && faces[tris[0]].steep && faces[tris[1]].steep)
            parent[findRoot(parent, tris[0])] = findRoot(parent, tris[1]);
    constexpr double inf = std::numeric_limits<double>::infinity();
    std::vector<glm::dvec2> rootRange(faces.size(), glm::dvec2(inf, -inf));
    for (uint32_t t = 0; t < faces.size(); ++t) {
        if (!faces[t].steep) continue;
        glm::dvec2& range = rootRange[findRoot(parent, t)];
        for (int k = 0; k < 3; ++k) {
            const double z = mesh.positions[mesh.indices[3 * t + k]].z;
            range = glm::dvec2(std::min(range.x, z), std::max(range.y, z));
        }
    }
    std::vector<glm::dvec2> ranges(faces.size(), glm::dvec2(inf, -inf));
    for (uint32_t t = 0; t < faces.size(); ++t)
        if (faces[t].steep) ranges[t] = rootRange[findRoot(parent, t)];
    return ranges;
}

// A steep wall beside face `other`: the jump of f counted from the wall's mid-depth (d / 2) over
// half the tile, plus face `other`'s slope over at most the tile's extent w + h.
EbpiBoundPolynomial steepWallBound(const glm::dvec2& wallDepthRange, const glm::dvec2& otherGradient) {
    EbpiBoundPolynomial bound;
    const double slope = glm::length(otherGradient);
    bound.wh = (wallDepthRange.y - wallDepthRange.x) / 4;
    bound.w2h = slope / 2;
    bound.wh2 = slope / 2;
    return bound;
}

}  // namespace

EbpiBoundPolynomial ebpiCreaseBound(const glm::dvec2& gradientJump) {
    const double kx = std::abs(gradientJump.x);
    const double ky = std::abs(gradientJump.y);
    EbpiBoundPolynomial bound;
    if (kx == 0 && ky == 0) return bound;
    // (1/2) integral of |kx x + ky y| over [-w/2, w/2] x [-h/2, h/2], integrating x first (case 1:
    // the edge is nearer the y axis) or y first (case 2).
    if (kx >= ky) {
        bound.w2h = kx / 8;
        bound.h3 = ky * ky / (24 * kx);
    } else {
        bound.wh2 = ky / 8;
        bound.w3 = kx * kx / (24 * ky);
    }
    return bound;
}

std::vector<EbpiEdgeTerm> ebpiEdgeTerms(const EbpiRayMesh& mesh) {
    std::vector<FaceGeometry> faces;
    faces.reserve(mesh.triangleCount());
    for (size_t t = 0; t < mesh.triangleCount(); ++t) faces.push_back(faceGeometry(mesh, t));
    const auto edges = edgeTriangles(mesh);
    const std::vector<glm::dvec2> wallRanges = steepWallDepthRanges(mesh, faces, edges);

    std::vector<EbpiEdgeTerm> terms;
    for (const auto& [key, tris] : edges) {
        if (tris.size() != 2) continue;  // not closed: outside the contract
        const FaceGeometry& fi = faces[tris[0]];
        const FaceGeometry& fj = faces[tris[1]];
        if (fi.steep && fj.steep) continue;  // projects into the wall's segment: f does not change
        EbpiEdgeTerm term;
        const glm::dvec3& a = mesh.positions[uint32_t(key >> 32)];
        const glm::dvec3& b = mesh.positions[uint32_t(key & 0xffffffffu)];
        term.a = glm::dvec2(a);
        term.b = glm::dvec2(b);
        if (fi.steep)
            term.bound = steepWallBound(wallRanges[tris[0]], fj.depthGradient);
        else if (fj.steep)
            term.bound = steepWallBound(wallRanges[tris[1]], fi.depthGradient);
        else
            term.bound = ebpiCreaseBound(fi.depthGradient - fj.depthGradient);
        if (term.bound.evaluate(1, 1) > 0) terms.push_back(term);
    }
    return terms;
}

}  // namespace vkc
