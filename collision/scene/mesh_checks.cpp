// checkMesh(): counts bad indices, NaN/Inf, degenerate triangles and the edge topology of a mesh
// (boundary, non-manifold and flipped edges, bow-tie vertices, components, soups) in one pass plus
// one sort of the directed edges; requireMesh() turns the counts into a message naming the mesh.
#include "vkcollide/mesh_checks.h"

#include "collision/frames/format_number.h"

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace vkc {
namespace {

// One directed use of an undirected edge. Sorting by key groups all uses of an edge without a
// hash map; 16 bytes a use keeps 1.4M triangles (4.2M uses) at ~66 MB and one std::sort.
struct EdgeUse {
    uint64_t key;       // (min vertex << 32) | max vertex
    uint32_t triangle;
    uint32_t forward;   // 1 when the triangle walks the edge from the smaller to the larger index
};

// Union-find with path halving; roots are the smallest index of their set, so results are stable.
class DisjointSets {
public:
    explicit DisjointSets(size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), uint32_t(0)); }
    uint32_t find(uint32_t x) {
        while (parent_[x] != x) {
            parent_[x] = parent_[parent_[x]];
            x = parent_[x];
        }
        return x;
    }
    void unite(uint32_t a, uint32_t b) {
        a = find(a);
        b = find(b);
        if (a == b) return;
        if (a < b) std::swap(a, b);
        parent_[a] = b;
    }

private:
    std::vector<uint32_t> parent_;
};

bool isFinite(const glm::vec3& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); }

bool inRange(const glm::vec3& p) {
    return std::abs(p.x) <= kMaxMeshCoordinate && std::abs(p.y) <= kMaxMeshCoordinate &&
           std::abs(p.z) <= kMaxMeshCoordinate;
}

// The corner of triangle t that holds vertex v (v must be one of its corners).
uint32_t cornerOf(const std::vector<uint32_t>& indices, uint32_t t, uint32_t v) {
    const uint32_t base = 3 * t;
    return indices[base] == v ? base : (indices[base + 1] == v ? base + 1 : base + 2);
}

std::string count(size_t n, const char* singular, const char* plural) {
    return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

std::string outOfRangeVertices(const MeshCheckReport& r) {
    return count(r.outOfRangeVertices, "vertex", "vertices") + " beyond the supported " +
           formatNumber(kMaxMeshCoordinate) + " per coordinate (first: vertex " + std::to_string(r.firstOutOfRangeVertex) +
           ")";
}

}  // namespace

MeshCheckReport checkMesh(const MeshData& mesh) {
    MeshCheckReport r;
    const std::vector<glm::vec3>& positions = mesh.positions;
    const std::vector<uint32_t>& indices = mesh.indices;
    const size_t vertexCount = positions.size();
    r.vertexCount = vertexCount;
    r.triangleCount = indices.size() / 3;
    r.trailingIndices = indices.size() % 3;

    for (size_t v = 0; v < vertexCount; ++v) {
        if (!isFinite(positions[v])) {
            if (r.nonFiniteVertices++ == 0) r.firstNonFiniteVertex = v;
        } else if (!inRange(positions[v])) {
            if (r.outOfRangeVertices++ == 0) r.firstOutOfRangeVertex = v;
        }
    }

    // Per-triangle pass: ranges, degeneracy, references, volume, and the directed edge list.
    std::vector<uint32_t> references(vertexCount, 0);
    std::vector<EdgeUse> edges;
    edges.reserve(r.triangleCount * 3);
    std::vector<uint8_t> usable(r.triangleCount, 0);
    DisjointSets vertexSets(vertexCount);
    double volume6 = 0.0;
    for (size_t t = 0; t < r.triangleCount; ++t) {
        const uint32_t corner[3] = {indices[3 * t], indices[3 * t + 1], indices[3 * t + 2]};
        bool inRange = true;
        for (uint32_t index : corner) {
            if (index >= vertexCount) {
                if (r.outOfRangeIndices++ == 0) {
                    r.firstOutOfRangeTriangle = t;
                    r.firstOutOfRangeIndex = index;
                }
                inRange = false;
            }
        }
        if (!inRange) continue;
        for (uint32_t index : corner) ++references[index];
        vertexSets.unite(corner[0], corner[1]);
        vertexSets.unite(corner[1], corner[2]);
        if (corner[0] == corner[1] || corner[1] == corner[2] || corner[0] == corner[2]) {
            ++r.repeatedIndexTriangles;
            if (r.firstDegenerateTriangle == MeshCheckReport::kNone) r.firstDegenerateTriangle = t;
            continue;
        }
        usable[t] = 1;
        // Differences of floats are exact in double, so a zero cross product means truly collinear.
        const glm::dvec3 a(positions[corner[0]]), b(positions[corner[1]]), c(positions[corner[2]]);
        const glm::dvec3 n = glm::cross(b - a, c - a);
        if (n.x == 0.0 && n.y == 0.0 && n.z == 0.0) {
            ++r.zeroAreaTriangles;
            if (r.firstDegenerateTriangle == MeshCheckReport::kNone) r.firstDegenerateTriangle = t;
        }
        volume6 += glm::dot(a, glm::cross(b, c));
        for (int k = 0; k < 3; ++k) {
            const uint32_t from = corner[k], to = corner[(k + 1) % 3];
            const uint32_t lo = std::min(from, to), hi = std::max(from, to);
            edges.push_back({(uint64_t(lo) << 32) | hi, uint32_t(t), from < to ? 1u : 0u});
        }
    }
    r.signedVolume = volume6 / 6.0;

    // References: unreferenced vertices, soups, components, bounds.
    bool anyBounds = false;
    uint32_t maxReferences = 0;
    for (size_t v = 0; v < vertexCount; ++v) {
        if (references[v] == 0) {
            if (r.unreferencedVertices++ == 0) r.firstUnreferencedVertex = v;
            continue;
        }
        maxReferences = std::max(maxReferences, references[v]);
        if (vertexSets.find(uint32_t(v)) == v) ++r.components;
        if (!isFinite(positions[v])) continue;
        r.boundsMin = anyBounds ? glm::min(r.boundsMin, positions[v]) : positions[v];
        r.boundsMax = anyBounds ? glm::max(r.boundsMax, positions[v]) : positions[v];
        anyBounds = true;
    }
    r.triangleSoup = r.triangleCount > 1 && maxReferences == 1;

    // Edges: group the uses of each undirected edge. Corners of one vertex in two triangles that
    // share an edge through it belong to the same fan; a vertex with several fans is a bow tie.
    std::sort(edges.begin(), edges.end(), [](const EdgeUse& x, const EdgeUse& y) { return x.key < y.key; });
    DisjointSets cornerSets(indices.size() - r.trailingIndices);
    for (size_t begin = 0; begin < edges.size();) {
        size_t end = begin + 1;
        while (end < edges.size() && edges[end].key == edges[begin].key) ++end;
        const size_t uses = end - begin;
        if (uses == 1) {
            ++r.boundaryEdges;
        } else if (uses > 2) {
            ++r.nonManifoldEdges;
        } else if (edges[begin].forward == edges[begin + 1].forward) {
            ++r.inconsistentEdges;
        }
        const uint32_t lo = uint32_t(edges[begin].key >> 32), hi = uint32_t(edges[begin].key);
        const uint32_t t0 = edges[begin].triangle;
        for (size_t i = begin + 1; i < end; ++i) {
            const uint32_t ti = edges[i].triangle;
            cornerSets.unite(cornerOf(indices, t0, lo), cornerOf(indices, ti, lo));
            cornerSets.unite(cornerOf(indices, t0, hi), cornerOf(indices, ti, hi));
        }
        begin = end;
    }
    std::vector<uint32_t> fans(vertexCount, 0);
    for (size_t t = 0; t < r.triangleCount; ++t) {
        if (!usable[t]) continue;
        for (uint32_t c = uint32_t(3 * t); c < 3 * t + 3; ++c) {
            if (cornerSets.find(c) == c && ++fans[indices[c]] == 2) ++r.nonManifoldVertices;
        }
    }

    // Exact duplicate positions (finite vertices only), the usual sign of an unwelded export.
    std::vector<uint32_t> order;
    order.reserve(vertexCount);
    for (size_t v = 0; v < vertexCount; ++v) {
        if (isFinite(positions[v])) order.push_back(uint32_t(v));
    }
    auto less = [&](uint32_t x, uint32_t y) {
        const glm::vec3 &p = positions[x], &q = positions[y];
        return p.x != q.x ? p.x < q.x : (p.y != q.y ? p.y < q.y : p.z < q.z);
    };
    std::sort(order.begin(), order.end(), less);
    for (size_t i = 1; i < order.size(); ++i) {
        if (positions[order[i]] == positions[order[i - 1]]) ++r.duplicatePositionVertices;
    }
    return r;
}

std::vector<std::string> MeshCheckReport::describe() const {
    std::vector<std::string> lines;
    if (empty()) lines.push_back("empty: no triangles");
    if (trailingIndices != 0)
        lines.push_back(count(trailingIndices, "trailing index", "trailing indices") +
                        " (index count is not a multiple of 3)");
    if (outOfRangeIndices != 0)
        lines.push_back(count(outOfRangeIndices, "index", "indices") + " out of range (first: triangle " +
                        std::to_string(firstOutOfRangeTriangle) + " has index " +
                        std::to_string(firstOutOfRangeIndex) + ", vertex count " + std::to_string(vertexCount) + ")");
    if (nonFiniteVertices != 0)
        lines.push_back(count(nonFiniteVertices, "vertex has", "vertices have") +
                        " NaN or Inf coordinates (first: vertex " + std::to_string(firstNonFiniteVertex) + ")");
    if (outOfRangeVertices != 0) lines.push_back(vkc::outOfRangeVertices(*this));
    if (boundaryEdges != 0)
        lines.push_back("open: " + count(boundaryEdges, "boundary edge", "boundary edges") +
                        " (used by only one triangle)");
    if (nonManifoldEdges != 0)
        lines.push_back("not edge-manifold: " + count(nonManifoldEdges, "edge", "edges") +
                        " shared by more than two triangles");
    if (inconsistentEdges != 0)
        lines.push_back("inconsistently oriented: " + count(inconsistentEdges, "edge", "edges") +
                        " used twice in the same direction (a neighbouring triangle is flipped)");
    if (insideOut())
        lines.push_back("inside out: signed volume " + formatNumber(signedVolume) + " < 0 (triangles face inward)");
    if (degenerateTriangles() != 0)
        lines.push_back(count(degenerateTriangles(), "degenerate triangle", "degenerate triangles") + " (" +
                        std::to_string(repeatedIndexTriangles) + " with a repeated vertex index, " +
                        std::to_string(zeroAreaTriangles) + " with zero area; first: triangle " +
                        std::to_string(firstDegenerateTriangle) + ")");
    if (nonManifoldVertices != 0)
        lines.push_back(count(nonManifoldVertices, "non-manifold vertex", "non-manifold vertices") +
                        " (the triangles around each form several separate fans)");
    if (unreferencedVertices != 0)
        lines.push_back(count(unreferencedVertices, "unreferenced vertex", "unreferenced vertices") +
                        " (first: vertex " + std::to_string(firstUnreferencedVertex) + ")");
    if (triangleSoup) {
        lines.push_back("triangle soup: no triangle shares a vertex index with another (" +
                        count(duplicatePositionVertices, "vertex repeats", "vertices repeat") +
                        " an earlier position; welding them would connect the triangles)");
    } else if (duplicatePositionVertices != 0) {
        lines.push_back(count(duplicatePositionVertices, "vertex repeats", "vertices repeat") +
                        " the exact position of an earlier vertex (not welded)");
    }
    return lines;
}

Status requireMesh(const MeshCheckReport& report, const MeshRequirements& needs, std::string_view meshName) {
    std::vector<std::string> unmet;
    if (report.empty()) unmet.push_back("empty (no triangles)");
    if (report.trailingIndices != 0)
        unmet.push_back("index count " + std::to_string(report.triangleCount * 3 + report.trailingIndices) +
                        " is not a multiple of 3");
    if (report.outOfRangeIndices != 0)
        unmet.push_back(count(report.outOfRangeIndices, "index", "indices") + " out of range (first: triangle " +
                        std::to_string(report.firstOutOfRangeTriangle) + " has index " +
                        std::to_string(report.firstOutOfRangeIndex) + " >= vertex count " +
                        std::to_string(report.vertexCount) + ")");
    if (report.nonFiniteVertices != 0)
        unmet.push_back("NaN or Inf coordinates in " +
                        count(report.nonFiniteVertices, "vertex", "vertices") + " (first: vertex " +
                        std::to_string(report.firstNonFiniteVertex) + ")");
    if (report.outOfRangeVertices != 0) unmet.push_back(outOfRangeVertices(report));
    if (needs.closed && report.boundaryEdges != 0)
        unmet.push_back("open (" + count(report.boundaryEdges, "boundary edge", "boundary edges") + ")");
    if (needs.manifold && report.nonManifoldEdges != 0)
        unmet.push_back("not edge-manifold (" + count(report.nonManifoldEdges, "edge", "edges") +
                        " shared by more than two triangles)");
    if (needs.manifold && report.nonManifoldVertices != 0)
        unmet.push_back("not vertex-manifold (" + count(report.nonManifoldVertices, "vertex", "vertices") +
                        " where separate fans of triangles meet)");
    if (needs.oriented && report.inconsistentEdges != 0)
        unmet.push_back("inconsistently oriented (" + count(report.inconsistentEdges, "edge", "edges") +
                        " used twice in the same direction)");
    if (needs.outward && report.insideOut())
        unmet.push_back("inside out (signed volume " + formatNumber(report.signedVolume) + ")");
    if (unmet.empty()) return Status::success();

    std::string message = "mesh \"" + std::string(meshName) + "\": ";
    for (size_t i = 0; i < unmet.size(); ++i) message += (i ? ", " : "") + unmet[i];
    if (needs.closed && report.triangleSoup && report.boundaryEdges != 0)
        message += "; triangle soup: no triangle shares a vertex index with another (weld duplicate vertices)";
    return makeError(ErrorCode::InvalidMesh, std::move(message));
}

Status requireClosed(const MeshCheckReport& report, std::string_view meshName) {
    MeshRequirements needs;
    needs.closed = true;
    return requireMesh(report, needs, meshName);
}

Status requireVolumeMethods(const MeshCheckReport& report, std::string_view meshName) {
    return requireMesh(report, kVolumeMethodRequirements, meshName);
}

Status requireObjectSpaceMethods(const MeshCheckReport& report, std::string_view meshName) {
    return requireMesh(report, kObjectSpaceMethodRequirements, meshName);
}

}  // namespace vkc
