// Method `ebpi` (paper 5): the edges of a closed mesh with their two triangles, the input of the
// edge terms on the CPU (ebpi_edge_terms.h) and on the GPU (built once per mesh and uploaded).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace vkc {

struct EbpiMeshEdge {
    uint32_t a = 0, b = 0;           // vertex indices, a < b
    uint32_t triangles[2] = {0, 0};  // the two triangles holding the edge, in index order
};

struct EbpiMeshEdges {
    std::vector<EbpiMeshEdge> edges;  // the edges in exactly two triangles, by (a, b)
    bool closedManifold = true;       // every edge is in exactly two triangles
};

// The edges of the triangles `indices` (three per triangle). Edges in one or more than two
// triangles are left out and clear `closedManifold`: they are outside the bound's contract.
EbpiMeshEdges ebpiMeshEdges(std::span<const uint32_t> indices);

}  // namespace vkc
