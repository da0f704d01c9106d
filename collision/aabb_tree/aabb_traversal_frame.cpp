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
#include <memory>

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
    cached.builtGeneration = m.cpuPositionsCurrent() ? m.deformedGeneration : kAabbUnknownGeneration;
    return &cached;
}

namespace {

// The entrance table aabb_pairs.comp probes: open addressing, linear probing, at most half full.
std::vector<gpu::AabbEntranceGpu> entranceTable(const std::map<ObjectPair, uint32_t>& levels) {
    size_t size = 16;
    while (size < 2 * levels.size()) size *= 2;
    std::vector<gpu::AabbEntranceGpu> table(size);
    const uint32_t mask = uint32_t(size - 1);
    for (const auto& [pair, level] : levels) {
        uint32_t slot = gpu::aabbEntranceSlot(pair.a, pair.b, mask);
        while (table[slot].used != 0) slot = (slot + 1) & mask;
        table[slot] = {pair.a, pair.b, level, 1u};
    }
    return table;
}

}  // namespace

Status aabbTreesFitBindings(const std::string& method, std::span<const AabbTreeFootprint> trees,
                            VkDeviceSize bindingLimit) {
    const struct {
        const char* what;
        uint64_t AabbTreeFootprint::*count;
        VkDeviceSize bytesEach;
    } buffers[] = {{"nodes", &AabbTreeFootprint::nodes, sizeof(gpu::AabbNodeGpu)},
                   {"leaves", &AabbTreeFootprint::leaves, sizeof(glm::uvec4)}};
    for (const auto& buffer : buffers) {
        VkDeviceSize bytes = 0;
        const AabbTreeFootprint* largest = nullptr;
        for (const AabbTreeFootprint& tree : trees) {
            bytes += tree.*buffer.count * buffer.bytesEach;
            if (!largest || tree.*buffer.count > largest->*buffer.count) largest = &tree;
        }
        if (bytes <= bindingLimit) continue;
        return makeError(ErrorCode::Unsupported,
                         method + ": the AABB trees of the scene's meshes need " + std::to_string(bytes) + " bytes of " +
                             buffer.what + " (the largest: mesh \"" + largest->mesh + "\", " +
                             std::to_string(largest->triangles) + " triangles, " +
                             std::to_string(largest->*buffer.count * buffer.bytesEach) + " bytes), above the " +
                             std::to_string(bindingLimit) +
                             " bytes one storage-buffer binding reaches on this device (maxStorageBufferRange, at most "
                             "2^32 - 1); use fewer or smaller meshes");
    }
    return Status::success();
}

Result<AabbTraversalRecording> addAabbTraversal(Graph& graph, const VulkanContext& ctx, AabbTreeCache& cache,
                                                const AabbTraversalSlot& slot, const SceneImpl& scene,
                                                const AabbCandidatePairs& candidates, const AabbTraversalRequest& request) {
    const std::string method = request.method;
    // Buffer names: "aabb-tree nodes" for the method itself, "ebpi aabb-tree nodes" for a user.
    const std::string prefix = method == "aabb-tree" ? method : method + " aabb-tree";
    AabbTraversalRecording rec;
    AabbTraversalSlot& next = rec.next;

    // The trees' footprints follow from the triangle counts (aabb_tree.h): a scene whose trees
    // cannot be bound is refused before any is built (seconds of CPU for 10 million triangles).
    std::vector<AabbTreeFootprint> footprints;
    std::vector<bool> measured(scene.meshes.size(), false);
    for (const SceneObject& object : scene.objects) {
        if (measured[object.mesh]) continue;
        measured[object.mesh] = true;
        const SceneMesh& mesh = scene.meshes[object.mesh];
        const uint64_t triangles = mesh.data.indices.size() / 3;
        footprints.push_back({mesh.data.name, triangles, aabbTreeNodeCount(triangles), triangles});
    }
    VKC_TRY(aabbTreesFitBindings(method, footprints, storageBindingLimit(ctx)));

    // Trees of every mesh the objects use, in first-use order (any object may be in a pair the
    // GPU found), and the distinct vertex buffers they read.
    constexpr uint32_t kNoTree = UINT32_MAX;
    std::vector<uint32_t> treeIndex(scene.meshes.size(), kNoTree);  // per mesh
    std::vector<const AabbCachedTree*> cached;
    VertexBufferSlots vertexSlots(request.vertexBufferCapacity, method + ": the objects read");
    std::vector<uint32_t> treeVertexSlot;
    next.objectTrees.reserve(scene.objects.size());
    for (const SceneObject& object : scene.objects) {
        if (treeIndex[object.mesh] == kNoTree) {
            auto t = cache.tree(scene, object.mesh);
            if (!t) return t.status();
            treeIndex[object.mesh] = uint32_t(next.layout.size());
            next.layout.push_back(object.mesh);
            cached.push_back(t.value());
            const SceneMesh& mesh = scene.meshes[object.mesh];
            auto vertexSlot = vertexSlots.slot(mesh.vertexBuffer, vertexExtentBytes(mesh), [&] { return "mesh \"" + mesh.data.name + "\""; });
            if (!vertexSlot) return vertexSlot.status();
            treeVertexSlot.push_back(vertexSlot.value());
        }
        next.objectTrees.push_back(treeIndex[object.mesh]);
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
        next.globalLevels = std::max(next.globalLevels, cached[t]->tree.levelCount);
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

    // Every object's placement, tree and slack box (the slack must cover the boxes the GPU
    // refit produces, not the rest boxes); the pairs themselves are set up on the GPU.
    std::vector<gpu::AabbNodeGpu> slacks;  // per tree
    for (uint32_t t = 0; t < next.layout.size(); ++t)
        slacks.push_back(slackBox(scene.meshes[next.layout[t]], cached[t]->tree, cached[t]->builtGeneration));
    std::vector<gpu::AabbObjectGpu> objects;
    objects.reserve(scene.objects.size());
    for (uint32_t o = 0; o < scene.objects.size(); ++o) {
        const uint32_t t = next.objectTrees[o];
        objects.push_back(aabbObject(scene.objects[o].objectToWorld, t, slacks[t]));
    }
    if (request.entranceLevels) next.entrances = *request.entranceLevels;
    std::vector<gpu::AabbEntranceGpu> entrances = entranceTable(next.entrances);
    next.refitTrees = uint32_t(refitList.size());

    AabbTreePassInputs& in = rec.inputs;
    in.pairsPipeline = request.pairsPipeline;
    in.refitPipeline = request.refitPipeline;
    in.indirectPipeline = request.indirectPipeline;
    in.traversePipeline = request.traversePipeline;
    in.set = slot.set;
    in.refitTreeCount = next.refitTrees;
    in.refitLevels = refitLevels;
    in.refitMaxLeaves = refitMaxLeaves;
    in.globalLevels = scene.objects.size() < 2 ? 0 : next.globalLevels;
    in.listCapacity = request.nodePairCapacity;
    in.trianglePairCapacity = request.trianglePairCapacity;
    in.pairCount = request.pairCapacity;
    in.maxGroups = std::min(ctx.properties.limits.maxComputeWorkGroupCount[0], gpu::kAabbMaxGroups);
    in.pairsPush = {candidates.storedPairs, request.pairCapacity, uint32_t(entrances.size() - 1), next.globalLevels};
    // Device-local inputs the shaders read, each filled from host-written staging by aabb-upload.
    auto upload = [&](BufferHandle device, const std::string& name, auto&& contents) {
        auto owner = std::make_shared<std::decay_t<decltype(contents)>>(std::move(contents));
        const std::span<const std::byte> bytes = std::as_bytes(std::span(*owner));
        BufferHandle staging = graph.createBuffer(name + " upload", {bufferBytes(bytes.size()), 0, /*hostWrite*/ true});
        in.uploads.push_back({staging, device, bytes.size()});
        rec.staged.push_back({staging, std::move(owner), bytes});
        return device;
    };
    auto input = [&](const std::string& name, auto&& contents) {
        const VkDeviceSize bytes = bufferBytes(std::span(contents).size_bytes());
        return upload(graph.createBuffer(name, {bytes}), name, std::move(contents));
    };
    in.trees = input(prefix + " trees", std::move(headers));
    in.nodes = graph.persistentBuffer(prefix + " nodes",
                                      {bufferBytes(VkDeviceSize(nodeCount) * sizeof(gpu::AabbNodeGpu))});
    in.leaves = graph.persistentBuffer(prefix + " leaves", {bufferBytes(VkDeviceSize(leafCount) * sizeof(glm::uvec4))});
    if (rec.rewriteTrees) {
        upload(in.nodes, prefix + " nodes", std::move(nodes));
        upload(in.leaves, prefix + " leaves", std::move(leaves));
    }
    in.refitList = input(prefix + " refit list", std::move(refitList));
    in.objects = input(prefix + " objects", std::move(objects));
    in.entrances = input(prefix + " entrance table", std::move(entrances));
    in.candidates = candidates.list;
    const VkDeviceSize pairs = std::max<VkDeviceSize>(1, request.pairCapacity);
    in.pairs = graph.createBuffer(prefix + " pairs", {pairs * sizeof(gpu::AabbPairGpu)});
    in.seedLevels = graph.createBuffer(prefix + " seed levels", {sizeof(gpu::AabbSeedLevelGpu) * gpu::kAabbMaxLevels});
    in.seeds = graph.createBuffer(prefix + " seeds", {pairs * sizeof(gpu::AabbSeedGpu)});
    // The state holds the per-level VkDispatchIndirectCommands aabb_indirect.comp writes.
    in.state = graph.createBuffer(prefix + " traversal state", {bufferBytes(sizeof(gpu::AabbTraversalStateGpu))});
    // One buffer, two ping-pong halves (aabb_traverse.comp: list k starts at k * capacity).
    in.nodePairs = graph.createBuffer(prefix + " node pair lists",
                                      {bufferBytes(2ull * request.nodePairCapacity * sizeof(gpu::AabbNodePairGpu))});
    in.trianglePairs = graph.createBuffer(
        prefix + " triangle pairs",
        {bufferBytes(VkDeviceSize(request.trianglePairCapacity) * sizeof(gpu::AabbTrianglePairGpu))});
    in.pairStats = graph.createBuffer(prefix + " pair stats", {pairs * sizeof(gpu::AabbPairStatsGpu)});
    rec.vertexBuffers = vertexSlots.bindings();
    in.vertices = importVertexBuffers(graph, vertexSlots.buffers());
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
    for (const AabbTraversalRecording::Staged& staged : rec.staged)
        VKC_TRY(fillHostBuffer(allocator, graph, staged.staging, staged.bytes));
    const GraphDescriptors d(ctx, graph, placeholder);
    const BufferHandle bound[] = {in.trees,     in.nodes,         in.leaves,        in.refitList, in.pairs,
                                  in.seedLevels, in.seeds,       in.state,         in.nodePairs, in.trianglePairs,
                                  in.pairStats, in.objects,      in.candidates,    in.entrances};
    static_assert(gpu::kAabbBindingEntrances == 13);
    for (uint32_t b = 0; b < 14; ++b) d.storageBuffer(slot.set, b, bound[b]);
    writeStorageBufferArray(ctx, slot.set, gpu::kBindingVertexBuffers, rec.vertexBuffers);
    const VkDescriptorSet set = slot.set;
    slot = std::move(rec.next);
    slot.set = set;
    slot.nodesValid = true;
    return Status::success();
}

}  // namespace vkc
