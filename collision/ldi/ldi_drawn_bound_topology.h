// Method `ldi`: what ldi_drawn_bound.comp needs of the meshes' topology besides their triangles,
// for the tube bound it states (the shader's header): per triangle side, the vertex across it in
// the edge's other triangle (the edge's dihedral angle), and per corner, how many triangles hold
// its vertex (they share its term). Laid out as SceneIndexCache's indices, built once per scene
// topology, uploaded into the slot's persistent buffers when they do not hold it.
#pragma once

#include "collision/frames/vulkan_graph.h"
#include "collision/scene/scene_impl.h"

#include <cstdint>
#include <span>
#include <vector>

namespace vkc {

// One mesh's, per index position 3t + k.
struct LdiMeshSides {
    // The vertex of the other triangle on side k (corners k, k + 1) of triangle t; gpu::kLdiNoVertexAcross
    // when that edge is not in exactly two triangles (or the other one repeats a vertex).
    std::vector<uint32_t> across;
    std::vector<uint8_t> valence;  // triangles holding corner k's vertex, at most 255 (a share never too small)
};
LdiMeshSides ldiMeshSides(std::span<const uint32_t> indices);

struct LdiDrawnBoundTopology {
    std::vector<uint32_t> across;    // every mesh's LdiMeshSides::across, one after another
    std::vector<uint32_t> valences;  // every mesh's valences likewise, four bytes per uint (little end first)
    SceneTopologyKey key;            // what the vectors were built for
    SceneTopologyKey uploaded;       // what the slot's buffers hold
};

struct LdiDrawnBoundTopologyBuffers {
    BufferHandle across, valences;
};

// Rebuilds `topology` on the CPU unless it holds `scene`'s already.
void ensureLdiDrawnBoundTopology(LdiDrawnBoundTopology& topology, const SceneImpl& scene);

// The slot's persistent buffers in `graph`.
LdiDrawnBoundTopologyBuffers declareLdiDrawnBoundTopology(Graph& graph, const LdiDrawnBoundTopology& topology);

// After compile: fills the buffers unless they hold the topology already.
Status uploadLdiDrawnBoundTopology(VulkanGraphAllocator& allocator, const Graph& graph,
                                   const LdiDrawnBoundTopologyBuffers& buffers, LdiDrawnBoundTopology& topology);

}  // namespace vkc
