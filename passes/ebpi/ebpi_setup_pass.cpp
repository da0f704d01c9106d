// The pair setup pass; see ebpi_setup_pass.h.
#include "passes/ebpi/ebpi_setup_pass.h"

#include <volk.h>

namespace vkc {

namespace {

std::vector<DescriptorBinding> ebpiSetupBindings() {
    std::vector<DescriptorBinding> bindings;
    for (uint32_t b = gpu::kEbpiSetupBindingBounds; b <= gpu::kEbpiSetupBindingSlots; ++b)
        bindings.push_back({0, b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1u});
    return bindings;
}

}  // namespace

const PipelineLayoutDesc kEbpiSetupPipelineLayout = {ebpiSetupBindings()};

std::vector<std::pair<uint32_t, BufferHandle>> ebpiSetupBufferBindings(const EbpiSetupPassInputs& in) {
    return {{gpu::kEbpiSetupBindingBounds, in.bounds},
            {gpu::kEbpiSetupBindingCandidates, in.candidates},
            {gpu::kEbpiSetupBindingSceneObjects, in.sceneObjects},
            {gpu::kEbpiSetupBindingStartAxes, in.startAxes},
            {gpu::kEbpiSetupBindingParams, in.params},
            {gpu::kEbpiSetupBindingObjects, in.objects},
            {gpu::kEbpiSetupBindingTraceObjects, in.traceObjects},
            {gpu::kEbpiSetupBindingViews, in.views},
            {gpu::kEbpiSetupBindingRayViews, in.rayViews},
            {gpu::kEbpiSetupBindingJobs, in.jobs},
            {gpu::kEbpiSetupBindingVolumePairs, in.volumePairs},
            {gpu::kEbpiSetupBindingCrossingPairs, in.crossingPairs},
            {gpu::kEbpiSetupBindingDirectionPairs, in.directionPairs},
            {gpu::kEbpiSetupBindingTraversalPairs, in.traversalPairs},
            {gpu::kEbpiSetupBindingSlots, in.slots}};
}

EbpiSetupPassOutputs addEbpiSetupPass(Graph& graph, const EbpiSetupPassInputs& in) {
    PassBuilder pass = graph.addPass(kEbpiPairSetupPassName);
    for (BufferHandle b : {in.bounds, in.candidates, in.sceneObjects, in.startAxes, in.params})
        pass.read(b, Access::ComputeRead);
    EbpiSetupPassOutputs out;
    out.objects = pass.write(in.objects, Access::ComputeWrite);
    out.traceObjects = pass.write(in.traceObjects, Access::ComputeWrite);
    out.views = pass.write(in.views, Access::ComputeWrite);
    out.rayViews = pass.write(in.rayViews, Access::ComputeWrite);
    out.jobs = pass.write(in.jobs, Access::ComputeWrite);
    out.volumePairs = pass.write(in.volumePairs, Access::ComputeWrite);
    out.crossingPairs = pass.write(in.crossingPairs, Access::ComputeWrite);
    out.directionPairs = pass.write(in.directionPairs, Access::ComputeWrite);
    out.traversalPairs = pass.write(in.traversalPairs, Access::ComputeWrite);
    out.slots = pass.write(in.slots, Access::ComputeWrite);  // read back within the dispatch only
    pass.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, in.pipeline->pipeline);
        r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, in.pipeline->layout, 0, 1, &in.set, 0,
                                           nullptr);
        r.device().vkCmdDispatch(cmd, 1, 1, 1);  // one workgroup: the pairs are taken in list order
    });
    return out;
}

}  // namespace vkc
