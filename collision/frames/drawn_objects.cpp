// The drawn objects of an image-space frame; see drawn_objects.h.
#include "collision/frames/drawn_objects.h"

#include "collision/frames/candidate_pairs.h"
#include "collision/frames/object_gpu.h"

#include <algorithm>

namespace vkc {

Result<DrawnObjects> drawnObjects(const SceneImpl& scene, std::span<const ObjectPair> pairs,
                                  std::span<const Aabb> worldBounds, uint32_t vertexBufferCapacity,
                                  const std::string& method) {
    DrawnObjects out{objectsOfPairs(pairs), {}, VertexBufferSlots(vertexBufferCapacity, method + ": the candidate objects read"),
                     {}, std::vector<gpu::ObjectGpu>(std::max<size_t>(scene.objects.size(), 1))};
    out.region = localRegion(worldBounds, out.objects);
    for (uint32_t object : out.objects) {
        const SceneObject& o = scene.objects[object];
        auto slot = out.vertexSlots.slot(scene.meshes[o.mesh].vertexBuffer, "object \"" + o.name + "\"");
        if (!slot) return slot.status();
        out.slotOf.push_back(slot.value());
        out.table[object] = objectGpu(scene, o, out.region.origin, slot.value());
    }
    return out;
}

}  // namespace vkc
