// AabbTreeDetector::record: one frame's traversal (aabb_traversal_frame.h: trees, refit policy,
// candidate pairs set up on the GPU, passes) with its read-back into the ring slot.
// Temporal coherence (section 5): each pair enters at the level results() chose from its counters,
// looked up on the GPU in a table of those choices.
#include "collision/aabb_tree/aabb_tree_detector_impl.h"

#include "collision/frames/frame_warnings.h"
#include "collision/frames/vulkan_graph.h"
#include "collision/scene/scene_impl.h"

namespace vkc {

Status AabbTreeDetectorImpl::recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, const CandidateSource& candidates,
                                         uint64_t frame) {
    VulkanContext& c = *ctx;
    AabbFrameSlot& slot = slots[frame % slots.size()];
    VKC_TRY(ringSlotAvailable(c, frames.ring, frame));
    auto graph = std::make_unique<Graph>();
    auto added = addFrameCandidates(*graph, {"aabb-tree", "AabbTreeSettings", settings}, scene, candidates);
    if (!added) return added.status();
    // Trees, node buffers and entrance levels are keyed by mesh id and object pair, which mean
    // something else in another scene: forget them when the scene changes. (Within a scene, meshes
    // are append-only, so its older trees stay valid.)
    if (trees.enterScene(scene)) {
        entranceLevels.clear();
        for (AabbFrameSlot& other : slots) other.traversal.nodesValid = false;
    }

    AabbTraversalRequest request;
    request.method = "aabb-tree";
    request.pairsPipeline = &pairsPipeline;
    request.refitPipeline = &refitPipeline;
    request.indirectPipeline = &indirectPipeline;
    request.traversePipeline = &traversePipeline;
    request.nodePairCapacity = settings.nodePairCapacity;
    request.trianglePairCapacity = trianglePairCapacity();
    request.pairCapacity = settings.maxCandidatePairs;
    request.vertexBufferCapacity = frames.vertexBufferCapacity;
    if (!settings.disableTemporalCoherence) request.entranceLevels = &entranceLevels;
    request.readback = importReadbackSlot(*graph, "aabb-tree readback slot", frames.ring, frame);
    request.readbackLayout = &frames.readback;
    const CandidateBuffers& pairs = added->buffers;
    auto recorded = addAabbTraversal(*graph, c, trees, slot.traversal, scene, {pairs.pairs, pairs.pairCapacity}, request);
    if (!recorded) return recorded.status();
    VKC_TRY(graph->compile(slotResources(frames, frame)));
    VKC_TRY(fillHostCandidates(*frames.allocator, *graph, added.value()));
    VKC_TRY(bindAabbTraversal(c, *frames.allocator, *graph, frames.placeholder.buffer, recorded.value(), slot.traversal));
    VKC_TRY(executeFrameGraph(c, frames, frame, *graph, cmd));
    noteFrameInputs(frames, frame, scene, "aabb-tree");
    slot.nodePairCapacity = settings.nodePairCapacity;
    slot.graph = std::move(graph);
    return Status::success();
}

}  // namespace vkc
