// AabbTreeDetector::record: one frame's trees, pairs, seeds and pass graph (paper 4, 4.1-4.3, 5).
// Refit policy: a frame slot's node buffer is refit on the GPU for exactly the trees whose mesh's
// deformedGeneration differs from the one its boxes were last computed for in that slot (and for
// meshes deformed every frame, always), so rigid meshes cost nothing per frame and each slot
// catches up on its own.
// Temporal coherence (section 5): each pair enters at the level results() chose from its counters.
#include "collision/aabb_tree/aabb_tree_detector_impl.h"

#include "collision/frames/frame_warnings.h"
#include "collision/aabb_tree/aabb_traversal_cpu.h"
#include "collision/aabb_tree/aabb_tree_detector_support.h"
#include "collision/frames/candidate_pairs.h"
#include "collision/frames/vulkan_graph.h"
#include "collision/frames/object_gpu.h"
#include "collision/scene/object_transform.h"
#include "collision/scene/scene_impl.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "passes/aabb_tree/aabb_tree_passes.h"
#include "vk/descriptors.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace vkc {

namespace {

// A buffer's size for `bytes` of contents: never empty, 16-byte aligned.
VkDeviceSize bufferBytes(VkDeviceSize bytes) { return std::max<VkDeviceSize>(16, aabbAlign16(bytes)); }

// Host data for one staging buffer, copied in once the graph has created it.
struct StagedData {
    BufferHandle staging;
    std::span<const std::byte> bytes;
};

}  // namespace

Status AabbTreeDetectorImpl::recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, const CandidateSet& candidates,
                                         uint64_t frame) {
    VulkanContext& c = *ctx;
    const size_t slotIndex = frame % slots.size();
    AabbFrameSlot& slot = slots[slotIndex];
    VKC_TRY(ringSlotAvailable(c, frames.ring, frame));
    // Trees, node buffers and entrance levels are keyed by mesh id and object pair, which mean
    // something else in another scene: forget them when the scene changes. (Within a scene, meshes
    // are append-only, so its older trees stay valid.)
    if (scene.id != sceneId) {
        trees.clear();
        entranceLevels.clear();
        for (AabbFrameSlot& other : slots) other.nodesValid = false;
        sceneId = scene.id;
    }

    // Object pairs: normalised (a < b), deduplicated, checked.
    auto checkedPairs = frameCandidatePairs({"aabb-tree", "AabbTreeSettings", settings}, uint32_t(scene.objects.size()),
                                            candidates);
    if (!checkedPairs) return checkedPairs.status();
    std::vector<ObjectPair> objectPairs = std::move(checkedPairs.value());

    // Trees of this frame, in first-use order, and the distinct vertex buffers they read.
    std::vector<MeshId> layout;
    std::unordered_map<MeshId, uint32_t> treeIndex;
    std::vector<const AabbCachedTree*> cached;
    VertexBufferSlots vertexSlots(frames.vertexBufferCapacity, "aabb-tree: the pairs read");
    std::vector<uint32_t> treeVertexSlot;
    for (const ObjectPair& p : objectPairs) {
        for (uint32_t object : {p.a, p.b}) {
            const MeshId mesh = scene.objects[object].mesh;
            if (treeIndex.count(mesh)) continue;
            auto t = tree(scene, mesh);
            if (!t) return t.status();
            treeIndex[mesh] = uint32_t(layout.size());
            layout.push_back(mesh);
            cached.push_back(t.value());
            auto vertexSlot = vertexSlots.slot(scene.meshes[mesh].vertexBuffer,
                                               "mesh \"" + scene.meshes[mesh].data.name + "\"");
            if (!vertexSlot) return vertexSlot.status();
            treeVertexSlot.push_back(vertexSlot.value());
        }
    }

    // Tree headers, nodes and leaves. A slot rewrites its nodes from the CPU trees only when the
    // set of trees changed; otherwise the boxes the GPU refit last are kept.
    std::vector<gpu::AabbTreeGpu> headers;
    uint32_t nodeCount = 0, leafCount = 0;
    for (uint32_t t = 0; t < layout.size(); ++t) {
        const SceneMesh& mesh = scene.meshes[layout[t]];
        headers.push_back(cached[t]->tree.gpuHeader(nodeCount, leafCount, vertexSource(mesh, treeVertexSlot[t])));
        nodeCount += uint32_t(cached[t]->tree.nodes.size());
        leafCount += uint32_t(cached[t]->tree.leaves.size());
    }
    std::vector<uint64_t> boxGenerations = slot.boxGenerations;
    // A slot rewrites its nodes from the CPU trees only when the set of trees changed; otherwise
    // the boxes the GPU refit last are kept in its persistent node buffer.
    const bool rewriteTrees = !slot.nodesValid || layout != slot.layout;
    std::vector<gpu::AabbNodeGpu> nodes;
    std::vector<glm::uvec4> leaves;
    if (rewriteTrees) {
        nodes.resize(nodeCount);
        leaves.resize(leafCount);
        boxGenerations.clear();
        for (uint32_t t = 0; t < layout.size(); ++t) {
            const AabbTree& tree = cached[t]->tree;
            std::copy(tree.nodes.begin(), tree.nodes.end(), nodes.begin() + headers[t].nodeOffset);
            std::copy(tree.leaves.begin(), tree.leaves.end(), leaves.begin() + headers[t].leafOffset);
            boxGenerations.push_back(cached[t]->builtGeneration);
        }
    }
    // GPU refit for the trees whose mesh moved on since this slot's boxes were computed.
    std::vector<uint32_t> refitList;
    uint32_t refitLevels = 0, refitMaxLeaves = 0;
    for (uint32_t t = 0; t < layout.size(); ++t) {
        const SceneMesh& mesh = scene.meshes[layout[t]];
        const uint64_t generation = mesh.deformedGeneration;
        if (boxGenerations[t] == generation && !mesh.deformedEveryFrame) continue;
        refitList.push_back(t);
        refitLevels = std::max(refitLevels, cached[t]->tree.levelCount);
        refitMaxLeaves = std::max(refitMaxLeaves, cached[t]->tree.triangleCount);
        boxGenerations[t] = generation;
    }
    if (refitList.size() > c.properties.limits.maxComputeWorkGroupCount[1])
        return makeError(ErrorCode::Unsupported, "aabb-tree: " + std::to_string(refitList.size()) +
                                                     " deformed meshes in one frame exceed the device's workgroup rows");

    // Object pairs with their relative transforms, slacks and entrance levels.
    std::vector<gpu::AabbPairGpu> gpuPairs;
    std::vector<uint32_t> entrance;
    std::vector<gpu::AabbNodeGpu> slackBoxes;  // once per tree: deformed CPU meshes scan their positions
    for (uint32_t t = 0; t < layout.size(); ++t)
        slackBoxes.push_back(slackBox(scene.meshes[layout[t]], cached[t]->tree, cached[t]->builtGeneration));
    for (const ObjectPair& p : objectPairs) {
        const MeshId meshA = scene.objects[p.a].mesh, meshB = scene.objects[p.b].mesh;
        const uint32_t ta = treeIndex[meshA], tb = treeIndex[meshB];
        const glm::dmat4 bToA = affineInverse(scene.objects[p.a].objectToWorld) * scene.objects[p.b].objectToWorld;
        auto pair = makeAabbPair(cached[ta]->tree, ta, cached[tb]->tree, tb, bToA, p.a, p.b);
        if (!pair) return pair.status();
        // The slack must cover the boxes the GPU refit produces, not the rest boxes.
        glm::vec2 slack = aabbBoxSlack(slackBoxes[ta], slackBoxes[tb], pair->bToA, pair->aToB);
        pair->slackA = std::max(pair->slackA, slack.x);
        pair->slackB = std::max(pair->slackB, slack.y);
        gpuPairs.push_back(pair.value());
        uint32_t level = 0;
        if (!settings.disableTemporalCoherence) {
            auto it = entranceLevels.find(p);
            if (it != entranceLevels.end()) level = std::min(it->second, pair->levelCount - 1);
        }
        entrance.push_back(level);
    }
    const uint32_t globalLevels = assignAabbGlobalLevels(gpuPairs);
    std::vector<AabbTreeView> views;
    for (const AabbCachedTree* t : cached) views.push_back({&t->tree, {}});
    auto seeds = buildAabbSeedTable(views, gpuPairs, entrance);
    if (!seeds) return seeds.status();

    slot.graph = std::make_unique<Graph>();
    Graph& graph = *slot.graph;
    AabbTreePassInputs in;
    in.refitPipeline = &refitPipeline;
    in.indirectPipeline = &indirectPipeline;
    in.traversePipeline = &traversePipeline;
    in.set = slot.set;
    in.refitTreeCount = uint32_t(refitList.size());
    in.refitLevels = refitLevels;
    in.refitMaxLeaves = refitMaxLeaves;
    in.globalLevels = globalLevels;
    in.listCapacity = settings.nodePairCapacity;
    in.trianglePairCapacity = trianglePairCapacity();
    in.pairCount = uint32_t(gpuPairs.size());
    in.maxGroups = std::min(c.properties.limits.maxComputeWorkGroupCount[0], gpu::kAabbMaxGroups);
    // Device-local inputs the shaders read, each filled from host-written staging by aabb-upload.
    std::vector<StagedData> staged;
    auto upload = [&](BufferHandle device, const std::string& name, auto contents) {
        const std::span<const std::byte> bytes = std::as_bytes(std::span(contents));
        BufferHandle staging = graph.createBuffer(name + " upload", {bufferBytes(bytes.size()), 0, /*hostWrite*/ true});
        in.uploads.push_back({staging, device, bytes.size()});
        staged.push_back({staging, bytes});
        return device;
    };
    auto input = [&](const std::string& name, auto contents) {
        return upload(graph.createBuffer(name, {bufferBytes(std::span(contents).size_bytes())}), name, contents);
    };
    in.trees = input("aabb-tree trees", std::span<const gpu::AabbTreeGpu>(headers));
    in.nodes = graph.persistentBuffer("aabb-tree nodes", {bufferBytes(VkDeviceSize(nodeCount) * sizeof(gpu::AabbNodeGpu))});
    in.leaves = graph.persistentBuffer("aabb-tree leaves", {bufferBytes(VkDeviceSize(leafCount) * sizeof(glm::uvec4))});
    if (rewriteTrees) {
        upload(in.nodes, "aabb-tree nodes", std::span<const gpu::AabbNodeGpu>(nodes));
        upload(in.leaves, "aabb-tree leaves", std::span<const glm::uvec4>(leaves));
    }
    in.refitList = input("aabb-tree refit list", std::span<const uint32_t>(refitList));
    in.pairs = input("aabb-tree pairs", std::span<const gpu::AabbPairGpu>(gpuPairs));
    in.seedLevels = input("aabb-tree seed levels", std::span<const gpu::AabbSeedLevelGpu>(seeds->levels));
    in.seeds = input("aabb-tree seeds", std::span<const gpu::AabbSeedGpu>(seeds->seeds));
    // The state holds the per-level VkDispatchIndirectCommands aabb_indirect.comp writes.
    in.state = graph.createBuffer("aabb-tree traversal state", {bufferBytes(kAabbStateBytes)});
    // One buffer, two ping-pong halves (aabb_traverse.comp: list k starts at k * capacity).
    in.nodePairs = graph.createBuffer("aabb-tree node pair lists",
                                      {bufferBytes(2ull * settings.nodePairCapacity * sizeof(gpu::AabbNodePairGpu))});
    in.trianglePairs = graph.createBuffer(
        "aabb-tree triangle pairs", {bufferBytes(VkDeviceSize(trianglePairCapacity()) * sizeof(gpu::AabbTrianglePairGpu))});
    in.pairStats = graph.createBuffer(
        "aabb-tree pair stats", {bufferBytes(VkDeviceSize(settings.maxCandidatePairs) * sizeof(gpu::AabbPairStatsGpu))});
    in.vertices = importVertexBuffers(graph, vertexSlots.buffers());
    in.readback = importReadbackSlot(graph, "aabb-tree readback slot", frames.ring, frame);
    in.readbackLayout = &frames.readback;
    addAabbTreePasses(graph, in);
    VKC_TRY(graph.compile(slotResources(frames, frame)));
    // Node boxes are kept only while the tree set is unchanged, which also keeps the buffer's size.
    if (!rewriteTrees && graph.created(in.nodes))
        return makeError(ErrorCode::Unsupported, "aabb-tree: the slot's node buffer was recreated without its trees");

    for (const StagedData& data : staged) VKC_TRY(fillHostBuffer(*frames.allocator, graph, data.staging, data.bytes));
    const GraphDescriptors d(c, graph, frames.placeholder.buffer);
    const BufferHandle bound[] = {in.trees, in.nodes, in.leaves, in.refitList, in.pairs, in.seedLevels,
                                  in.seeds, in.state, in.nodePairs, in.trianglePairs, in.pairStats};
    static_assert(gpu::kAabbBindingPairStats == 10);
    for (uint32_t b = 0; b < 11; ++b) d.storageBuffer(slot.set, b, bound[b]);
    writeStorageBufferArray(c, slot.set, gpu::kBindingVertexBuffers, vertexSlots.buffers());
    VKC_TRY(executeFrameGraph(c, frames, frame, graph, cmd));
    noteFrameInputs(frames, frame, scene, objectPairs, "aabb-tree");
    slot.layout = std::move(layout);
    slot.nodesValid = true;
    slot.boxGenerations = std::move(boxGenerations);
    slot.objectPairs = std::move(objectPairs);
    slot.gpuPairs = std::move(gpuPairs);
    slot.entrance = std::move(entrance);
    slot.globalLevels = globalLevels;
    slot.refitTrees = uint32_t(refitList.size());
    return Status::success();
}

}  // namespace vkc
