// Pair selection passes; see pair_selection_passes.h.
#include "passes/shared/pair_selection_passes.h"

#include "passes/graph/compute_binding.h"

#include "spirv/pair_select_count.comp.h"
#include "spirv/pair_select_cut.comp.h"
#include "spirv/pair_select_group.comp.h"
#include "spirv/pair_select_pick.comp.h"
#include "spirv/pair_select_sort.comp.h"

namespace vkc {

static_assert(sizeof(gpu::PairSelectionStateGpu) == 32 && sizeof(gpu::PairSelectionPush) == 16);

const PipelineLayoutDesc kPairSelectionLayout = {
    {{0, gpu::kPairSelectBindingCandidates, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kPairSelectBindingVerdicts, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kPairSelectBindingStarts, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kPairSelectBindingRanks, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kPairSelectBindingState, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kPairSelectBindingSelected, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}},
    sizeof(gpu::PairSelectionPush)};

Result<PairSelectionPipelines> createPairSelectionPipelines(VulkanContext& ctx) {
    PairSelectionPipelines made;
    const ComputePipelineStep steps[] = {{&made.count, kSpirv_pair_select_count_comp, "pair-select-count"},
                                         {&made.cut, kSpirv_pair_select_cut_comp, "pair-select-cut"},
                                         {&made.group, kSpirv_pair_select_group_comp, "pair-select-group"},
                                         {&made.pick, kSpirv_pair_select_pick_comp, "pair-select-pick"},
                                         {&made.sort, kSpirv_pair_select_sort_comp, "pair-select-sort"}};
    VKC_TRY(createComputePipelines(ctx, steps, kPairSelectionLayout));
    return made;
}

void destroyPairSelectionPipelines(VulkanContext& ctx, PairSelectionPipelines& pipelines) {
    for (Pipeline* p : {&pipelines.count, &pipelines.cut, &pipelines.group, &pipelines.pick, &pipelines.sort})
        destroyPipeline(ctx, *p);
}

PairSelectionOutputs addPairSelectionPasses(Graph& graph, const PairSelectionInputs& in) {
    const gpu::PairSelectionPush push = {in.candidateCapacity, in.objectCount, in.maxPairs, 0u};
    auto groupsFor = [&](uint32_t threads) {
        return std::clamp((threads + gpu::kPairSelectGroupSize - 1) / gpu::kPairSelectGroupSize, 1u, in.maxGroups);
    };
    // The pipelines are looked at only when the pass records.
    auto step = [&](const char* name, Pipeline PairSelectionPipelines::*pipeline, uint32_t threads) {
        PassBuilder pass = graph.addPass(in.label + name);
        pass.setRecord([pipelines = in.pipelines, pipeline, set = in.set, push,
                        groups = groupsFor(threads)](VkCommandBuffer cmd, const PassResources& r) {
            bindCompute(cmd, r, pipelines->*pipeline, set, push);
            r.device().vkCmdDispatch(cmd, groups, 1, 1);
        });
        return pass;
    };

    PassBuilder clear = graph.addPass(in.label + "-clear");
    BufferHandle starts = clear.write(in.starts, Access::TransferDst);
    BufferHandle ranks = clear.write(in.ranks, Access::TransferDst);
    BufferHandle state = clear.write(in.state, Access::TransferDst);
    const VkDeviceSize objectBytes = pairSelectionObjectBytes(in.objectCount);
    clear.setRecord([=, startsIn = starts, ranksIn = ranks, stateIn = state](VkCommandBuffer cmd, const PassResources& r) {
        const gpu::PairSelectionStateGpu empty = {0u, 0u, gpu::kPairSelectNone, gpu::kPairSelectNone,
                                                  gpu::kPairSelectNone, 0u, 0u, 0u};
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(stateIn), r.bufferOffset(stateIn), sizeof(empty), &empty);
        r.device().vkCmdFillBuffer(cmd, r.buffer(startsIn), r.bufferOffset(startsIn), objectBytes, 0u);
        r.device().vkCmdFillBuffer(cmd, r.buffer(ranksIn), r.bufferOffset(ranksIn), objectBytes, 0u);
    });

    PassBuilder count = step("-count", &PairSelectionPipelines::count, in.candidateCapacity);
    count.read(in.candidates, Access::ComputeRead);
    count.read(in.verdicts, Access::ComputeRead);
    starts = count.write(starts, Access::ComputeReadWrite);
    state = count.write(state, Access::ComputeReadWrite);

    starts = addPrefixScanPasses(graph, {in.scan, in.startsScanSet, in.objectCount, starts, in.startSums,
                                         in.label + "-starts"}).data;

    PassBuilder cut = step("-cut", &PairSelectionPipelines::cut, in.objectCount);
    cut.read(starts, Access::ComputeRead);
    state = cut.write(state, Access::ComputeReadWrite);

    PassBuilder group = step("-group", &PairSelectionPipelines::group, in.candidateCapacity);
    group.read(in.candidates, Access::ComputeRead);
    group.read(in.verdicts, Access::ComputeRead);
    ranks = group.write(ranks, Access::ComputeReadWrite);
    state = group.write(state, Access::ComputeReadWrite);

    ranks = addPrefixScanPasses(graph, {in.scan, in.ranksScanSet, in.objectCount, ranks, in.rankSums,
                                        in.label + "-ranks"}).data;

    PassBuilder pick = step("-pick", &PairSelectionPipelines::pick, in.candidateCapacity);
    for (BufferHandle b : {in.candidates, in.verdicts, starts, ranks}) pick.read(b, Access::ComputeRead);
    state = pick.write(state, Access::ComputeReadWrite);
    BufferHandle selected = pick.write(in.selected, Access::ComputeWrite);

    PassBuilder sort = step("-sort", &PairSelectionPipelines::sort, in.maxPairs);
    sort.read(state, Access::ComputeRead);
    selected = sort.write(selected, Access::ComputeReadWrite);
    return {state, selected};
}

}  // namespace vkc
