// Acceleration structures of ebpi's hardware ray backends (ray query, ray-tracing pipeline): one BLAS per object of its triangles'
// grown boxes (non-opaque AABB geometry, no duplicate candidates; shaders_glsl/ebpi_trace_boxes.comp
// writes them) and one TLAS whose instance i places a BLAS with an object's transform and carries
// the object's index as its custom index. Created on the host with their storage, scratch and
// instance buffers; built on the GPU by addEbpiTracePasses. Needs
// VulkanContext::hasAccelerationStructure (and buffer device addresses).
#pragma once

#include "vk/buffer.h"

#include <volk.h>


#include <span>
#include <vector>

namespace vkc {

// One object's triangle boxes as the BLAS build reads them (the buffer needs SHADER_DEVICE_ADDRESS
// and ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY usages).
struct EbpiAccelMesh {
    VkDeviceAddress boxes = 0;  // the first EbpiTriangleBoxGpu (24 bytes each)
    uint32_t triangleCount = 0;
};

// Its transform is the object's, written by the boxes pass (ebpi_trace_boxes.comp) each frame.
struct EbpiAccelInstance {
    uint32_t mesh = 0;    // index into the meshes (the boxes of one object)
    uint32_t object = 0;  // the custom index the trace shader reads (< 2^24)
};

struct EbpiAccelStructs {
    std::vector<EbpiAccelMesh> meshes;
    std::vector<Buffer> blasStorage;
    std::vector<VkAccelerationStructureKHR> blas;
    std::vector<VkDeviceSize> blasScratchOffset;  // each build its own scratch range: no barrier between them
    Buffer tlasStorage;
    VkAccelerationStructureKHR tlas = VK_NULL_HANDLE;
    Buffer instances;  // VkAccelerationStructureInstanceKHR[] (a storage buffer: the boxes pass writes the transforms)
    VkDeviceAddress instancesAddress = 0;
    uint32_t instanceCount = 0;
    Buffer scratch;
    VkDeviceAddress scratchAddress = 0;  // the scratch's first aligned address
};

VkDeviceAddress bufferDeviceAddress(const VulkanContext& ctx, VkBuffer buffer);

// Sizes and creates the structures (not built yet) and writes the instances.
Result<EbpiAccelStructs> createEbpiAccelStructs(VulkanContext& ctx, std::span<const EbpiAccelMesh> meshes,
                                                std::span<const EbpiAccelInstance> instances);
// Safe on a default-constructed one; the GPU must be done with it.
void destroyEbpiAccelStructs(VulkanContext& ctx, EbpiAccelStructs& accel);

// Records every BLAS build (one command; disjoint scratch ranges), then, in a later pass after
// a barrier, the TLAS build.
void recordEbpiBlasBuilds(const VolkDeviceTable& device, VkCommandBuffer cmd, const EbpiAccelStructs& accel);
void recordEbpiTlasBuild(const VolkDeviceTable& device, VkCommandBuffer cmd, const EbpiAccelStructs& accel);

}  // namespace vkc
