// ebpi casting pipelines; see ebpi_trace_pipelines.h.
#include "passes/ebpi/ebpi_trace_pipelines.h"

#include "vk/assign_result.h"

#include "spirv/ebpi_trace_boxes.comp.h"
#include "spirv/ebpi_trace_compute.comp.h"
#include "spirv/ebpi_trace_launch.comp.h"
#include "spirv/ebpi_trace_pipeline.rgen.h"
#include "spirv/ebpi_trace_pipeline.rint.h"
#include "spirv/ebpi_trace_pipeline.rmiss.h"
#include "spirv/ebpi_trace_query.comp.h"
#include "spirv/ebpi_trace_sort.comp.h"

namespace vkc {

namespace {

Status createAll(VulkanContext& ctx, EbpiRayBackend backend, const PipelineLayoutDesc& layout,
                 EbpiTracePipelines& out) {
    auto compute = [&](Pipeline& pipeline, std::span<const uint32_t> spirv, const char* name) {
        return assignResult(pipeline, createComputePipeline(ctx, spirv, layout, {}, name));
    };
    switch (backend) {
        case EbpiRayBackend::Compute:
            VKC_TRY(compute(out.trace, kSpirv_ebpi_trace_compute_comp, kEbpiTracePassName));
            break;
        case EbpiRayBackend::RayQuery:
            VKC_TRY(compute(out.trace, kSpirv_ebpi_trace_query_comp, kEbpiTracePassName));
            break;
        case EbpiRayBackend::RayTracingPipeline: {
            RayTracingPipelineDesc desc;
            desc.raygenSpirv = kSpirv_ebpi_trace_pipeline_rgen;
            desc.missSpirv = kSpirv_ebpi_trace_pipeline_rmiss;
            desc.intersectionSpirv = kSpirv_ebpi_trace_pipeline_rint;
            desc.layout = layout;
            desc.name = kEbpiTracePassName;
            VKC_TRY(assignResult(out.rayTracing, createRayTracingPipeline(ctx, desc)));
            VKC_TRY(compute(out.launch, kSpirv_ebpi_trace_launch_comp, kEbpiTraceLaunchPassName));
            break;
        }
    }
    if (backend != EbpiRayBackend::Compute)
        VKC_TRY(compute(out.boxes, kSpirv_ebpi_trace_boxes_comp, kEbpiTraceBoxesPassName));
    return compute(out.sort, kSpirv_ebpi_trace_sort_comp, kEbpiTraceSortPassName);
}

}  // namespace

Result<EbpiTracePipelines> createEbpiTracePipelines(VulkanContext& ctx, EbpiRayBackend backend,
                                                    const PipelineLayoutDesc& layout) {
    EbpiTracePipelines out;
    out.backend = backend;
    if (Status status = createAll(ctx, backend, layout, out); !status) {
        destroyEbpiTracePipelines(ctx, out);
        return status;
    }
    return out;
}

void destroyEbpiTracePipelines(VulkanContext& ctx, EbpiTracePipelines& pipelines) {
    for (Pipeline* p : {&pipelines.trace, &pipelines.sort, &pipelines.boxes, &pipelines.launch}) destroyPipeline(ctx, *p);
    destroyRayTracingPipeline(ctx, pipelines.rayTracing);
    pipelines = EbpiTracePipelines{};
}

VkDescriptorSetLayout ebpiTraceSetLayout(const EbpiTracePipelines& pipelines) { return pipelines.sort.setLayouts[0]; }

}  // namespace vkc
