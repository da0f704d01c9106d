// Broadphase passes; see broadphase_passes.h. GLSL: broadphase_bounds.comp, broadphase_centre_box.comp,
// broadphase_morton.comp, radix_sort_*.comp, broadphase_tree_build.comp, broadphase_tree_fit.comp,
// broadphase_pairs.comp, broadphase_pair_group.comp; the pair offsets are a prefix scan
// (prefix_scan_passes.h).
#include "passes/broadphase/broadphase_passes.h"

#include "passes/graph/compute_binding.h"
#include "passes/shared/dispatch_groups.h"
#include "vk/descriptors.h"

#include <volk.h>

#include <algorithm>

namespace vkc {

static_assert(sizeof(gpu::TreeNode) == 48);

const PipelineLayoutDesc kBroadphaseBoundsLayout = {
    {{0, gpu::kBindingObjects, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingBounds, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingChunkStarts, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingVertexBuffers, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kVariableDescriptorCount}},
    sizeof(gpu::BroadphasePush)};
const PipelineLayoutDesc kBroadphaseTreeLayout = {
    {{0, gpu::kBindingBounds, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingPairs, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingCentreBox, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingSortedCodes, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingTreeNodes, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingLeafParents, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingFitVisits, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingLeafBoxes, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingPairOffsets, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
     {0, gpu::kBindingGroupedPairs, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}},
    sizeof(gpu::BroadphasePush)};

uint32_t broadphaseObjectLimit(const VulkanContext& ctx) {
    const VkPhysicalDeviceLimits& limits = ctx.properties.limits;
    const uint64_t threads = uint64_t(limits.maxComputeWorkGroupCount[0]) * gpu::kTreeGroupSize;
    // The largest per-object buffer, the tree's nodes, within one storage-buffer binding.
    return uint32_t(std::min<uint64_t>(threads, objectsPerBinding(ctx, sizeof(gpu::TreeNode))));
}

ReadbackLayout broadphaseReadbackLayout(uint32_t maxObjects, uint32_t pairCapacity) {
    ReadbackLayout layout;
    layout.add(broadphaseBoundsBytes(maxObjects));
    layout.add(broadphasePairsBytes(pairCapacity));
    return layout;
}

void addBroadphasePasses(Graph& graph, const BroadphasePassInputs& in) {
    const uint32_t objectCount = in.push.objectCount;
    const uint32_t objectGroups = groupsFor(objectCount, gpu::kTreeGroupSize);
    BufferHandle bounds = in.bounds;
    BufferHandle pairs = in.pairs;
    BufferHandle centreBox = in.centreBox;
    BufferHandle visits = in.fitVisits;
    BufferHandle pairOffsets = in.pairOffsets;
    BufferHandle groupedPairs = in.groupedPairs;

    // Reset: mins to the largest encoded float, maxes to the smallest (bounds and centre box), the
    // fit's visit counts, the per-object pair counts and both lists' pair counts to zero.
    PassBuilder clear = graph.addPass("broadphase-clear");
    bounds = clear.write(bounds, Access::TransferDst);
    pairs = clear.write(pairs, Access::TransferDst);
    centreBox = clear.write(centreBox, Access::TransferDst);
    visits = clear.write(visits, Access::TransferDst);
    pairOffsets = clear.write(pairOffsets, Access::TransferDst);
    groupedPairs = clear.write(groupedPairs, Access::TransferDst);
    clear.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        const VkDeviceSize half = broadphaseBoundsBytes(objectCount) / 2;
        if (half != 0) {  // zero-sized fills are invalid; an empty scene has no bounds
            r.device().vkCmdFillBuffer(cmd, r.buffer(bounds), 0, half, 0xffffffffu);
            r.device().vkCmdFillBuffer(cmd, r.buffer(bounds), half, half, 0u);
        }
        r.device().vkCmdFillBuffer(cmd, r.buffer(centreBox), 0, 12, 0xffffffffu);
        r.device().vkCmdFillBuffer(cmd, r.buffer(centreBox), 12, 12, 0u);
        r.device().vkCmdFillBuffer(cmd, r.buffer(visits), 0, VK_WHOLE_SIZE, 0u);
        r.device().vkCmdFillBuffer(cmd, r.buffer(pairOffsets), 0, VK_WHOLE_SIZE, 0u);
        gpu::PairListHeader header = {0u, in.pairCapacity, 0u, 0u};
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(pairs), 0, sizeof(header), &header);
        r.device().vkCmdUpdateBuffer(cmd, r.buffer(groupedPairs), 0, sizeof(header), &header);
    });

    PassBuilder boundsPass = graph.addPass("broadphase-bounds");
    boundsPass.read(in.objects, Access::ComputeRead);
    if (in.push.boundsChunks != objectCount) boundsPass.read(in.chunkStarts, Access::ComputeRead);
    for (BufferHandle vertices : in.meshVertices) boundsPass.read(vertices, Access::ComputeRead);
    bounds = boundsPass.write(bounds, Access::ComputeReadWrite);
    boundsPass.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        if (objectCount == 0) return;
        bindCompute(cmd, r, *in.boundsPipeline, in.boundsSet, in.push);
        const uint32_t groups = groupsFor(in.push.boundsChunks, gpu::kBoundsGroupSize);
        const uint32_t columns = std::min(groups, in.maxGroupsX);  // rows past the device's x limit
        r.device().vkCmdDispatch(cmd, columns, groupsFor(groups, columns), 1);
    });

    // One pass per tree step, each a dispatch of one thread per object (or node) over the tree set.
    const BroadphaseTreePipelines& tree = *in.treePipelines;
    // (Each record captures only what it dispatches: `in` holds every vertex buffer of the scene.)
    auto treePass = [&](const char* name, const Pipeline& pipeline, bool needsTwoObjects) {
        PassBuilder pass = graph.addPass(name);
        pass.setRecord([&pipeline, set = in.treeSet, push = in.push, objectCount, objectGroups,
                        needsTwoObjects](VkCommandBuffer cmd, const PassResources& r) {
            if (objectCount == 0 || (needsTwoObjects && objectCount < 2)) return;
            bindCompute(cmd, r, pipeline, set, push);
            r.device().vkCmdDispatch(cmd, objectGroups, 1, 1);
        });
        return pass;
    };

    PassBuilder centre = treePass("broadphase-centre-box", tree.centreBox, false);
    centre.read(bounds, Access::ComputeRead);
    centreBox = centre.write(centreBox, Access::ComputeReadWrite);

    PassBuilder morton = treePass("broadphase-morton", tree.morton, false);
    morton.read(bounds, Access::ComputeRead);
    morton.read(centreBox, Access::ComputeRead);
    const BufferHandle unsortedCodes = morton.write(in.codes, Access::ComputeWrite);

    RadixSortInputs sort;
    sort.pipelines = in.sortPipelines;
    sort.keysToScratch = in.codesToScratch;
    sort.scratchToKeys = in.scratchToCodes;
    sort.count = objectCount;
    sort.keyBits = 30;  // 10 bits per axis
    sort.keys = unsortedCodes;
    sort.scratch = in.codesScratch;
    sort.histogram = in.sortHistogram;
    sort.histogramScan = in.histogramScan;
    sort.histogramBlockSums = in.sortHistogramBlockSums;
    sort.label = "broadphase-sort";
    const BufferHandle codes = addRadixSortPasses(graph, sort);

    PassBuilder build = treePass("broadphase-tree-build", tree.build, true);
    build.read(codes, Access::ComputeRead);
    const BufferHandle builtNodes = build.write(in.treeNodes, Access::ComputeWrite);
    const BufferHandle leafParents = build.write(in.leafParents, Access::ComputeWrite);

    PassBuilder fit = treePass("broadphase-tree-fit", tree.fit, false);
    fit.read(bounds, Access::ComputeRead);
    fit.read(codes, Access::ComputeRead);
    fit.read(leafParents, Access::ComputeRead);
    const BufferHandle nodes = fit.write(builtNodes, Access::ComputeReadWrite);
    fit.write(visits, Access::ComputeReadWrite);
    const BufferHandle leafBoxes = fit.write(in.leafBoxes, Access::ComputeWrite);  // read only after its own writes

    PassBuilder search = treePass("broadphase-pairs", tree.pairs, true);
    search.read(nodes, Access::ComputeRead);
    search.read(leafBoxes, Access::ComputeRead);
    pairs = search.write(pairs, Access::ComputeReadWrite);
    pairOffsets = search.write(pairOffsets, Access::ComputeReadWrite);

    // Each object's pair count becomes where its pairs start.
    pairOffsets = addPrefixScanPasses(graph, {&in.sortPipelines->scan, in.pairOffsetsScan, objectCount, pairOffsets,
                                              in.pairOffsetsBlockSums, "broadphase-pair-offsets"})
                      .data;

    PassBuilder group = graph.addPass("broadphase-pair-group");
    group.read(pairs, Access::ComputeRead);
    pairOffsets = group.write(pairOffsets, Access::ComputeReadWrite);
    groupedPairs = group.write(groupedPairs, Access::ComputeWrite);
    group.setRecord([&pipeline = tree.pairGroup, set = in.treeSet, push = in.push, objectCount,
                     groups = std::clamp(groupsFor(in.pairCapacity, gpu::kTreeGroupSize), 1u, in.maxGroupsX)](
                        VkCommandBuffer cmd, const PassResources& r) {
        if (objectCount < 2) return;
        bindCompute(cmd, r, pipeline, set, push);
        r.device().vkCmdDispatch(cmd, groups, 1, 1);
    });

    // Results go to the mapped ring with a copy, not a host read of device memory (DESIGN.md).
    const ReadbackCopy copies[] = {{kBroadphaseReadbackBounds, bounds, broadphaseBoundsBytes(objectCount)},
                                   {kBroadphaseReadbackPairs, groupedPairs, broadphasePairsBytes(in.pairCapacity)}};
    addReadbackPass(graph, "broadphase-readback", *in.readbackLayout, in.readback, copies);
}

}  // namespace vkc
