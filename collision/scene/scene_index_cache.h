// Per-slot cache of every mesh's triangle indices, laid out for one index buffer, rebuilt when the
// scene's topology (SceneImpl::topologyKey) changes. The buffer is the slot graph's persistent
// "triangle indices" buffer, uploaded again only when it no longer holds the cached scene.
#pragma once

#include "collision/frames/vulkan_graph.h"
#include "collision/scene/scene_impl.h"

#include <vector>

namespace vkc {

struct SceneIndexCache {
    std::vector<uint32_t> indices;     // every mesh's indices, one after another
    std::vector<uint32_t> firstIndex;  // per mesh
    SceneTopologyKey key;              // what `indices` was built for
    SceneTopologyKey uploaded;         // what the slot's buffer holds
};

// Rebuilds `cache` on the CPU unless it holds `scene`'s topology already.
void ensureSceneIndices(SceneIndexCache& cache, const SceneImpl& scene);

// The slot's index buffer in `graph`, named "<method> triangle indices".
BufferHandle declareSceneIndices(Graph& graph, const SceneIndexCache& cache, const std::string& method);

// After compile: fills the buffer unless it holds the cache's scene already.
Status uploadSceneIndices(VulkanGraphAllocator& allocator, const Graph& graph, BufferHandle buffer,
                          SceneIndexCache& cache);

}  // namespace vkc
