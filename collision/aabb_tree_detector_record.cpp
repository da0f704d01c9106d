// AabbTreeDetector::record: one frame's trees, pairs, seeds and pass graph (paper 4, 4.1-4.3, 5).
// Refit policy: a frame slot's node buffer is refit on the GPU for exactly the trees whose mesh's
// deformedGeneration differs from the one its boxes were last computed for in that slot, so
// rigid meshes cost nothing per frame and each slot catches up on its own.
// Temporal coherence (section 5): each pair enters at the level results() chose from its counters.
#include "collision/aabb_tree_detector_impl.h"

#include "collision/aabb_traversal_cpu.h"
#include "collision/aabb_tree_detector_support.h"
#include "collision/graph_execution.h"
#include "collision/object_gpu.h"
#include "collision/object_transform.h"
#include "collision/scene_impl.h"
#include "collision/vertex_buffer_slots.h"
#include "passes/aabb_tree_passes.h"
#include "vk/descriptors.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace vkc {

namespace {

SyncState either(Access a, Access b) {
    SyncState x = syncStateOf(a), y = syncStateOf(b);
    return {x.stages | y.stages, x.access | y.access, VK_IMAGE_LAYOUT_UNDEFINED};
}

Status upload(VulkanContext& ctx, const Buffer& buffer, const void* data, size_t bytes) {
    if (bytes == 0) return Status::success();
    std::memcpy(buffer.data, data, bytes);
    return flushBuffer(ctx, buffer, 0, VK_WHOLE_SIZE);
}

}  // namespace

Status AabbTreeDetectorImpl::recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, std::span<const ObjectPair> requested,
                                         uint64_t frame) {
    VulkanContext& c = *ctx;
    const size_t slotIndex = frame % slots.size();
    AabbFrameSlot& slot = slots[slotIndex];
    VKC_TRY(ringSlotAvailable(c, ring, frame));
    // Trees, node buffers and entrance levels are keyed by mesh id and object pair, which mean
    // something else in another scene: forget them when the scene changes. (Within a scene, meshes
    // are append-only, so its older trees stay valid.)
    if (scene.id != sceneId) {
        trees.clear();
        entranceLevels.clear();
        for (AabbFrameSlot& other : slots) other.layout.clear();
        sceneId = scene.id;
    }

    // Object pairs: normalised (a < b), deduplicated, checked.
    std::vector<ObjectPair> objectPairs;
    for (ObjectPair p : requested) {
        if (p.a == p.b) continue;
        if (p.a > p.b) std::swap(p.a, p.b);
        if (p.b >= scene.objects.size())
            return makeError(ErrorCode::InvalidArgument, "aabb-tree: pair (" + std::to_string(p.a) + ", " +
                                                             std::to_string(p.b) + ") names an object the scene lacks (" +
                                                             std::to_string(scene.objects.size()) + " objects)");
        objectPairs.push_back(p);
    }
    std::sort(objectPairs.begin(), objectPairs.end());
    objectPairs.erase(std::unique(objectPairs.begin(), objectPairs.end()), objectPairs.end());
    if (objectPairs.size() > settings.maxObjectPairs)
        return makeError(ErrorCode::InvalidArgument, "aabb-tree: " + std::to_string(objectPairs.size()) +
                                                         " object pairs, more than AabbTreeSettings::maxObjectPairs (" +
                                                         std::to_string(settings.maxObjectPairs) + ")");

    // Trees of this frame, in first-use order, and the distinct vertex buffers they read.
    std::vector<MeshId> layout;
    std::unordered_map<MeshId, uint32_t> treeIndex;
    std::vector<const AabbCachedTree*> cached;
    VertexBufferSlots vertexSlots(vertexBufferCapacity, "aabb-tree: the pairs read");
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
    const std::string suffix = " [frame slot " + std::to_string(slotIndex) + "]";
    VKC_TRY(ensureMirrored(slot.trees, slot.treesGpu, headers.size() * sizeof(gpu::AabbTreeGpu), "aabb-tree trees" + suffix));
    VKC_TRY(upload(c, slot.trees, headers.data(), headers.size() * sizeof(gpu::AabbTreeGpu)));
    std::vector<uint64_t> boxGenerations = slot.boxGenerations;
    const bool rewriteTrees = layout != slot.layout || slot.nodes.buffer == VK_NULL_HANDLE;
    if (rewriteTrees) {
        VKC_TRY(ensureMirrored(slot.nodes, slot.nodesGpu, VkDeviceSize(nodeCount) * sizeof(gpu::AabbNodeGpu),
                               "aabb-tree nodes" + suffix));
        VKC_TRY(ensureMirrored(slot.leaves, slot.leavesGpu, VkDeviceSize(leafCount) * sizeof(glm::uvec4),
                               "aabb-tree leaves" + suffix));
        auto* nodes = static_cast<gpu::AabbNodeGpu*>(slot.nodes.data);
        auto* leaves = static_cast<glm::uvec4*>(slot.leaves.data);
        boxGenerations.clear();
        for (uint32_t t = 0; t < layout.size(); ++t) {
            const AabbTree& tree = cached[t]->tree;
            std::copy(tree.nodes.begin(), tree.nodes.end(), nodes + headers[t].nodeOffset);
            std::copy(tree.leaves.begin(), tree.leaves.end(), leaves + headers[t].leafOffset);
            boxGenerations.push_back(cached[t]->builtGeneration);
        }
        VKC_TRY(flushBuffer(c, slot.nodes));
        VKC_TRY(flushBuffer(c, slot.leaves));
    }
    // GPU refit for the trees whose mesh moved on since this slot's boxes were computed.
    std::vector<uint32_t> refitList;
    uint32_t refitLevels = 0, refitMaxLeaves = 0;
    for (uint32_t t = 0; t < layout.size(); ++t) {
        const uint64_t generation = scene.meshes[layout[t]].deformedGeneration;
        if (boxGenerations[t] == generation) continue;
        refitList.push_back(t);
        refitLevels = std::max(refitLevels, cached[t]->tree.levelCount);
        refitMaxLeaves = std::max(refitMaxLeaves, cached[t]->tree.triangleCount);
        boxGenerations[t] = generation;
    }
    if (refitList.size() > c.properties.limits.maxComputeWorkGroupCount[1])
        return makeError(ErrorCode::Unsupported, "aabb-tree: " + std::to_string(refitList.size()) +
                                                     " deformed meshes in one frame exceed the device's workgroup rows");
    VKC_TRY(ensureMirrored(slot.refitList, slot.refitListGpu, refitList.size() * 4, "aabb-tree refit list" + suffix));
    VKC_TRY(upload(c, slot.refitList, refitList.data(), refitList.size() * 4));

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
    VKC_TRY(ensureMirrored(slot.pairs, slot.pairsGpu, gpuPairs.size() * sizeof(gpu::AabbPairGpu), "aabb-tree pairs" + suffix));
    VKC_TRY(upload(c, slot.pairs, gpuPairs.data(), gpuPairs.size() * sizeof(gpu::AabbPairGpu)));
    VKC_TRY(upload(c, slot.seedLevels, seeds->levels.data(), sizeof(seeds->levels)));
    VKC_TRY(ensureMirrored(slot.seeds, slot.seedsGpu, seeds->seeds.size() * sizeof(gpu::AabbSeedGpu), "aabb-tree seeds" + suffix));
    VKC_TRY(upload(c, slot.seeds, seeds->seeds.data(), seeds->seeds.size() * sizeof(gpu::AabbSeedGpu)));

    // Descriptors (the slot is idle, so rewriting its set is allowed).
    const Buffer* bound[] = {&slot.treesGpu, &slot.nodesGpu, &slot.leavesGpu, &slot.refitListGpu, &slot.pairsGpu,
                             &slot.seedLevelsGpu, &slot.seedsGpu, &slot.state, &slot.nodePairs, &slot.trianglePairs,
                             &slot.pairStats};
    static_assert(gpu::kAabbBindingPairStats == 10);
    for (uint32_t b = 0; b < 11; ++b) writeBufferDescriptor(c, slot.set, b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, *bound[b]);
    writeStorageBufferArray(c, slot.set, gpu::kBindingVertexBuffers, vertexSlots.buffers());

    // The graph. Persistent per-slot buffers state what the slot's previous frame last did with them.
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
    // Device-local inputs were last read by compute or written by the upload copy; their staging
    // buffers were last read by that copy (the host writes them only once the slot is idle).
    const SyncState deviceInput = either(Access::ComputeRead, Access::TransferDst);
    in.trees = importPersistentBuffer(graph, "aabb-tree trees", slot.treesGpu, deviceInput);
    in.nodes = importPersistentBuffer(graph, "aabb-tree nodes", slot.nodesGpu, either(Access::ComputeReadWrite, Access::TransferDst));
    in.leaves = importPersistentBuffer(graph, "aabb-tree leaves", slot.leavesGpu, deviceInput);
    in.refitList = importPersistentBuffer(graph, "aabb-tree refit list", slot.refitListGpu, deviceInput);
    in.pairs = importPersistentBuffer(graph, "aabb-tree pairs", slot.pairsGpu, deviceInput);
    in.seedLevels = importPersistentBuffer(graph, "aabb-tree seed levels", slot.seedLevelsGpu, deviceInput);
    in.seeds = importPersistentBuffer(graph, "aabb-tree seeds", slot.seedsGpu, deviceInput);
    const SyncState staged = syncStateOf(Access::TransferSrc);
    auto upload = [&](const char* name, const Buffer& staging, BufferHandle device, VkDeviceSize bytes) {
        in.uploads.push_back({importPersistentBuffer(graph, name, staging, staged), device, bytes});
    };
    upload("aabb-tree trees upload", slot.trees, in.trees, headers.size() * sizeof(gpu::AabbTreeGpu));
    if (rewriteTrees) {
        upload("aabb-tree nodes upload", slot.nodes, in.nodes, VkDeviceSize(nodeCount) * sizeof(gpu::AabbNodeGpu));
        upload("aabb-tree leaves upload", slot.leaves, in.leaves, VkDeviceSize(leafCount) * sizeof(glm::uvec4));
    }
    upload("aabb-tree refit list upload", slot.refitList, in.refitList, refitList.size() * 4);
    upload("aabb-tree pairs upload", slot.pairs, in.pairs, gpuPairs.size() * sizeof(gpu::AabbPairGpu));
    upload("aabb-tree seed levels upload", slot.seedLevels, in.seedLevels, sizeof(seeds->levels));
    upload("aabb-tree seeds upload", slot.seeds, in.seeds, seeds->seeds.size() * sizeof(gpu::AabbSeedGpu));
    in.state = importPersistentBuffer(graph, "aabb-tree traversal state", slot.state, either(Access::TransferSrc, Access::IndirectRead));
    in.nodePairs = importPersistentBuffer(graph, "aabb-tree node pair lists", slot.nodePairs, syncStateOf(Access::ComputeReadWrite));
    in.trianglePairs = importPersistentBuffer(graph, "aabb-tree triangle pairs", slot.trianglePairs,
                                  either(Access::TransferSrc, Access::ComputeReadWrite));
    in.pairStats = importPersistentBuffer(graph, "aabb-tree pair stats", slot.pairStats, either(Access::TransferSrc, Access::ComputeReadWrite));
    in.vertices = importVertexBuffers(graph, vertexSlots.buffers());
    in.readback = importReadbackSlot(graph, "aabb-tree readback slot", ring, frame);
    in.readbackStatsOffset = readbackStatsOffset;
    in.readbackTrianglesOffset = readbackTrianglesOffset;
    addAabbTreePasses(graph, in);
    VKC_TRY(graph.compile());
    VKC_TRY(graph.execute(cmd, graphExecuteContext(c, slot.timestamps)));

    slot.layout = std::move(layout);
    slot.boxGenerations = std::move(boxGenerations);
    slot.objectPairs = std::move(objectPairs);
    slot.gpuPairs = std::move(gpuPairs);
    slot.entrance = std::move(entrance);
    slot.globalLevels = globalLevels;
    slot.refitTrees = uint32_t(refitList.size());
    return Status::success();
}

}  // namespace vkc
