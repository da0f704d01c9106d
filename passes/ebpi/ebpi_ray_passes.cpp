// Adaptivity passes; see ebpi_ray_passes.h. GLSL: ebpi_pyramid.comp, ebpi_ray_options.comp,
// ebpi_ray_allocate.comp, ebpi_ray_scan.comp, ebpi_ray_generate.comp (bindings and structs in
// shaders_glsl/shared/ebpi_rays.h).
#include "passes/ebpi/ebpi_ray_passes.h"

#include <volk.h>

#include <algorithm>
#include <string>

namespace vkc {

namespace {

std::vector<DescriptorBinding> ebpiRayBindings() {
    std::vector<DescriptorBinding> bindings;
    for (uint32_t b = gpu::kEbpiRayBindingViews; b <= gpu::kEbpiRayBindingCosts; ++b)
        bindings.push_back({0, b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1u});
    return bindings;
}

// Per-view dispatch: y = view, x = groups covering `threads` (grid-stride past kEbpiRayMaxGroups).
void dispatchViews(VkCommandBuffer cmd, const PassResources& r, const Pipeline& pipeline, VkDescriptorSet set,
                   const gpu::EbpiRayPush& push, uint32_t threads) {
    const uint32_t groups =
        std::clamp((threads + gpu::kEbpiRayGroupSize - 1) / gpu::kEbpiRayGroupSize, 1u, gpu::kEbpiRayMaxGroups);
    r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &set, 0, nullptr);
    r.device().vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    r.device().vkCmdDispatch(cmd, groups, push.viewCount, 1);
}

}  // namespace

const PipelineLayoutDesc kEbpiRayPipelineLayout = {ebpiRayBindings(), sizeof(gpu::EbpiRayPush)};

std::vector<std::pair<uint32_t, BufferHandle>> ebpiRayBufferBindings(const EbpiRayPassInputs& in) {
    return {{gpu::kEbpiRayBindingViews, in.views},       {gpu::kEbpiRayBindingRayViews, in.rayViews},
            {gpu::kEbpiRayBindingPixels, in.pixels},     {gpu::kEbpiRayBindingImageStatus, in.imageStatus},
            {gpu::kEbpiRayBindingPyramid, in.pyramid},   {gpu::kEbpiRayBindingTiles, in.tiles},
            {gpu::kEbpiRayBindingFlags, in.flags},       {gpu::kEbpiRayBindingResults, in.results},
            {gpu::kEbpiRayBindingCounters, in.counters}, {gpu::kEbpiRayBindingRays, in.rays},
            {gpu::kEbpiRayBindingRayTiles, in.samples},  {gpu::kEbpiRayBindingVolumeRays, in.volumeRays},
            {gpu::kEbpiRayBindingOptions, in.options},   {gpu::kEbpiRayBindingCosts, in.costs}};
}

bool ebpiRayPlanFits(uint64_t totalTiles, uint32_t mostTilesPerView, uint32_t maxSplit) {
    return mostTilesPerView <= gpu::kEbpiRayMaxTilesPerView && maxSplit >= 1 &&
           maxSplit <= gpu::kEbpiRayMaxSplitLimit && totalTiles * maxSplit * maxSplit < (uint64_t(1) << 32);
}

EbpiRayPassOutputs addEbpiRayPasses(Graph& graph, const EbpiRayPassInputs& in) {
    EbpiRayPassOutputs out{in.tiles, in.results, in.counters, in.rays, in.samples, in.volumeRays};
    const gpu::EbpiRayPush push{0, in.viewCount, in.maxSplit, in.maxRays};
    BufferHandle flags = in.flags, pyramid = in.pyramid, options = in.options, costs = in.costs;

    // Level k reads level k - 1 (level 0: the pixels), so one pass per level orders them.
    for (uint32_t level = 0; level < in.mostLevels; ++level) {
        PassBuilder pass = graph.addPass(std::string(kEbpiPyramidPassName) + " level " + std::to_string(level));
        for (BufferHandle b : {in.views, in.rayViews, in.pixels}) pass.read(b, Access::ComputeRead);
        pyramid = pass.write(pyramid, level == 0 ? Access::ComputeWrite : Access::ComputeReadWrite);
        gpu::EbpiRayPush levelPush = push;
        levelPush.level = level;
        pass.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            dispatchViews(cmd, r, *in.pyramidPipeline, in.set, levelPush, in.mostTiles);
        });
    }

    PassBuilder optionPass = graph.addPass(kEbpiRayOptionsPassName);
    for (BufferHandle b : {in.views, in.rayViews, in.pixels}) optionPass.read(b, Access::ComputeRead);
    options = optionPass.write(options, Access::ComputeWrite);
    optionPass.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        dispatchViews(cmd, r, *in.optionsPipeline, in.set, push, in.mostTiles);
    });

    // One workgroup per view; those that do not start a pair return at once.
    PassBuilder allocate = graph.addPass(kEbpiRayAllocatePassName);
    for (BufferHandle b : {in.views, in.rayViews, in.pixels, pyramid, options}) allocate.read(b, Access::ComputeRead);
    costs = allocate.write(costs, Access::ComputeWrite);  // read back only within the pass
    out.tiles = allocate.write(out.tiles, Access::ComputeWrite);
    flags = allocate.write(flags, Access::ComputeWrite);
    allocate.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, in.allocatePipeline->pipeline);
        r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, in.allocatePipeline->layout, 0, 1,
                                           &in.set, 0, nullptr);
        r.device().vkCmdPushConstants(cmd, in.allocatePipeline->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push),
                                      &push);
        r.device().vkCmdDispatch(cmd, in.viewCount, 1, 1);
    });

    PassBuilder scan = graph.addPass(kEbpiRayScanPassName);
    for (BufferHandle b : {in.views, in.rayViews, in.imageStatus, flags}) scan.read(b, Access::ComputeRead);
    out.tiles = scan.write(out.tiles, Access::ComputeReadWrite);
    out.results = scan.write(out.results, Access::ComputeWrite);  // then read back by the thread that wrote them
    out.counters = scan.write(out.counters, Access::ComputeWrite);
    scan.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, in.scanPipeline->pipeline);
        r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, in.scanPipeline->layout, 0, 1, &in.set,
                                           0, nullptr);
        r.device().vkCmdPushConstants(cmd, in.scanPipeline->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push),
                                      &push);
        r.device().vkCmdDispatch(cmd, 1, 1, 1);
    });

    PassBuilder generate = graph.addPass(kEbpiRayGeneratePassName);
    for (BufferHandle b : {in.views, in.rayViews, out.tiles, out.results}) generate.read(b, Access::ComputeRead);
    out.rays = generate.write(out.rays, Access::ComputeWrite);
    out.samples = generate.write(out.samples, Access::ComputeWrite);
    out.volumeRays = generate.write(out.volumeRays, Access::ComputeWrite);
    generate.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        dispatchViews(cmd, r, *in.generatePipeline, in.set, push, in.mostTiles);
    });
    return out;
}

}  // namespace vkc
