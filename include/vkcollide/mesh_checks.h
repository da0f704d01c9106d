// Mesh checks: one pass over a MeshData that counts every problem a collision method may care
// about (indices, NaN/Inf, degenerate triangles, holes, non-manifold or flipped edges, soups), and
// helpers that turn a report into a Status naming the mesh, so that each method declares what it
// needs (closed solids for the image-space and volume methods; finite, in-range data for the rest).
#pragma once

#include "vkcollide/mesh.h"
#include "vkcollide/status.h"

#include <glm/vec3.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vkc {

// The largest |coordinate| a mesh may have, in its own units. Beyond it float positions are more
// than 8 apart and the methods' float squares and cubes (areas, volumes, depth products) approach
// float's range (issue 15: 3e38 passed the checks and the image-space methods answered "no pair").
inline constexpr double kMaxMeshCoordinate = 1e8;

// Everything checkMesh() found. Counts are exact; "first*" fields locate one example for messages
// and are kNone when the count is zero. Topology (edges, components, volume) is computed over
// the usable triangles only: all three indices in range and pairwise distinct.
struct MeshCheckReport {
    static constexpr size_t kNone = ~size_t(0);

    size_t vertexCount = 0;
    size_t triangleCount = 0;            // indices.size() / 3
    size_t trailingIndices = 0;          // indices.size() % 3: a truncated last triangle

    size_t outOfRangeIndices = 0;        // indices >= vertexCount
    size_t firstOutOfRangeTriangle = kNone;
    uint32_t firstOutOfRangeIndex = 0;   // the offending index value in that triangle

    size_t nonFiniteVertices = 0;        // a NaN or Inf coordinate
    size_t firstNonFiniteVertex = kNone;
    size_t outOfRangeVertices = 0;       // finite, but a |coordinate| above kMaxMeshCoordinate
    size_t firstOutOfRangeVertex = kNone;

    size_t repeatedIndexTriangles = 0;   // two corners name the same vertex: (a, a, b)
    size_t zeroAreaTriangles = 0;        // distinct indices but collinear/coincident positions
    size_t firstDegenerateTriangle = kNone;

    size_t unreferencedVertices = 0;     // no triangle uses them; harmless, but hints at a bad export
    size_t firstUnreferencedVertex = kNone;

    size_t boundaryEdges = 0;            // used by exactly one triangle: the mesh is open
    size_t nonManifoldEdges = 0;         // used by more than two triangles
    size_t inconsistentEdges = 0;        // used by two triangles in the same direction (one is flipped)
    size_t nonManifoldVertices = 0;      // triangles around the vertex form several fans (a "bow tie")

    size_t components = 0;               // sets of triangles connected through shared vertex indices
    size_t duplicatePositionVertices = 0; // vertices whose exact position an earlier vertex has
    bool triangleSoup = false;           // >1 triangle and no two triangles share a vertex index

    // Sum of signed tetrahedron volumes (origin, a, b, c) in the mesh's units, in double. It is
    // the enclosed volume only when closed() and oriented(); positive means outward-facing.
    double signedVolume = 0.0;
    glm::vec3 boundsMin{0.0f};           // over finite, referenced vertices
    glm::vec3 boundsMax{0.0f};

    size_t degenerateTriangles() const { return repeatedIndexTriangles + zeroAreaTriangles; }
    bool empty() const { return triangleCount == 0; }
    bool indicesInRange() const { return outOfRangeIndices == 0 && trailingIndices == 0; }
    bool finite() const { return nonFiniteVertices == 0; }
    bool coordinatesInRange() const { return outOfRangeVertices == 0; }
    bool closed() const { return boundaryEdges == 0 && !empty(); }
    bool edgeManifold() const { return nonManifoldEdges == 0; }
    // Manifold (with boundary): every edge has at most two triangles and the triangles around
    // every vertex form one fan. This is the meshes README's "manifold" column.
    bool manifold() const { return nonManifoldEdges == 0 && nonManifoldVertices == 0; }
    bool oriented() const { return inconsistentEdges == 0; }
    // Closed and oriented but enclosing negative volume: every triangle faces inward.
    bool insideOut() const { return closed() && oriented() && signedVolume < 0.0; }

    // Stencil, LDI, consistent pairs and EBPI count front/back faces along rays or compute volumes:
    // they need a closed, manifold, consistently and outward oriented, finite mesh.
    bool validForVolumeMethods() const {
        return validForObjectSpaceMethods() && closed() && manifold() && oriented() && !insideOut();
    }
    // The AABB tree and the exact oracle test triangles against triangles: open meshes and soups
    // are fine, but every index must be in range and every coordinate finite and within range.
    bool validForObjectSpaceMethods() const {
        return !empty() && indicesInRange() && finite() && coordinatesInRange();
    }

    // Every problem and hint, one human-readable line each; empty when the mesh is a clean solid.
    std::vector<std::string> describe() const;
};

// Checks `mesh` in O(n log n); about a second for 1.4M triangles. Never fails: bad data is counted.
MeshCheckReport checkMesh(const MeshData& mesh);

// What a method needs of a mesh. Non-empty, in-range indices and finite coordinates within
// kMaxMeshCoordinate are always required; the flags add the topological requirements.
struct MeshRequirements {
    bool closed = false;
    bool manifold = false;   // edge- and vertex-manifold
    bool oriented = false;   // consistently oriented
    bool outward = false;    // not inside out (needs closed + oriented to be decided)
};
inline constexpr MeshRequirements kObjectSpaceMethodRequirements{};
inline constexpr MeshRequirements kVolumeMethodRequirements{true, true, true, true};

// Ok when `report` meets `needs`; otherwise ErrorCode::InvalidMesh with one message listing every
// unmet requirement, e.g.
//   mesh "teapot": open (312 boundary edges), not edge-manifold (4 edges shared by more than two triangles)
Status requireMesh(const MeshCheckReport& report, const MeshRequirements& needs, std::string_view meshName);

Status requireClosed(const MeshCheckReport& report, std::string_view meshName);
Status requireVolumeMethods(const MeshCheckReport& report, std::string_view meshName);
Status requireObjectSpaceMethods(const MeshCheckReport& report, std::string_view meshName);

}  // namespace vkc
