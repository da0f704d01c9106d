// Scene topology caches; see scene_index_cache.h.
#include "collision/scene_index_cache.h"

#include <algorithm>
#include <cstring>

namespace vkc {

std::vector<uint64_t> meshShapeKey(const SceneImpl& scene) {
    std::vector<uint64_t> key;
    for (const SceneMesh& mesh : scene.meshes)
        key.push_back(uint64_t(mesh.data.positions.size()) << 32 | uint64_t(mesh.data.indices.size()));
    return key;
}

std::vector<uint64_t> meshContentKey(const SceneImpl& scene) {
    std::vector<uint64_t> key = meshShapeKey(scene);
    for (const SceneMesh& mesh : scene.meshes) {
        uint64_t hash = 14695981039346656037ull;  // FNV-1a
        for (uint32_t index : mesh.data.indices) hash = (hash ^ index) * 1099511628211ull;
        key.push_back(hash);
    }
    return key;
}

Status ensureSceneIndices(VulkanContext& ctx, SceneIndexCache& cache, const SceneImpl& scene,
                          std::vector<uint64_t> key, const char* name) {
    if (cache.scene == &scene && cache.key == key) return Status::success();
    std::vector<uint32_t> indices;
    std::vector<uint32_t> firstIndex;
    for (const SceneMesh& mesh : scene.meshes) {
        firstIndex.push_back(uint32_t(indices.size()));
        indices.insert(indices.end(), mesh.data.indices.begin(), mesh.data.indices.end());
    }
    destroyBuffer(ctx, cache.buffer);
    auto buffer = createBuffer(ctx, {std::max<VkDeviceSize>(16, indices.size() * 4), VK_BUFFER_USAGE_INDEX_BUFFER_BIT,
                                     MemoryUsage::Upload, name});
    if (!buffer) return buffer.status();
    cache.buffer = buffer.value();
    if (!indices.empty()) std::memcpy(cache.buffer.data, indices.data(), indices.size() * 4);
    VKC_TRY(flushBuffer(ctx, cache.buffer));
    cache.firstIndex = std::move(firstIndex);
    cache.scene = &scene;
    cache.key = std::move(key);
    return Status::success();
}

}  // namespace vkc
