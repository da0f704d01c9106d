// The pipelines of ebpi's casting passes for one backend, made together because they share one
// descriptor set: the backend's trace (a compute shader, or a ray-tracing pipeline with its shader
// binding table), the sort, and for the hardware backends the triangle-box writer (and for the
// ray-tracing pipeline the launch-size writer of GPU-driven frames).
#pragma once

#include "passes/ebpi/ebpi_trace_passes.h"
#include "vk/ray_tracing_pipeline.h"

namespace vkc {

struct EbpiTracePipelines {
    EbpiRayBackend backend = EbpiRayBackend::Compute;
    Pipeline trace;                // compute backends: ebpi_trace_{compute,query}.comp
    RayTracingPipeline rayTracing; // ray-tracing-pipeline backend: ebpi_trace_pipeline.{rgen,rmiss,rint}
    Pipeline sort;                 // ebpi_trace_sort.comp
    Pipeline boxes;                // hardware backends: ebpi_trace_boxes.comp
    Pipeline launch;               // ray-tracing-pipeline backend: ebpi_trace_launch.comp
};

// `layout`: ebpiTracePipelineLayout(backend), with the frame's vertex-buffer capacity.
Result<EbpiTracePipelines> createEbpiTracePipelines(VulkanContext& ctx, EbpiRayBackend backend,
                                                    const PipelineLayoutDesc& layout);
// Safe on a default-constructed one; resets it.
void destroyEbpiTracePipelines(VulkanContext& ctx, EbpiTracePipelines& pipelines);

// The set layout every pipeline of the backend shares.
VkDescriptorSetLayout ebpiTraceSetLayout(const EbpiTracePipelines& pipelines);

}  // namespace vkc
