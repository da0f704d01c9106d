// GPU objects and vertex sources; see object_gpu.h.
#include "collision/frames/object_gpu.h"

#include "collision/scene/object_transform.h"

namespace vkc {

static_assert(sizeof(gpu::VertexSourceGpu) == 16 && sizeof(gpu::ObjectGpu) == 80,
              "VertexSourceGpu and ObjectGpu must match their std430 layouts");

gpu::VertexSourceGpu vertexSource(const SceneMesh& mesh, uint32_t slot) {
    return {slot, mesh.vertexStrideFloats, mesh.vertexOffsetFloats, uint32_t(mesh.data.positions.size())};
}

VkDeviceSize vertexExtentBytes(const gpu::VertexSourceGpu& source) {
    const uint64_t floats = source.offset + (source.count == 0 ? 1 : uint64_t(source.count - 1) * source.stride + 3);
    return floats * sizeof(float);
}

gpu::ObjectGpu objectGpu(const SceneImpl& scene, const SceneObject& object, const glm::dvec3& origin, uint32_t slot) {
    return {objectToLocal(object.objectToWorld, origin), vertexSource(scene.meshes[object.mesh], slot)};
}

}  // namespace vkc
