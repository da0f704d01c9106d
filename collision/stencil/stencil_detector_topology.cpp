// Per-mesh topology for the stencil method (built once per mesh, on the CPU): unique edges from
// the index buffer (paper 1 draws every edge once in pass 1) and the vertex -> triangle adjacency
// that stencil_normals.comp walks to recompute vertex normals every frame.
#include "collision/stencil/stencil_detector_internal.h"

#include <algorithm>

namespace vkc {

StencilTopology buildStencilTopology(std::span<const MeshData* const> meshes) {
    StencilTopology topology;
    for (const MeshData* mesh : meshes) {
        const std::vector<uint32_t>& indices = mesh->indices;
        const uint32_t vertexCount = uint32_t(mesh->positions.size());
        const uint32_t triangleCount = uint32_t(indices.size() / 3);
        StencilMeshRange range;
        gpu::StencilNormalsPush normals = {};

        range.triangleFirst = uint32_t(topology.data.size());
        range.triangleCount = triangleCount * 3;
        normals.triangleBase = range.triangleFirst;
        topology.data.insert(topology.data.end(), indices.begin(), indices.begin() + triangleCount * 3);

        std::vector<uint64_t> edges;
        edges.reserve(triangleCount * 3);
        for (uint32_t t = 0; t < triangleCount; ++t)
            for (uint32_t k = 0; k < 3; ++k) {
                uint32_t a = indices[t * 3 + k], b = indices[t * 3 + (k + 1) % 3];
                if (a == b) continue;  // a repeated index is no edge
                edges.push_back(uint64_t(std::min(a, b)) << 32 | std::max(a, b));
            }
        std::sort(edges.begin(), edges.end());
        edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
        range.edgeFirst = uint32_t(topology.data.size());
        range.edgeCount = uint32_t(edges.size() * 2);
        for (uint64_t edge : edges) {
            topology.data.push_back(uint32_t(edge >> 32));
            topology.data.push_back(uint32_t(edge));
        }

        // CSR: offsets (vertexCount + 1), then the triangles around each vertex.
        std::vector<uint32_t> offsets(vertexCount + 1, 0);
        for (uint32_t i = 0; i < triangleCount * 3; ++i) ++offsets[indices[i] + 1];
        for (uint32_t v = 0; v < vertexCount; ++v) offsets[v + 1] += offsets[v];
        std::vector<uint32_t> list(offsets[vertexCount]);
        std::vector<uint32_t> cursor(offsets.begin(), offsets.end() - 1);
        for (uint32_t i = 0; i < triangleCount * 3; ++i) list[cursor[indices[i]]++] = i / 3;
        normals.adjacencyBase = uint32_t(topology.data.size());
        topology.data.insert(topology.data.end(), offsets.begin(), offsets.end());
        normals.listBase = uint32_t(topology.data.size());
        topology.data.insert(topology.data.end(), list.begin(), list.end());

        normals.vertices.count = vertexCount;
        normals.normalBase = topology.totalVertices;
        topology.totalVertices += vertexCount;
        topology.ranges.push_back(range);
        topology.normals.push_back(normals);
    }
    return topology;
}

}  // namespace vkc
