// Topology of ldi's drawn-triangle bound; see ldi_drawn_bound_topology.h.
#include "collision/ldi/ldi_drawn_bound_topology.h"

#include "collision/ebpi/ebpi_mesh_edges.h"
#include "shaders_glsl/shared/ldi.h"

#include <algorithm>

namespace vkc {

namespace {

// Side k of triangle t holding edge (a, b), or 3 when none does.
int sideOf(std::span<const uint32_t> indices, uint32_t t, uint32_t a, uint32_t b) {
    for (int k = 0; k < 3; ++k) {
        const uint32_t p = indices[3 * t + k], q = indices[3 * t + (k + 1) % 3];
        if ((p == a && q == b) || (p == b && q == a)) return k;
    }
    return 3;
}

// The corner of triangle t that is neither a nor b, or kLdiNoVertexAcross.
uint32_t thirdVertex(std::span<const uint32_t> indices, uint32_t t, uint32_t a, uint32_t b) {
    const uint32_t* corner = &indices[3 * t];
    const int unmatched = int(corner[0] != a && corner[0] != b) + int(corner[1] != a && corner[1] != b) +
                          int(corner[2] != a && corner[2] != b);
    if (unmatched != 1) return gpu::kLdiNoVertexAcross;
    for (int c = 0; c < 3; ++c)
        if (corner[c] != a && corner[c] != b) return corner[c];
    return gpu::kLdiNoVertexAcross;
}

}  // namespace

LdiMeshSides ldiMeshSides(std::span<const uint32_t> indices) {
    LdiMeshSides sides;
    sides.across.assign(indices.size(), gpu::kLdiNoVertexAcross);
    for (const EbpiMeshEdge& edge : ebpiMeshEdges(indices).edges) {
        const uint32_t t0 = edge.triangles[0], t1 = edge.triangles[1];
        if (t0 == t1) continue;  // a triangle that holds the edge twice repeats a vertex
        for (const auto& [t, other] : {std::pair{t0, t1}, std::pair{t1, t0}}) {
            const int k = sideOf(indices, t, edge.a, edge.b);
            if (k < 3) sides.across[3 * t + k] = thirdVertex(indices, other, edge.a, edge.b);
        }
    }
    const uint32_t vertices = indices.empty() ? 0 : *std::max_element(indices.begin(), indices.end()) + 1;
    std::vector<uint32_t> triangles(vertices, 0);
    for (uint32_t v : indices) ++triangles[v];
    sides.valence.resize(indices.size());
    for (size_t i = 0; i < indices.size(); ++i) sides.valence[i] = uint8_t(std::min<uint32_t>(triangles[indices[i]], 255));
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
