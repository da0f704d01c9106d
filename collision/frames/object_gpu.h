// The one GPU description of an object and of its mesh's vertices (shaders_glsl/shared/vertex_fetch.h),
// filled the same way by every method's record code.
#pragma once

#include "collision/scene/scene_impl.h"
#include "shaders_glsl/shared/vertex_fetch.h"

namespace vkc {

// `mesh`'s vertices, its buffer being element `slot` of the frame's vertex-buffer array.
gpu::VertexSourceGpu vertexSource(const SceneMesh& mesh, uint32_t slot);
// How far into its buffer `source` reads, in bytes (at least 4: a descriptor's range is never 0).
VkDeviceSize vertexExtentBytes(const gpu::VertexSourceGpu& source);
inline VkDeviceSize vertexExtentBytes(const SceneMesh& mesh) { return vertexExtentBytes(vertexSource(mesh, 0)); }

// `object` placed relative to `origin` (objectToLocal), its mesh's buffer being element `slot`.
gpu::ObjectGpu objectGpu(const SceneImpl& scene, const SceneObject& object, const glm::dvec3& origin, uint32_t slot);

}  // namespace vkc
