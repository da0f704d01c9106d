// Scene topology caches; see scene_index_cache.h.
#include "collision/scene_index_cache.h"

#include <algorithm>
#include <cstring>

namespace vkc {

Status ensureSceneIndices(VulkanContext& ctx, SceneIndexCache& cache, const SceneImpl& scene, const char* name) {
    if (cache.key == scene.topologyKey()) return Status::success();
    std::vector<uint32_t> indices;
    std::vector<uint32_t> firstIndex;
    for (const SceneMesh& mesh : scene.meshes) {
        firstIndex.push_back(uint32_t(indices.size()));
        indices.insert(indices.end(), mesh.data.indices.begin(), mesh.data.indices.end());
    }
    // Forget the old scene first: should creation fail, the next call must rebuild, not reuse a null buffer.
    cache.key = {};
    destroyBuffer(ctx, cache.buffer);
    auto buffer = createBuffer(ctx, {std::max<VkDeviceSize>(16, indices.size() * 4), VK_BUFFER_USAGE_INDEX_BUFFER_BIT,
                                     MemoryUsage::Upload, name});
    if (!buffer) return buffer.status();
    cache.buffer = buffer.value();
    if (!indices.empty()) std::memcpy(cache.buffer.data, indices.data(), indices.size() * 4);
    VKC_TRY(flushBuffer(ctx, cache.buffer));
    cache.firstIndex = std::move(firstIndex);
    cache.key = scene.topologyKey();
    return Status::success();
}

}  // namespace vkc
