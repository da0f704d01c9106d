// Per-slot caches of what detectors build from a scene's topology: keys that tell whether the
// scene's meshes changed, and every mesh's triangle indices in one host-visible index buffer.
#pragma once

#include "collision/scene_impl.h"

#include <vector>

namespace vkc {

// Vertex and index count per mesh: enough while meshes are only added to a scene.
std::vector<uint64_t> meshShapeKey(const SceneImpl& scene);
// meshShapeKey plus a hash of each mesh's indices (a pass over them per frame): also catches a
// scene rebuilt at the same address with other meshes of the same sizes.
std::vector<uint64_t> meshContentKey(const SceneImpl& scene);

struct SceneIndexCache {
    Buffer buffer;                    // every mesh's indices, one after another
    std::vector<uint32_t> firstIndex; // per mesh
    const SceneImpl* scene = nullptr; // what `buffer` was built for, with `key`
    std::vector<uint64_t> key;
};

// Rebuilds `cache` unless it holds `scene` with `key` already. The frame that last used the cache
// must have completed (its buffer is destroyed here). `name` names the buffer.
Status ensureSceneIndices(VulkanContext& ctx, SceneIndexCache& cache, const SceneImpl& scene,
                          std::vector<uint64_t> key, const char* name);

}  // namespace vkc
