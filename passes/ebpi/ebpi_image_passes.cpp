// EBPI passes; see ebpi_image_passes.h. GLSL: ebpi_depth_extent.comp, ebpi_edge_terms.comp,
// ebpi_transient_terms.comp (bindings and structs in shaders_glsl/shared/ebpi_image.h).
#include "passes/ebpi/ebpi_image_passes.h"

#include "collision/ebpi/ebpi_fixed_point.h"
#include "passes/shared/dispatch_groups.h"

#include <volk.h>

#include <algorithm>

namespace vkc {

namespace {

std::vector<DescriptorBinding> ebpiImageBindings() {
    std::vector<DescriptorBinding> bindings;
    for (uint32_t b = gpu::kEbpiImageBindingObjects; b <= gpu::kEbpiImageBindingCrossingPairs; ++b)
        bindings.push_back({0, b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1u});
    bindings.push_back({0, gpu::kBindingVertexBuffers, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kVariableDescriptorCount});
    return bindings;
}

uint32_t imageGroupsFor(uint32_t threads) {
    return std::clamp(groupsFor(threads, gpu::kEbpiImageGroupSize), 1u,
                      gpu::kEbpiImageMaxGroups);
}

// One dispatch per kEbpiImageMaxGroups jobs (y), `groupsX` groups each.
void dispatchJobs(VkCommandBuffer cmd, const PassResources& r, const Pipeline& pipeline, VkDescriptorSet set,
                  uint32_t jobCount, uint32_t groupsX) {
    r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &set, 0, nullptr);
    for (uint32_t first = 0; first < jobCount; first += gpu::kEbpiImageMaxGroups) {
        const gpu::EbpiImagePush push{first, jobCount, 0, 0};
        r.device().vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
        r.device().vkCmdDispatch(cmd, groupsX, std::min(jobCount - first, gpu::kEbpiImageMaxGroups), 1);
    }
}

}  // namespace

const PipelineLayoutDesc kEbpiImagePipelineLayout = {ebpiImageBindings(), sizeof(gpu::EbpiImagePush)};

EbpiImagePassOutputs addEbpiImagePasses(Graph& graph, const EbpiImagePassInputs& in) {
    EbpiImagePassOutputs out{in.pixels, in.status};
    BufferHandle extents = in.extents;

    // The pixels are sums of atomics and the flags are or-ed: both start at zero every frame.
    PassBuilder clear = graph.addPass(kEbpiImageClearPassName);
    out.pixels = clear.write(out.pixels, Access::TransferDst);
    out.status = clear.write(out.status, Access::TransferDst);
    clear.setRecord([=, pixels = out.pixels, status = out.status](VkCommandBuffer cmd, const PassResources& r) {
        if (in.pixelCount != 0)
            r.device().vkCmdFillBuffer(cmd, r.buffer(pixels), r.bufferOffset(pixels),
                                       VkDeviceSize(in.pixelCount) * sizeof(gpu::EbpiPixelGpu), 0u);
        if (in.viewCount != 0)
            r.device().vkCmdFillBuffer(cmd, r.buffer(status), r.bufferOffset(status), VkDeviceSize(in.viewCount) * 4,
                                       0u);
    });
    if (in.jobCount != 0) {  // mesh edges
        PassBuilder extent = graph.addPass(kEbpiDepthExtentPassName);
        for (BufferHandle b : {in.objects, in.views, in.jobs}) extent.read(b, Access::ComputeRead);
        for (BufferHandle v : in.vertices) extent.read(v, Access::ComputeRead);
        extents = extent.write(extents, Access::ComputeWrite);
        extent.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            dispatchJobs(cmd, r, *in.depthExtentPipeline, in.set, in.jobCount, 1);
        });

        PassBuilder edgeTerms = graph.addPass(kEbpiEdgeTermsPassName);
        for (BufferHandle b : {in.objects, in.views, in.jobs, in.edges, extents}) edgeTerms.read(b, Access::ComputeRead);
        for (BufferHandle v : in.vertices) edgeTerms.read(v, Access::ComputeRead);
        out.pixels = edgeTerms.write(out.pixels, Access::ComputeReadWrite);
        out.status = edgeTerms.write(out.status, Access::ComputeReadWrite);
        edgeTerms.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            dispatchJobs(cmd, r, *in.edgeTermsPipeline, in.set, in.jobCount, imageGroupsFor(in.mostEdgesPerJob));
        });
    }

    if (!in.transientPipeline || in.trianglePairCapacity == 0) return out;
    // One thread per candidate triangle pair; the count is the traversal's (read on the GPU).
    PassBuilder transient = graph.addPass(kEbpiTransientTermsPassName);
    for (BufferHandle b : {in.objects, in.views, in.indices, in.trianglePairs, in.traversal, in.crossingPairs})
        transient.read(b, Access::ComputeRead);
    for (BufferHandle v : in.vertices) transient.read(v, Access::ComputeRead);
    out.pixels = transient.write(out.pixels, Access::ComputeReadWrite);
    out.status = transient.write(out.status, Access::ComputeReadWrite);
    transient.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        const Pipeline& pipeline = *in.transientPipeline;
        r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
        r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &in.set, 0, nullptr);
        const gpu::EbpiImagePush push{0, 0, in.trianglePairCapacity, 0};
        r.device().vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
        r.device().vkCmdDispatch(cmd, imageGroupsFor(in.trianglePairCapacity), 1, 1);
    });
    return out;
}

std::vector<std::pair<uint32_t, BufferHandle>> ebpiImageBufferBindings(const EbpiImagePassInputs& in) {
    return {{gpu::kEbpiImageBindingObjects, in.objects}, {gpu::kEbpiImageBindingViews, in.views},
            {gpu::kEbpiImageBindingJobs, in.jobs},       {gpu::kEbpiImageBindingEdges, in.edges},
            {gpu::kEbpiImageBindingExtents, in.extents}, {gpu::kEbpiImageBindingPixels, in.pixels},
            {gpu::kEbpiImageBindingStatus, in.status},
            {gpu::kEbpiImageBindingIndices, in.indices}, {gpu::kEbpiImageBindingTrianglePairs, in.trianglePairs},
            {gpu::kEbpiImageBindingTraversal, in.traversal}, {gpu::kEbpiImageBindingCrossingPairs, in.crossingPairs}};
}

gpu::EbpiViewGpu ebpiViewGpu(const EbpiRotation& rotation, const EbpiWindow& window, uint32_t firstPixel,
                             const EbpiEdgeRegion& region) {
    gpu::EbpiViewGpu view{};
    for (int row = 0; row < 3; ++row)
        for (int k = 0; k < 3; ++k) view.rotation[3 * row + k] = rotation.rows[row][k];
    view.originX = window.origin.x;
    view.originY = window.origin.y;
    view.pixelX = window.pixelSize.x;
    view.pixelY = window.pixelSize.y;
    const auto scales = ebpiFixedPointScales(window);
    std::copy(scales.begin(), scales.end(), view.scales);
    view.width = window.width;
    view.height = window.height;
    view.firstPixel = firstPixel;
    for (int k = 0; k < 3; ++k) {
        view.regionLo[k] = region.lo[k];
        view.regionHi[k] = region.hi[k];
    }
    return view;
}

std::vector<gpu::EbpiMeshEdgeGpu> ebpiMeshEdgesGpu(const EbpiMeshEdges& edges, std::span<const uint32_t> indices) {
    std::vector<gpu::EbpiMeshEdgeGpu> out;
    out.reserve(edges.edges.size());
    for (const EbpiMeshEdge& e : edges.edges) {
        gpu::EbpiMeshEdgeGpu g{e.a, e.b, {}, {}};
        for (int k = 0; k < 3; ++k) {
            g.triangleI[k] = indices[3 * e.triangles[0] + k];
            g.triangleJ[k] = indices[3 * e.triangles[1] + k];
        }
        out.push_back(g);
    }
    return out;
}

}  // namespace vkc
