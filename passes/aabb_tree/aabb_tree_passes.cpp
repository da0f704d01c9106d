// aabb-tree passes; see aabb_tree_passes.h. GLSL: aabb_refit.comp, aabb_indirect.comp,
// aabb_traverse.comp (bindings and push constants in shaders_glsl/shared/aabb_tree.h).
#include "passes/aabb_tree/aabb_tree_passes.h"

#include "passes/shared/dispatch_groups.h"

#include <volk.h>

#include <algorithm>
#include <cstddef>

namespace vkc {

namespace {

std::vector<DescriptorBinding> aabbBindings() {
    std::vector<DescriptorBinding> bindings;
    for (uint32_t b = gpu::kAabbBindingTrees; b <= gpu::kAabbBindingEntrances; ++b)
        bindings.push_back({0, b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1u});
    bindings.push_back({0, gpu::kBindingVertexBuffers, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kVariableDescriptorCount});
    return bindings;
}

void bind(VkCommandBuffer cmd, const PassResources& r, const Pipeline& pipeline, VkDescriptorSet set, const void* push,
          uint32_t pushSize) {
    r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &set, 0, nullptr);
    r.device().vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, pushSize, push);
}

}  // namespace

static_assert(sizeof(gpu::AabbRefitPush) == 16 && sizeof(gpu::AabbTraversePush) == 16 &&
              sizeof(gpu::AabbPairsPush) == 16);
const PipelineLayoutDesc kAabbPipelineLayout = {aabbBindings(), 16};

ReadbackLayout aabbTreeReadbackLayout(uint32_t maxCandidatePairs, uint32_t trianglePairCapacity) {
    ReadbackLayout layout;
    layout.add(sizeof(gpu::AabbTraversalStateGpu));
    layout.add(VkDeviceSize(maxCandidatePairs) * sizeof(gpu::AabbPairStatsGpu));
    layout.add(VkDeviceSize(trianglePairCapacity) * sizeof(gpu::AabbTrianglePairGpu));
    return layout;
}

AabbTreePassOutputs addAabbTreePasses(Graph& graph, const AabbTreePassInputs& inputs) {
    AabbTreePassInputs in = inputs;
    // What the CPU changed this frame (trees, pairs, seeds; nodes and leaves when the set of trees
    // changed) goes from staging to device-local memory, so every level reads VRAM, not the bus.
    std::vector<AabbUpload> uploads;
    for (const AabbUpload& u : inputs.uploads)
        if (u.bytes != 0) uploads.push_back(u);
    if (!uploads.empty()) {
        PassBuilder upload = graph.addPass(kAabbUploadPassName);
        for (AabbUpload& u : uploads) {
            upload.read(u.staging, Access::TransferSrc);
            const BufferHandle written = upload.write(u.device, Access::TransferDst);
            for (BufferHandle* h : {&in.trees, &in.nodes, &in.leaves, &in.refitList, &in.pairs, &in.seedLevels, &in.seeds,
                                    &in.objects, &in.entrances})
                if (h->index == u.device.index) *h = written;
        }
        upload.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            for (const AabbUpload& u : uploads) {
                VkBufferCopy copy = {r.bufferOffset(u.staging), r.bufferOffset(u.device), u.bytes};
                r.device().vkCmdCopyBuffer(cmd, r.buffer(u.staging), r.buffer(u.device), 1, &copy);
            }
        });
    }

    BufferHandle nodes = in.nodes;
    BufferHandle state = in.state;
    BufferHandle stats = in.pairStats;
    BufferHandle lists = in.nodePairs;
    BufferHandle triangles = in.trianglePairs;

    // Refit (paper 4, 4.1), bottom-up: level r of every refit tree reads level r-1's boxes, so
    // each level is its own pass and the graph puts a barrier between them.
    for (uint32_t r = 0; r < in.refitLevels && in.refitTreeCount != 0; ++r) {
        PassBuilder refit = graph.addPass(kAabbRefitPassName);
        refit.read(in.trees, Access::ComputeRead);
        refit.read(in.leaves, Access::ComputeRead);
        refit.read(in.refitList, Access::ComputeRead);
        for (BufferHandle v : in.vertices) refit.read(v, Access::ComputeRead);
        nodes = refit.write(nodes, Access::ComputeReadWrite);
        // The largest level at this height: ceil(leaves / 2^r) nodes.
        const uint32_t size = uint32_t((uint64_t(in.refitMaxLeaves) + (1ull << r) - 1) >> r);
        refit.setRecord([=](VkCommandBuffer cmd, const PassResources& res) {
            gpu::AabbRefitPush push{r, in.refitTreeCount, 0, 0};
            bind(cmd, res, *in.refitPipeline, in.set, &push, sizeof(push));
            res.device().vkCmdDispatch(cmd, std::min(groupsFor(size, gpu::kAabbRefitGroupSize), in.maxGroups),
                                       in.refitTreeCount, 1);
        });
    }

    // Counters start at zero every frame: state (dispatch args, list counts, totals) and per-pair stats.
    PassBuilder clear = graph.addPass(kAabbClearPassName);
    state = clear.write(state, Access::TransferDst);
    stats = clear.write(stats, Access::TransferDst);
    clear.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        r.device().vkCmdFillBuffer(cmd, r.buffer(state), 0, sizeof(gpu::AabbTraversalStateGpu), 0u);
        if (in.pairCount != 0)
            r.device().vkCmdFillBuffer(cmd, r.buffer(stats), 0, VkDeviceSize(in.pairCount) * sizeof(gpu::AabbPairStatsGpu), 0u);
    });

    // The object pairs, from the candidate list the GPU wrote: no CPU sees them before they are
    // traversed. One workgroup, so the seed table it sorts is deterministic.
    if (in.pairsPipeline && in.globalLevels != 0) {
        PassBuilder setup = graph.addPass(kAabbPairsPassName);
        for (BufferHandle b : {in.trees, in.objects, in.candidates, in.entrances}) setup.read(b, Access::ComputeRead);
        in.pairs = setup.write(in.pairs, Access::ComputeWrite);
        in.seedLevels = setup.write(in.seedLevels, Access::ComputeWrite);
        in.seeds = setup.write(in.seeds, Access::ComputeWrite);
        state = setup.write(state, Access::ComputeReadWrite);
        stats = setup.write(stats, Access::ComputeReadWrite);
        const gpu::AabbPairsPush push = in.pairsPush;
        setup.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            bind(cmd, r, *in.pairsPipeline, in.set, &push, sizeof(push));
            r.device().vkCmdDispatch(cmd, 1, 1, 1);
        });
    }

    // Traversal (paper 4, 4.2-4.3): the paper read an occlusion query back to size each level;
    // here aabb_indirect.comp writes the next dispatch's size on the GPU and the traversal runs
    // with vkCmdDispatchIndirect, so all levels are recorded now and nothing waits in between.
    // A level that found no overlaps leaves zero groups for the rest (empty dispatches).
    // The counts the paper took from occlusion queries (box pairs tested/overlapping per level,
    // intersecting triangle pairs) are atomic counters in the state and per-pair stats buffers,
    // copied to the read-back ring with the results: no query read-back, no extra synchronisation.
    for (uint32_t g = 0; g < in.globalLevels; ++g) {
        const gpu::AabbTraversePush push{g, in.globalLevels, in.listCapacity, in.trianglePairCapacity};
        PassBuilder prepare = graph.addPass(kAabbIndirectPassName);
        prepare.read(in.seedLevels, Access::ComputeRead);
        state = prepare.write(state, Access::ComputeReadWrite);
        prepare.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            bind(cmd, r, *in.indirectPipeline, in.set, &push, sizeof(push));
            r.device().vkCmdDispatch(cmd, 1, 1, 1);
        });

        PassBuilder traverse = graph.addPass(kAabbTraversePassName);
        for (BufferHandle b : {in.trees, nodes, in.leaves, in.pairs, in.seedLevels, in.seeds})
            traverse.read(b, Access::ComputeRead);
        for (BufferHandle v : in.vertices) traverse.read(v, Access::ComputeRead);
        traverse.read(state, Access::IndirectRead);
        state = traverse.write(state, Access::ComputeReadWrite);
        // The first level starts the node-pair lists from the seeds and the triangle list is append
        // only (its counter lives in the state): neither reads what an earlier frame left.
        const Access appended = g == 0 ? Access::ComputeWrite : Access::ComputeReadWrite;
        lists = traverse.write(lists, appended);
        triangles = traverse.write(triangles, appended);
        stats = traverse.write(stats, Access::ComputeReadWrite);
        traverse.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            bind(cmd, r, *in.traversePipeline, in.set, &push, sizeof(push));
            r.device().vkCmdDispatchIndirect(cmd, r.buffer(state),
                                             r.bufferOffset(state) + offsetof(gpu::AabbTraversalStateGpu, dispatch) +
                                                 VkDeviceSize(16) * g);
        });
    }

    // Counts and the kept list go to the mapped ring with a copy (no host read of device memory).
    if (!in.readbackLayout) return {state, stats, triangles, in.trees, nodes, in.leaves};
    const ReadbackCopy copies[] = {
        {kAabbReadbackState, state, sizeof(gpu::AabbTraversalStateGpu)},
        {kAabbReadbackPairStats, stats, VkDeviceSize(in.pairCount) * sizeof(gpu::AabbPairStatsGpu)},
        {kAabbReadbackTrianglePairs, triangles, VkDeviceSize(in.trianglePairCapacity) * sizeof(gpu::AabbTrianglePairGpu)}};
    addReadbackPass(graph, kAabbReadbackPassName, *in.readbackLayout, in.readback, copies);
    return {state, stats, triangles, in.trees, nodes, in.leaves};
}

}  // namespace vkc
