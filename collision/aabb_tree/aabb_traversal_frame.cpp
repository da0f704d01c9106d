// One frame's AABB-tree traversal in a caller's graph; see aabb_traversal_frame.h.
#include "collision/aabb_tree/aabb_traversal_frame.h"

#include "collision/aabb_tree/aabb_traversal_cpu.h"
#include "collision/aabb_tree/aabb_tree_detector_support.h"
#include "collision/frames/object_gpu.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "collision/scene/object_transform.h"
#include "collision/scene/scene_impl.h"
#include "vk/descriptors.h"

#include <algorithm>
#include <unordered_map>

namespace vkc {

namespace {

VkDeviceSize align16(VkDeviceSize bytes) { return (bytes + 15) & ~VkDeviceSize(15); }

// A buffer's size for `bytes` of contents: never empty, 16-byte aligned.
VkDeviceSize bufferBytes(VkDeviceSize bytes) { return std::max<VkDeviceSize>(16, align16(bytes)); }

}  // namespace

bool AabbTreeCache::enterScene(const SceneImpl& scene) {
    if (scene.id == sceneId) return false;
    trees.clear();
    sceneId = scene.id;
    return true;
}

Result<const AabbCachedTree*> AabbTreeCache::tree(const SceneImpl& scene, MeshId mesh) {
    auto it = trees.find(mesh);
    if (it != trees.end()) return &it->second;
    auto built = buildAabbTree(scene.meshes[mesh].data);
    if (!built) return built.status();
    AabbCachedTree& cached = trees[mesh];
    cached.tree = std::move(built.value());
    // The CPU copy of a mesh read from the host's buffer is its rest pose: once the host has
    // deformed it, the built boxes match no generation, so every slot refits them on the GPU.
    const SceneMesh& m = scene.meshes[mesh];
    const bool cpuCurrent = m.ownsPositions() || m.deformedGeneration == 0;
    cached.builtGeneration = cpuCurrent ? m.deformedGeneration : kAabbUnknownGeneration;
    return &cached;
}

Result<AabbTraversalRecording> addAabbTraversal(Graph& graph, const VulkanContext& ctx, AabbTreeCache& cache,
                                                const AabbTraversalSlot& slot, const SceneImpl& scene,
                                                std::vector<ObjectPair> objectPairs, const AabbTraversalRequest& request) {
    const std::string method = request.method;
    // Buffer names: "aabb-tree nodes" for the method itself, "ebpi aabb-tree nodes" for a user.
    const std::string prefix = method == "aabb-tree" ? method : method + " aabb-tree";
    AabbTraversalRecording rec;
    AabbTraversalSlot& next = rec.next;

    // Trees of this frame, in first-use order, and the distinct vertex buffers they read.
    std::unordered_map<MeshId, uint32_t> treeIndex;
    std::vector<const AabbCachedTree*> cached;
    VertexBufferSlots vertexSlots(request.vertexBufferCapacity, method + ": the pairs read");
    std::vector<uint32_t> treeVertexSlot;
    for (const ObjectPair& p : objectPairs) {
        for (uint32_t object : {p.a, p.b}) {
            const MeshId mesh = scene.objects[object].mesh;
            if (treeIndex.count(mesh)) continue;
            auto t = cache.tree(scene, mesh);
            if (!t) return t.status();
            treeIndex[mesh] = uint32_t(next.layout.size());
            next.layout.push_back(mesh);
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
    for (uint32_t t = 0; t < next.layout.size(); ++t) {
        const SceneMesh& mesh = scene.meshes[next.layout[t]];
        headers.push_back(cached[t]->tree.gpuHeader(nodeCount, leafCount, vertexSource(mesh, treeVertexSlot[t])));
        nodeCount += uint32_t(cached[t]->tree.nodes.size());
        leafCount += uint32_t(cached[t]->tree.leaves.size());
    }
    next.boxGenerations = slot.boxGenerations;
    rec.rewriteTrees = !slot.nodesValid || next.layout != slot.layout;
    std::vector<gpu::AabbNodeGpu> nodes;
    std::vector<glm::uvec4> leaves;
    if (rec.rewriteTrees) {
        nodes.resize(nodeCount);
        leaves.resize(leafCount);
        next.boxGenerations.clear();
        for (uint32_t t = 0; t < next.layout.size(); ++t) {
            const AabbTree& tree = cached[t]->tree;
            std::copy(tree.nodes.begin(), tree.nodes.end(), nodes.begin() + headers[t].nodeOffset);
            std::copy(tree.leaves.begin(), tree.leaves.end(), leaves.begin() + headers[t].leafOffset);
            next.boxGenerations.push_back(cached[t]->builtGeneration);
        }
    }
    // GPU refit for the trees whose mesh moved on since this slot's boxes were computed.
    std::vector<uint32_t> refitList;
    uint32_t refitLevels = 0, refitMaxLeaves = 0;
    for (uint32_t t = 0; t < next.layout.size(); ++t) {
        const SceneMesh& mesh = scene.meshes[next.layout[t]];
        const uint64_t generation = mesh.deformedGeneration;
        if (next.boxGenerations[t] == generation && !mesh.deformedEveryFrame) continue;
        refitList.push_back(t);
        refitLevels = std::max(refitLevels, cached[t]->tree.levelCount);
        refitMaxLeaves = std::max(refitMaxLeaves, cached[t]->tree.triangleCount);
        next.boxGenerations[t] = generation;
    }
    if (refitList.size() > ctx.properties.limits.maxComputeWorkGroupCount[1])
        return makeError(ErrorCode::Unsupported, method + ": " + std::to_string(refitList.size()) +
                                                     " deformed meshes in one frame exceed the device's workgroup rows");

    // Object pairs with their relative transforms, slacks and entrance levels.
    std::vector<gpu::AabbNodeGpu> slackBoxes;  // once per tree: deformed CPU meshes scan their positions
    for (uint32_t t = 0; t < next.layout.size(); ++t)
        slackBoxes.push_back(slackBox(scene.meshes[next.layout[t]], cached[t]->tree, cached[t]->builtGeneration));
    for (const ObjectPair& p : objectPairs) {
        const uint32_t ta = treeIndex[scene.objects[p.a].mesh], tb = treeIndex[scene.objects[p.b].mesh];
        const glm::dmat4 bToA = affineInverse(scene.objects[p.a].objectToWorld) * scene.objects[p.b].objectToWorld;
        auto pair = makeAabbPair(cached[ta]->tree, ta, cached[tb]->tree, tb, bToA, p.a, p.b);
        if (!pair) return pair.status();
        // The slack must cover the boxes the GPU refit produces, not the rest boxes.
        glm::vec2 slack = aabbBoxSlack(slackBoxes[ta], slackBoxes[tb], pair->bToA, pair->aToB);
        pair->slackA = std::max(pair->slackA, slack.x);
        pair->slackB = std::max(pair->slackB, slack.y);
        next.gpuPairs.push_back(pair.value());
        uint32_t level = 0;
        if (request.entranceLevels) {
            auto it = request.entranceLevels->find(p);
            if (it != request.entranceLevels->end()) level = std::min(it->second, pair->levelCount - 1);
        }
        next.entrance.push_back(level);
    }
    next.globalLevels = assignAabbGlobalLevels(next.gpuPairs);
    next.refitTrees = uint32_t(refitList.size());
    next.objectPairs = std::move(objectPairs);
    std::vector<AabbTreeView> views;
    for (const AabbCachedTree* t : cached) views.push_back({&t->tree, {}});
    auto seeds = buildAabbSeedTable(views, next.gpuPairs, next.entrance);
    if (!seeds) return seeds.status();

    AabbTreePassInputs& in = rec.inputs;
    in.refitPipeline = request.refitPipeline;
    in.indirectPipeline = request.indirectPipeline;
    in.traversePipeline = request.traversePipeline;
    in.set = slot.set;
    in.refitTreeCount = next.refitTrees;
    in.refitLevels = refitLevels;
    in.refitMaxLeaves = refitMaxLeaves;
    in.globalLevels = next.globalLevels;
    in.listCapacity = request.nodePairCapacity;
    in.trianglePairCapacity = request.trianglePairCapacity;
    in.pairCount = uint32_t(next.gpuPairs.size());
    in.maxGroups = std::min(ctx.properties.limits.maxComputeWorkGroupCount[0], gpu::kAabbMaxGroups);
    // Device-local inputs the shaders read, each filled from host-written staging by aabb-upload.
    auto upload = [&](BufferHandle device, const std::string& name, auto contents) {
        const std::span<const std::byte> bytes = std::as_bytes(std::span(contents));
        BufferHandle staging = graph.createBuffer(name + " upload", {bufferBytes(bytes.size()), 0, /*hostWrite*/ true});
        in.uploads.push_back({staging, device, bytes.size()});
        rec.staged.push_back({staging, std::vector<std::byte>(bytes.begin(), bytes.end())});
        return device;
    };
    auto input = [&](const std::string& name, auto contents) {
        return upload(graph.createBuffer(name, {bufferBytes(std::span(contents).size_bytes())}), name, contents);
    };
    in.trees = input(prefix + " trees", std::span<const gpu::AabbTreeGpu>(headers));
    in.nodes = graph.persistentBuffer(prefix + " nodes",
                                      {bufferBytes(VkDeviceSize(nodeCount) * sizeof(gpu::AabbNodeGpu))});
    in.leaves = graph.persistentBuffer(prefix + " leaves", {bufferBytes(VkDeviceSize(leafCount) * sizeof(glm::uvec4))});
    if (rec.rewriteTrees) {
        upload(in.nodes, prefix + " nodes", std::span<const gpu::AabbNodeGpu>(nodes));
        upload(in.leaves, prefix + " leaves", std::span<const glm::uvec4>(leaves));
    }
    in.refitList = input(prefix + " refit list", std::span<const uint32_t>(refitList));
    in.pairs = input(prefix + " pairs", std::span<const gpu::AabbPairGpu>(next.gpuPairs));
    in.seedLevels = input(prefix + " seed levels", std::span<const gpu::AabbSeedLevelGpu>(seeds->levels));
    in.seeds = input(prefix + " seeds", std::span<const gpu::AabbSeedGpu>(seeds->seeds));
    // The state holds the per-level VkDispatchIndirectCommands aabb_indirect.comp writes.
    in.state = graph.createBuffer(prefix + " traversal state", {bufferBytes(sizeof(gpu::AabbTraversalStateGpu))});
    // One buffer, two ping-pong halves (aabb_traverse.comp: list k starts at k * capacity).
    in.nodePairs = graph.createBuffer(prefix + " node pair lists",
                                      {bufferBytes(2ull * request.nodePairCapacity * sizeof(gpu::AabbNodePairGpu))});
    in.trianglePairs = graph.createBuffer(
        prefix + " triangle pairs",
        {bufferBytes(VkDeviceSize(request.trianglePairCapacity) * sizeof(gpu::AabbTrianglePairGpu))});
    in.pairStats = graph.createBuffer(prefix + " pair stats",
                                      {bufferBytes(VkDeviceSize(request.pairCapacity) * sizeof(gpu::AabbPairStatsGpu))});
    rec.vertexBuffers = vertexSlots.buffers();
    in.vertices = importVertexBuffers(graph, rec.vertexBuffers);
    in.readback = request.readback;
    in.readbackLayout = request.readbackLayout;
    rec.outputs = addAabbTreePasses(graph, in);
    return rec;
}

Status bindAabbTraversal(const VulkanContext& ctx, VulkanGraphAllocator& allocator, const Graph& graph,
                         VkBuffer placeholder, AabbTraversalRecording& rec, AabbTraversalSlot& slot) {
    const AabbTreePassInputs& in = rec.inputs;
    // Node boxes are kept only while the tree set is unchanged, which also keeps the buffer's size.
    if (!rec.rewriteTrees && graph.created(in.nodes))
        return makeError(ErrorCode::Unsupported, "aabb traversal: the slot's node buffer was recreated without its trees");
    for (const auto& [staging, bytes] : rec.staged)
        VKC_TRY(fillHostBuffer(allocator, graph, staging, std::span<const std::byte>(bytes)));
    const GraphDescriptors d(ctx, graph, placeholder);
    const BufferHandle bound[] = {in.trees, in.nodes, in.leaves, in.refitList, in.pairs, in.seedLevels,
                                  in.seeds, in.state, in.nodePairs, in.trianglePairs, in.pairStats};
    static_assert(gpu::kAabbBindingPairStats == 10);
    for (uint32_t b = 0; b < 11; ++b) d.storageBuffer(slot.set, b, bound[b]);
    writeStorageBufferArray(ctx, slot.set, gpu::kBindingVertexBuffers, rec.vertexBuffers);
    const VkDescriptorSet set = slot.set;
    slot = std::move(rec.next);
    slot.set = set;
    slot.nodesValid = true;
    return Status::success();
}

}  // namespace vkc
