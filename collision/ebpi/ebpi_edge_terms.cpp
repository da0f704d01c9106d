#include "collision/ebpi/ebpi_edge_terms.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

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

uint32_t findRoot(std::vector<uint32_t>& parent, uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

constexpr double kInf = std::numeric_limits<double>::infinity();

// Depth range [min z, max z] of each triangle's steep wall: the steep triangles joined through
// edges between two steep triangles. Non-steep triangles keep an empty range.
std::vector<glm::dvec2> steepWallDepthRanges(const EbpiRayMesh& mesh, const std::vector<FaceGeometry>& faces,
                                             const std::vector<EbpiMeshEdge>& edges) {
    std::vector<uint32_t> parent(faces.size());
    std::iota(parent.begin(), parent.end(), 0u);
    for (const EbpiMeshEdge& edge : edges)
        if (faces[edge.triangles[0]].steep && faces[edge.triangles[1]].steep)
            parent[findRoot(parent, edge.triangles[0])] = findRoot(parent, edge.triangles[1]);
    std::vector<glm::dvec2> rootRange(faces.size(), glm::dvec2(kInf, -kInf));
    for (uint32_t t = 0; t < faces.size(); ++t) {
        if (!faces[t].steep) continue;
        glm::dvec2& range = rootRange[findRoot(parent, t)];
        for (int k = 0; k < 3; ++k) {
            const double z = mesh.positions[mesh.indices[3 * t + k]].z;
            range = glm::dvec2(std::min(range.x, z), std::max(range.y, z));
        }
    }
    std::vector<glm::dvec2> ranges(faces.size(), glm::dvec2(kInf, -kInf));
    for (uint32_t t = 0; t < faces.size(); ++t)
        if (faces[t].steep) ranges[t] = rootRange[findRoot(parent, t)];
    return ranges;
}

// Every steep triangle gets the mesh's whole depth extent [min z, max z] over its positions.
std::vector<glm::dvec2> meshDepthExtentRanges(const EbpiRayMesh& mesh, const std::vector<FaceGeometry>& faces) {
    glm::dvec2 extent(kInf, -kInf);
    for (const glm::dvec3& p : mesh.positions) extent = glm::dvec2(std::min(extent.x, p.z), std::max(extent.y, p.z));
    std::vector<glm::dvec2> ranges(faces.size(), glm::dvec2(kInf, -kInf));
    for (uint32_t t = 0; t < faces.size(); ++t)
        if (faces[t].steep) ranges[t] = extent;
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

bool ebpiSegmentMeetsRegion(const glm::dvec3& a, const glm::dvec3& b, const EbpiEdgeRegion& region) {
    const glm::dvec3* rows = region.rotation.rows;
    double enter = 0.0, leave = 1.0;
    for (int k = 0; k < 3; ++k) {
        const double sa = (rows[0][k] * a.x + rows[1][k] * a.y) + rows[2][k] * a.z;
        const double sb = (rows[0][k] * b.x + rows[1][k] * b.y) + rows[2][k] * b.z;
        const double d = sb - sa;
        if (d == 0.0) {
            if (sa < region.lo[k] || sa > region.hi[k]) return false;
            continue;
        }
        const double tLo = (region.lo[k] - sa) / d, tHi = (region.hi[k] - sa) / d;
        enter = std::max(enter, std::min(tLo, tHi));
        leave = std::min(leave, std::max(tLo, tHi));
    }
    return enter <= leave;
}

std::vector<EbpiEdgeTerm> ebpiEdgeTerms(const EbpiRayMesh& mesh, EbpiSteepWallDepth wallDepth,
                                        const EbpiEdgeRegion& region) {
    std::vector<FaceGeometry> faces;
    faces.reserve(mesh.triangleCount());
    for (size_t t = 0; t < mesh.triangleCount(); ++t) faces.push_back(faceGeometry(mesh, t));
    const std::vector<EbpiMeshEdge> edges = ebpiMeshEdges(mesh.indices).edges;  // not closed: outside the contract
    const std::vector<glm::dvec2> wallRanges = wallDepth == EbpiSteepWallDepth::ConnectedWall
                                                   ? steepWallDepthRanges(mesh, faces, edges)
                                                   : meshDepthExtentRanges(mesh, faces);

    std::vector<EbpiEdgeTerm> terms;
    for (const EbpiMeshEdge& edge : edges) {
        const FaceGeometry& fi = faces[edge.triangles[0]];
        const FaceGeometry& fj = faces[edge.triangles[1]];
        if (fi.steep && fj.steep) continue;  // projects into the wall's segment: f does not change
        const glm::dvec3& a = mesh.positions[edge.a];
        const glm::dvec3& b = mesh.positions[edge.b];
        if (!fi.steep && !fj.steep && !ebpiSegmentMeetsRegion(a, b, region)) continue;
        EbpiEdgeTerm term;
        term.a = glm::dvec2(a);
        term.b = glm::dvec2(b);
        if (fi.steep)
            term.bound = steepWallBound(wallRanges[edge.triangles[0]], fj.depthGradient);
        else if (fj.steep)
            term.bound = steepWallBound(wallRanges[edge.triangles[1]], fi.depthGradient);
        else
            term.bound = ebpiCreaseBound(fi.depthGradient - fj.depthGradient);
        if (term.bound.evaluate(1, 1) > 0) terms.push_back(term);
    }
    return terms;
}

}  // namespace vkc
