// Per-slot cache of every mesh's triangle indices in one host-visible index buffer, rebuilt when
// the scene's topology (SceneImpl::topologyKey) changes.
#pragma once

#include "collision/scene_impl.h"

#include <vector>

namespace vkc {

struct SceneIndexCache {
    Buffer buffer;                    // every mesh's indices, one after another
    std::vector<uint32_t> firstIndex; // per mesh
    SceneTopologyKey key;             // what `buffer` was built for
};

// Rebuilds `cache` unless it holds `scene`'s topology already. The frame that last used the cache
// must have completed (its buffer is destroyed here). `name` names the buffer.
Status ensureSceneIndices(VulkanContext& ctx, SceneIndexCache& cache, const SceneImpl& scene, const char* name);

}  // namespace vkc
