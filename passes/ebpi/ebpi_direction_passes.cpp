// Direction passes; see ebpi_direction_passes.h. GLSL: ebpi_normal_histogram.comp,
// ebpi_directions.comp (bindings and structs in shaders_glsl/shared/ebpi_directions.h).
#include "passes/ebpi/ebpi_direction_passes.h"

#include "shaders_glsl/shared/vertex_fetch.h"

#include <volk.h>

#include <algorithm>

namespace vkc {

namespace {

// Workgroups every device supports along x and y; more triangles are covered by a grid stride.
constexpr uint32_t kMaxGroups = 65535;

std::vector<DescriptorBinding> ebpiDirectionBindings() {
    std::vector<DescriptorBinding> bindings;
    for (uint32_t b = gpu::kEbpiDirectionBindingObjects; b <= gpu::kEbpiDirectionBindingRayViews; ++b)
        bindings.push_back({0, b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1u});
    bindings.push_back({0, gpu::kBindingVertexBuffers, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kVariableDescriptorCount});
    return bindings;
}

void bind(VkCommandBuffer cmd, const PassResources& r, const Pipeline& pipeline, VkDescriptorSet set,
          const gpu::EbpiDirectionPush& push) {
    r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &set, 0, nullptr);
    r.device().vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
}

}  // namespace

const PipelineLayoutDesc kEbpiDirectionPipelineLayout = {ebpiDirectionBindings(), sizeof(gpu::EbpiDirectionPush)};

std::vector<std::pair<uint32_t, BufferHandle>> ebpiDirectionBufferBindings(const EbpiDirectionPassInputs& in) {
    return {{gpu::kEbpiDirectionBindingObjects, in.objects},     {gpu::kEbpiDirectionBindingIndices, in.indices},
            {gpu::kEbpiDirectionBindingPairs, in.pairs},         {gpu::kEbpiDirectionBindingHistogram, in.histogram},
            {gpu::kEbpiDirectionBindingViews, in.views},         {gpu::kEbpiDirectionBindingAxes, in.axes},
            {gpu::kEbpiDirectionBindingRayViews, in.rayViews}};
}

EbpiDirectionPassOutputs addEbpiDirectionPasses(Graph& graph, const EbpiDirectionPassInputs& in) {
    EbpiDirectionPassOutputs out{in.views, in.rayViews, in.axes};
    const gpu::EbpiDirectionPush push{in.pairCount, 0, 0, 0};
    BufferHandle histogram = in.histogram;

    // The histograms are sums of atomics: they start at zero every frame.
    PassBuilder clear = graph.addPass(kEbpiHistogramClearPassName);
    histogram = clear.write(histogram, Access::TransferDst);
    clear.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        r.device().vkCmdFillBuffer(cmd, r.buffer(histogram), r.bufferOffset(histogram),
                                   VkDeviceSize(in.pairCount) * gpu::kEbpiHistogramWords * 4, 0u);
    });

    PassBuilder fill = graph.addPass(kEbpiNormalHistogramPassName);
    for (BufferHandle b : {in.objects, in.indices, in.pairs}) fill.read(b, Access::ComputeRead);
    for (BufferHandle v : in.vertices) fill.read(v, Access::ComputeRead);
    histogram = fill.write(histogram, Access::ComputeReadWrite);
    fill.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        bind(cmd, r, *in.histogramPipeline, in.set, push);
        const uint32_t groups = std::clamp((in.mostTriangles + gpu::kEbpiDirectionsGroupSize - 1) /
                                               gpu::kEbpiDirectionsGroupSize, 1u, kMaxGroups);
        r.device().vkCmdDispatch(cmd, groups, in.pairCount, 1);
    });

    PassBuilder directions = graph.addPass(kEbpiDirectionsPassName);
    for (BufferHandle b : {in.pairs, histogram}) directions.read(b, Access::ComputeRead);
    out.views = directions.write(out.views, Access::ComputeReadWrite);  // the host wrote the rest
    out.rayViews = directions.write(out.rayViews, Access::ComputeReadWrite);
    out.axes = directions.write(out.axes, Access::ComputeWrite);
    directions.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        bind(cmd, r, *in.directionsPipeline, in.set, push);
        r.device().vkCmdDispatch(cmd, (in.pairCount + gpu::kEbpiDirectionsGroupSize - 1) / gpu::kEbpiDirectionsGroupSize,
                                 1, 1);
    });
    return out;
}

}  // namespace vkc
