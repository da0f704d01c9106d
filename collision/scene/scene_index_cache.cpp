// Scene topology caches; see scene_index_cache.h.
#include "collision/scene/scene_index_cache.h"

#include <algorithm>

namespace vkc {

void ensureSceneIndices(SceneIndexCache& cache, const SceneImpl& scene) {
    if (cache.key == scene.topologyKey()) return;
    cache.indices.clear();
    cache.firstIndex.clear();
    for (const SceneMesh& mesh : scene.meshes) {
        cache.firstIndex.push_back(uint32_t(cache.indices.size()));
        cache.indices.insert(cache.indices.end(), mesh.data.indices.begin(), mesh.data.indices.end());
    }
    cache.key = scene.topologyKey();
}

BufferHandle declareSceneIndices(Graph& graph, const SceneIndexCache& cache, const std::string& method) {
    return graph.persistentBuffer(method + " triangle indices",
                                  {std::max<VkDeviceSize>(16, cache.indices.size() * 4), 0, /*hostWrite*/ true});
}

Status uploadSceneIndices(VulkanGraphAllocator& allocator, const Graph& graph, BufferHandle buffer,
                          SceneIndexCache& cache) {
    if (graph.buffer(buffer) == VK_NULL_HANDLE) return Status::success();  // no pass draws this frame
    if (cache.uploaded == cache.key && !graph.created(buffer)) return Status::success();
    cache.uploaded = {};  // should the upload fail, the next frame tries again
    VKC_TRY(fillHostBuffer(allocator, graph, buffer, std::span<const uint32_t>(cache.indices)));
    cache.uploaded = cache.key;
    return Status::success();
}

}  // namespace vkc
