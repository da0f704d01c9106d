// Topology of ldi's drawn-triangle bound; see ldi_drawn_bound_topology.h.
#include "collision/ldi/ldi_drawn_bound_topology.h"

#include "shaders_glsl/shared/ldi.h"

#include <algorithm>

namespace vkc {

LdiMeshSides ldiMeshSides(std::span<const uint32_t> indices) {
    // Each vertex's triangles (a counting sort): a side's other triangle holds both its vertices,
    // so it is among its first vertex's few. Linear in the triangles, where sorting the sides took
    // seconds at ten million.
    const size_t triangleCount = indices.size() / 3;
    const uint32_t vertexCount = indices.empty() ? 0 : *std::max_element(indices.begin(), indices.end()) + 1;
    std::vector<uint32_t> start(size_t(vertexCount) + 1, 0);
    for (size_t i = 0; i < 3 * triangleCount; ++i) ++start[indices[i] + 1];
    for (uint32_t v = 0; v < vertexCount; ++v) start[v + 1] += start[v];
    std::vector<uint32_t> holding(3 * triangleCount), filled(start.begin(), start.end() - 1);
    for (size_t i = 0; i < 3 * triangleCount; ++i) holding[filled[indices[i]]++] = uint32_t(i / 3);

    LdiMeshSides sides;
    sides.across.assign(indices.size(), gpu::kLdiNoVertexAcross);
    sides.valence.assign(indices.size(), 0);
    for (size_t t = 0; t < triangleCount; ++t)
        for (int k = 0; k < 3; ++k) {
            const uint32_t p = indices[3 * t + k], q = indices[3 * t + (k + 1) % 3];
            sides.valence[3 * t + k] = uint8_t(std::min<uint32_t>(start[p + 1] - start[p], 255));
            // The one other triangle of three distinct corners holding p and q, if exactly one does.
            uint32_t others = 0, third = gpu::kLdiNoVertexAcross;
            for (uint32_t h = start[p]; h < start[p + 1]; ++h) {
                const uint32_t u = holding[h];
                if (u == t || (h > start[p] && holding[h - 1] == u)) continue;  // itself, or u again (p repeated)
                const uint32_t* c = &indices[3 * size_t(u)];
                if (c[0] != q && c[1] != q && c[2] != q) continue;
                ++others;
                const bool distinct = c[0] != c[1] && c[1] != c[2] && c[0] != c[2];
                third = distinct ? c[0] ^ c[1] ^ c[2] ^ p ^ q : gpu::kLdiNoVertexAcross;
            }
            if (others == 1) sides.across[3 * t + k] = third;
        }
    return sides;
}

void ensureLdiDrawnBoundTopology(LdiDrawnBoundTopology& topology, const SceneImpl& scene) {
    if (topology.key == scene.topologyKey()) return;
    topology.across.clear();
    std::vector<uint8_t> valence;
    for (const SceneMesh& mesh : scene.meshes) {
        const LdiMeshSides sides = ldiMeshSides(mesh.data.indices);
        topology.across.insert(topology.across.end(), sides.across.begin(), sides.across.end());
        valence.insert(valence.end(), sides.valence.begin(), sides.valence.end());
    }
    topology.valences.assign((valence.size() + 3) / 4, 0u);
    for (size_t i = 0; i < valence.size(); ++i) topology.valences[i / 4] |= uint32_t(valence[i]) << (8 * (i % 4));
    topology.key = scene.topologyKey();
}

LdiDrawnBoundTopologyBuffers declareLdiDrawnBoundTopology(Graph& graph, const LdiDrawnBoundTopology& topology) {
    auto bytes = [](const std::vector<uint32_t>& v) { return std::max<VkDeviceSize>(16, v.size() * 4); };
    return {graph.persistentBuffer("ldi vertices across sides", {bytes(topology.across), 0, /*hostWrite*/ true}),
            graph.persistentBuffer("ldi corner valences", {bytes(topology.valences), 0, /*hostWrite*/ true})};
}

Status uploadLdiDrawnBoundTopology(VulkanGraphAllocator& allocator, const Graph& graph,
                                   const LdiDrawnBoundTopologyBuffers& buffers, LdiDrawnBoundTopology& topology) {
    if (topology.uploaded == topology.key && !graph.created(buffers.across) && !graph.created(buffers.valences))
        return Status::success();
    topology.uploaded = {};  // should the upload fail, the next frame tries again
    VKC_TRY(fillHostBuffer(allocator, graph, buffers.across, std::span<const uint32_t>(topology.across)));
    VKC_TRY(fillHostBuffer(allocator, graph, buffers.valences, std::span<const uint32_t>(topology.valences)));
    topology.uploaded = topology.key;
    return Status::success();
}

}  // namespace vkc
