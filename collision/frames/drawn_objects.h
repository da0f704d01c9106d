// The prologue of an image-space frame (stencil, consistent-pairs): the objects of the candidate
// pairs, the region they are drawn in (collision/frames/local_region.h), each one's vertex-buffer
// slot and object-table entry.
#pragma once

#include "collision/frames/local_region.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "collision/scene/scene_impl.h"
#include "shaders_glsl/shared/vertex_fetch.h"

#include <span>
#include <vector>

namespace vkc {

struct DrawnObjects {
    std::vector<uint32_t> objects;      // of the pairs, sorted
    LocalRegion region;                 // the frame renders in world minus region.origin
    VertexBufferSlots vertexSlots;      // every vertex buffer they read
    std::vector<uint32_t> slotOf;       // per drawn object (parallel to `objects`): its buffer's slot
    std::vector<gpu::ObjectGpu> table;  // per scene object (at least one entry); drawn ones filled
};

// `method` names the caller in errors ("stencil: the candidate objects read more than ...").
Result<DrawnObjects> drawnObjects(const SceneImpl& scene, std::span<const ObjectPair> pairs,
                                  std::span<const Aabb> worldBounds, uint32_t vertexBufferCapacity,
                                  const std::string& method);

}  // namespace vkc
