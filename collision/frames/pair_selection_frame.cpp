// A detector's pair selection; see pair_selection_frame.h.
#include "collision/frames/pair_selection_frame.h"

namespace vkc {

Result<PairSelectionPrograms> createPairSelectionPrograms(VulkanContext& ctx) {
    PairSelectionPrograms made;
    auto selection = createPairSelectionPipelines(ctx);
    if (!selection) return selection.status();
    made.selection = selection.value();
    auto scan = createPrefixScanPipelines(ctx);
    if (!scan) {
        destroyPairSelectionPrograms(ctx, made);
        return scan.status();
    }
    made.scan = scan.value();
    return made;
}

void destroyPairSelectionPrograms(VulkanContext& ctx, PairSelectionPrograms& programs) {
    destroyPairSelectionPipelines(ctx, programs.selection);
    destroyPrefixScanPipelines(ctx, programs.scan);
}

Status createPairSelectionSlot(const FrameSlotResources& make, VkDescriptorPool pool,
                               const PairSelectionPrograms& programs, const std::string& method,
                               PairSelectionSlot& slot) {
    const VkDescriptorSetLayout scanLayout = programs.scan.apply.setLayouts[0];
    VKC_TRY(make.descriptorSet(slot.set, pool, programs.selection.count.setLayouts[0],
                               (method + " pair selection set").c_str()));
    VKC_TRY(make.descriptorSet(slot.startsScanSet, pool, scanLayout, (method + " pair selection starts scan set").c_str()));
    return make.descriptorSet(slot.ranksScanSet, pool, scanLayout, (method + " pair selection ranks scan set").c_str());
}

PairSelectionInputs declarePairSelection(Graph& graph, const PairSelectionPrograms& programs,
                                         const PairSelectionSlot& slot, const std::string& method,
                                         BufferHandle candidates, uint32_t candidateCapacity, uint32_t objectCount,
                                         uint32_t maxPairs, uint32_t maxGroups) {
    const std::string prefix = method + " pair selection ";
    auto buffer = [&](const char* name, VkDeviceSize bytes) { return graph.createBuffer(prefix + name, {bytes}); };
    PairSelectionInputs in;
    in.pipelines = &programs.selection;
    in.scan = &programs.scan;
    in.set = slot.set;
    in.startsScanSet = slot.startsScanSet;
    in.ranksScanSet = slot.ranksScanSet;
    in.candidateCapacity = candidateCapacity;
    in.objectCount = objectCount;
    in.maxPairs = maxPairs;
    in.maxGroups = maxGroups;
    in.label = method + "-pair-select";
    in.candidates = candidates;
    in.verdicts = buffer("verdicts", std::max<VkDeviceSize>(16, VkDeviceSize(candidateCapacity) * 4));
    in.starts = buffer("starts", pairSelectionObjectBytes(objectCount));
    in.startSums = buffer("starts block sums", prefixScanBlockSumsBytes(objectCount));
    in.ranks = buffer("ranks", pairSelectionObjectBytes(objectCount));
    in.rankSums = buffer("ranks block sums", prefixScanBlockSumsBytes(objectCount));
    in.state = buffer("state", sizeof(gpu::PairSelectionStateGpu));
    in.selected = buffer("pairs", pairSelectionSelectedBytes(maxPairs));
    return in;
}

void writePairSelectionDescriptors(const GraphDescriptors& d, const PairSelectionSlot& slot,
                                   const PairSelectionInputs& in) {
    const std::pair<uint32_t, BufferHandle> bindings[] = {
        {gpu::kPairSelectBindingCandidates, in.candidates}, {gpu::kPairSelectBindingVerdicts, in.verdicts},
        {gpu::kPairSelectBindingStarts, in.starts},         {gpu::kPairSelectBindingRanks, in.ranks},
        {gpu::kPairSelectBindingState, in.state},           {gpu::kPairSelectBindingSelected, in.selected}};
    for (const auto& [binding, buffer] : bindings) d.storageBuffer(slot.set, binding, buffer);
    d.storageBuffer(slot.startsScanSet, gpu::kScanBindingData, in.starts);
    d.storageBuffer(slot.startsScanSet, gpu::kScanBindingBlockSums, in.startSums);
    d.storageBuffer(slot.ranksScanSet, gpu::kScanBindingData, in.ranks);
    d.storageBuffer(slot.ranksScanSet, gpu::kScanBindingBlockSums, in.rankSums);
}

}  // namespace vkc
