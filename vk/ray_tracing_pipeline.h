// Ray-tracing pipelines (VK_KHR_ray_tracing_pipeline) of one ray-generation shader, one miss
// shader and one procedural hit group (an intersection shader over AABB geometry, no any-hit or
// closest-hit), with the shader binding table they are traced through. Needs
// VulkanContext::hasRayTracingPipeline.
#pragma once

#include "vk/buffer.h"
#include "vk/pipeline.h"

namespace vkc {

struct RayTracingPipelineDesc {
    std::span<const uint32_t> raygenSpirv;
    std::span<const uint32_t> missSpirv;
    std::span<const uint32_t> intersectionSpirv;
    PipelineLayoutDesc layout;  // visible to the ray-generation and intersection stages (plus extraStages)
    const char* name = nullptr;
};

// The pipeline and the host-visible table its traces read: one record per shader group, each
// region aligned as the device requires. The regions are what vkCmdTraceRays*KHR takes.
struct RayTracingPipeline {
    Pipeline pipeline;
    Buffer shaderBindingTable;
    VkStridedDeviceAddressRegionKHR raygen{}, miss{}, hit{}, callable{};
};

Result<RayTracingPipeline> createRayTracingPipeline(VulkanContext& ctx, const RayTracingPipelineDesc& desc);
// Safe on a default-constructed one; resets it.
void destroyRayTracingPipeline(VulkanContext& ctx, RayTracingPipeline& pipeline);

}  // namespace vkc
