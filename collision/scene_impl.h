// The state behind vkc::Scene that detectors record from: per-mesh GPU vertex buffers (ours or
// the host's) and per-object transforms.
#pragma once

#include "vk/buffer.h"
#include "vk/context.h"
#include "vkcollide/scene.h"

#include <string>
#include <vector>

namespace vkc {

struct SceneMesh {
    MeshData data;                  // CPU copy: topology for every method, positions for the oracle
    MeshCheckReport report;
    Buffer uploaded;                // our copy of the positions; empty when read from the host
    VkBuffer vertexBuffer = VK_NULL_HANDLE;  // what shaders read: uploaded.buffer or the host's
    uint32_t vertexOffsetFloats = 0;
    uint32_t vertexStrideFloats = 3;
    uint64_t deformedGeneration = 0;  // bumped by markDeformed / updateVertices
};

struct SceneObject {
    MeshId mesh = 0;
    glm::mat4 objectToWorld{1.0f};
    std::string name;
};

struct SceneImpl {
    VulkanContext* ctx = nullptr;
    MeshRequirements requirements;
    std::vector<SceneMesh> meshes;
    std::vector<SceneObject> objects;

    ~SceneImpl();
};

}  // namespace vkc
