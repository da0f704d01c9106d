// The host's own compute pass that deforms one mesh every frame (standing in for skinning or
// cloth): it rewrites that mesh's positions in the interleaved vertex buffer, which vkcollide then
// reads in place in the same command buffer (the mesh is added with deformedEveryFrame).
#pragma once

#include "tools/examples/host_buffer.h"
#include "tools/examples/host_meshes.h"

#include <string>

namespace vkc::example {

class MeshDeformer {
public:
    // Deforms `mesh` (its rest positions copied now); empty `error` on success.
    MeshDeformer(const HostDevice& host, const HostMeshes& meshes, uint32_t mesh, const MeshData& rest, std::string& error);
    ~MeshDeformer();

    // Scales the mesh's rest positions by `scale`, after every earlier read of the vertex buffer
    // (the last frame's draws and collision passes), before every later read (this frame's).
    void record(VkCommandBuffer cmd, float scale) const;

private:
    const HostDevice& host_;
    HostMeshRange range_;
    HostBuffer rest_;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
};

}  // namespace vkc::example
