// The pair setup pass; see ebpi_setup_pass.h.
#include "passes/ebpi/ebpi_setup_pass.h"

#include "passes/graph/compute_binding.h"

#include <volk.h>

#include <algorithm>
#include <array>

namespace vkc {

namespace {

std::vector<DescriptorBinding> ebpiSetupBindings() {
    std::vector<DescriptorBinding> bindings;
    for (uint32_t b = gpu::kEbpiSetupBindingBounds; b <= gpu::kEbpiSetupBindingSelectedPairs; ++b)
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
            {gpu::kEbpiSetupBindingSlots, in.slots},
            {gpu::kEbpiSetupBindingVerdicts, in.selection.verdicts},
            {gpu::kEbpiSetupBindingSelection, in.selection.state},
            {gpu::kEbpiSetupBindingSelectedPairs, in.selection.selected}};
}

EbpiSetupPassOutputs addEbpiSetupPass(Graph& graph, const EbpiSetupPassInputs& in) {
    const std::array<BufferHandle, 5> inputs = {in.bounds, in.candidates, in.sceneObjects, in.startAxes, in.params};
    PassBuilder verdicts = graph.addPass(kEbpiPairVerdictsPassName);
    for (BufferHandle b : inputs) verdicts.read(b, Access::ComputeRead);
    PairSelectionInputs selection = in.selection;
    selection.verdicts = verdicts.write(in.selection.verdicts, Access::ComputeWrite);
    const uint32_t groups = std::clamp(
        (in.selection.candidateCapacity + gpu::kEbpiSetupGroupSize - 1) / gpu::kEbpiSetupGroupSize, 1u,
        in.selection.maxGroups);
    verdicts.setRecord([pipeline = in.verdictsPipeline, set = in.set, groups](VkCommandBuffer cmd, const PassResources& r) {
        bindCompute(cmd, r, *pipeline, set);
        r.device().vkCmdDispatch(cmd, groups, 1, 1);
    });
    const PairSelectionOutputs selected = addPairSelectionPasses(graph, selection);

    PassBuilder pass = graph.addPass(kEbpiPairSetupPassName);
    for (BufferHandle b : inputs) pass.read(b, Access::ComputeRead);
    pass.read(selected.state, Access::ComputeRead);
    pass.read(selected.selected, Access::ComputeRead);
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
    pass.setRecord([pipeline = in.tablesPipeline, set = in.set](VkCommandBuffer cmd, const PassResources& r) {
        bindCompute(cmd, r, *pipeline, set);
        r.device().vkCmdDispatch(cmd, 1, 1, 1);  // a thread per slot
    });
    return out;
}

}  // namespace vkc
