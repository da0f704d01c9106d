// vkc::AabbTreeDetector (method `aabb-tree`, paper 4): caches one CPU-built tree per mesh, owns
// one set of buffers per frame in flight, builds the pass graph per frame
// (passes/aabb_tree_passes.cpp) and decodes the read-back slot into FrameResults.
// Refit policy: a frame slot's node buffer is refit on the GPU for exactly the trees whose mesh's
// deformedGeneration differs from the one its boxes were last computed for in that slot; rigid
// meshes cost nothing per frame. Temporal coherence (section 5): entrance levels per object pair
// live on the CPU, updated in results() from the per-pair counters read back frames later.
#include "vkcollide/aabb_tree.h"

#include "collision/aabb_traversal_cpu.h"
#include "collision/aabb_tree.h"
#include "collision/aabb_tree_detector_support.h"
#include "collision/graph_execution.h"
#include "collision/scene_impl.h"
#include "passes/aabb_tree_passes.h"
#include "vk/commands.h"
#include "vk/descriptors.h"
#include "vk/query_pool.h"
#include "vk/readback_ring.h"

#include "spirv/aabb_indirect.comp.h"
#include "spirv/aabb_refit.comp.h"
#include "spirv/aabb_traverse.comp.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_map>

namespace vkc {

namespace {

constexpr uint32_t kDefaultNodePairCapacity = 1u << 19;
constexpr uint32_t kDefaultTrianglePairCapacity = 1u << 16;
constexpr uint32_t kDefaultMaxObjectPairs = 4096;
constexpr uint32_t kDefaultFramesInFlight = 2;
// Passes per frame at most: refit levels + clear + (indirect + traverse) per level + readback.
constexpr uint32_t kMaxPasses = 3 * gpu::kAabbMaxLevels + 2;

constexpr VkDeviceSize kStateBytes = sizeof(gpu::AabbTraversalStateGpu);
VkDeviceSize align16(VkDeviceSize bytes) { return (bytes + 15) & ~VkDeviceSize(15); }

constexpr uint64_t kUnknownGeneration = ~uint64_t(0);

struct CachedTree {
    AabbTree tree;
    uint64_t builtGeneration = 0;  // the mesh's deformedGeneration whose positions built the boxes
};

// Everything one frame in flight uses; reused once that frame has been read back.
struct FrameSlot {
    // Host-written each frame or on change (Upload memory), grown on demand while the slot is free.
    Buffer trees, nodes, leaves, refitList, pairs, seedLevels, seeds;
    // GPU-only, fixed size.
    Buffer state, nodePairs, trianglePairs, pairStats;
    VkDescriptorSet set = VK_NULL_HANDLE;
    QueryPool timestamps;
    std::unique_ptr<Graph> graph;  // kept for pass names when reading timings

    std::vector<MeshId> layout;              // trees in node-buffer order
    std::vector<uint64_t> boxGenerations;    // per tree: generation its boxes in `nodes` reflect
    std::vector<ObjectPair> objectPairs;     // per stats entry
    std::vector<gpu::AabbPairGpu> gpuPairs;  // as uploaded (entrance heuristic needs them)
    std::vector<uint32_t> entrance;          // pair level each pair entered at
    uint32_t globalLevels = 0;
    uint32_t refitTrees = 0;
};

SyncState either(Access a, Access b) {
    SyncState x = syncStateOf(a), y = syncStateOf(b);
    return {x.stages | y.stages, x.access | y.access, VK_IMAGE_LAYOUT_UNDEFINED};
}

}  // namespace

struct AabbTreeDetectorImpl {
    VulkanContext* ctx = nullptr;
    AabbTreeSettings settings;
    Pipeline refitPipeline, indirectPipeline, traversePipeline;
    VkDescriptorPool descriptorPool = VK_NULL_HANDLE;
    Buffer dummyVertices;  // fills the unused slots of the vertex descriptor array
    std::vector<FrameSlot> slots;
    ReadbackRing ring;
    VkDeviceSize readbackStatsOffset = 0;
    VkDeviceSize readbackTrianglesOffset = 0;
    std::map<MeshId, CachedTree> trees;  // std::map: stable addresses for FrameSlot users
    std::map<ObjectPair, uint32_t> entranceLevels;
    uint64_t nextRunFrame = 0;

    ~AabbTreeDetectorImpl();
    Status createResources();
    Status recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, std::span<const ObjectPair> pairs, uint64_t frame);
    Result<const CachedTree*> tree(const SceneImpl& scene, MeshId mesh);
    Status ensureBuffer(Buffer& buffer, VkDeviceSize bytes, MemoryUsage memory, const std::string& name,
                        VkBufferUsageFlags extraUsage = 0);
    uint32_t trianglePairCapacity() const { return settings.keepTrianglePairList ? settings.trianglePairCapacity : 0; }
};

AabbTreeDetectorImpl::~AabbTreeDetectorImpl() {
    if (!ctx) return;
    for (FrameSlot& s : slots) {
        for (Buffer* b : {&s.trees, &s.nodes, &s.leaves, &s.refitList, &s.pairs, &s.seedLevels, &s.seeds, &s.state,
                          &s.nodePairs, &s.trianglePairs, &s.pairStats})
            destroyBuffer(*ctx, *b);
        destroyQueryPool(*ctx, s.timestamps);
    }
    destroyReadbackRing(*ctx, ring);
    destroyBuffer(*ctx, dummyVertices);
    destroyDescriptorPool(*ctx, descriptorPool);
    destroyPipeline(*ctx, refitPipeline);
    destroyPipeline(*ctx, indirectPipeline);
    destroyPipeline(*ctx, traversePipeline);
}

Status AabbTreeDetectorImpl::ensureBuffer(Buffer& buffer, VkDeviceSize bytes, MemoryUsage memory,
                                          const std::string& name, VkBufferUsageFlags extraUsage) {
    bytes = std::max<VkDeviceSize>(align16(bytes), 16);
    if (buffer.buffer != VK_NULL_HANDLE && buffer.size >= bytes) return Status::success();
    // Grow geometrically so a slowly growing scene does not reallocate every frame.
    const VkDeviceSize size = std::max(bytes, buffer.size * 2);
    destroyBuffer(*ctx, buffer);
    auto created = createBuffer(*ctx, {size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | extraUsage, memory, name.c_str()});
    if (!created) return created.status();
    buffer = created.value();
    return Status::success();
}

Status AabbTreeDetectorImpl::createResources() {
    VulkanContext& c = *ctx;
    const SpecConstant refitSpec[] = {{0, gpu::kAabbRefitGroupSize}};
    // aabb_indirect.comp sizes the traversal's groups: both must be specialised alike.
    const SpecConstant traverseSpec[] = {{0, gpu::kAabbTraverseGroupSize}};
    auto refit = createComputePipeline(c, kSpirv_aabb_refit_comp, kAabbPipelineLayout, refitSpec, "aabb-refit");
    if (!refit) return refit.status();
    refitPipeline = refit.value();
    auto indirect = createComputePipeline(c, kSpirv_aabb_indirect_comp, kAabbPipelineLayout, traverseSpec, "aabb-indirect");
    if (!indirect) return indirect.status();
    indirectPipeline = indirect.value();
    auto traverse = createComputePipeline(c, kSpirv_aabb_traverse_comp, kAabbPipelineLayout, traverseSpec, "aabb-traverse");
    if (!traverse) return traverse.status();
    traversePipeline = traverse.value();

    const uint32_t frames = settings.framesInFlight;
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, frames * (gpu::kAabbBindingVertices + gpu::kAabbMaxVertexSlots)};
    auto pool = createDescriptorPool(c, frames, {&size, 1}, "aabb-tree descriptors");
    if (!pool) return pool.status();
    descriptorPool = pool.value();
    auto dummy = createBuffer(c, {16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::DeviceLocal, "aabb-tree unused vertex slot"});
    if (!dummy) return dummy.status();
    dummyVertices = dummy.value();

    // Ring slot: traversal state, per-pair stats, then (when kept) the triangle pair list.
    readbackStatsOffset = align16(kStateBytes);
    readbackTrianglesOffset = readbackStatsOffset + align16(VkDeviceSize(settings.maxObjectPairs) * sizeof(gpu::AabbPairStatsGpu));
    const VkDeviceSize slotBytes = readbackTrianglesOffset + VkDeviceSize(trianglePairCapacity()) * sizeof(gpu::AabbTrianglePairGpu);
    auto createdRing = createReadbackRing(c, slotBytes, frames, "aabb-tree readback ring");
    if (!createdRing) return createdRing.status();
    ring = createdRing.value();

    slots.resize(frames);
    for (uint32_t i = 0; i < frames; ++i) {
        FrameSlot& s = slots[i];
        const std::string suffix = " [frame slot " + std::to_string(i) + "]";
        // The state holds the per-level VkDispatchIndirectCommands aabb_indirect.comp writes.
        VKC_TRY(ensureBuffer(s.state, kStateBytes, MemoryUsage::DeviceLocal, "aabb-tree traversal state" + suffix,
                             VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT));
        // One buffer, two ping-pong halves (aabb_traverse.comp: list k starts at k * capacity).
        VKC_TRY(ensureBuffer(s.nodePairs, 2ull * settings.nodePairCapacity * sizeof(gpu::AabbNodePairGpu),
                             MemoryUsage::DeviceLocal, "aabb-tree node pair lists" + suffix));
        VKC_TRY(ensureBuffer(s.trianglePairs, VkDeviceSize(trianglePairCapacity()) * sizeof(gpu::AabbTrianglePairGpu),
                             MemoryUsage::DeviceLocal, "aabb-tree triangle pairs" + suffix));
        VKC_TRY(ensureBuffer(s.pairStats, VkDeviceSize(settings.maxObjectPairs) * sizeof(gpu::AabbPairStatsGpu),
                             MemoryUsage::DeviceLocal, "aabb-tree pair stats" + suffix));
        VKC_TRY(ensureBuffer(s.seedLevels, sizeof(gpu::AabbSeedLevelGpu) * gpu::kAabbMaxLevels, MemoryUsage::Upload,
                             "aabb-tree seed levels" + suffix));
        auto set = allocateDescriptorSet(c, descriptorPool, refitPipeline.setLayouts[0], ("aabb-tree set" + suffix).c_str());
        if (!set) return set.status();
        s.set = set.value();
        auto timestamps = createQueryPool(c, VK_QUERY_TYPE_TIMESTAMP, 2 * kMaxPasses, ("aabb-tree timestamps" + suffix).c_str());
        if (!timestamps) return timestamps.status();
        s.timestamps = timestamps.value();
    }
    return Status::success();
}

Result<const CachedTree*> AabbTreeDetectorImpl::tree(const SceneImpl& scene, MeshId mesh) {
    auto it = trees.find(mesh);
    if (it != trees.end()) return &it->second;
    // Topology never changes after addMesh, so one build per mesh; deformation only refits.
    auto built = buildAabbTree(scene.meshes[mesh].data);
    if (!built) return built.status();
    CachedTree& cached = trees[mesh];
    cached.tree = std::move(built.value());
    // The CPU copy of a mesh read from the host's buffer is its rest pose: once the host has
    // deformed it, the built boxes match no generation, so every slot refits them on the GPU.
    const SceneMesh& m = scene.meshes[mesh];
    const bool cpuCurrent = m.uploaded.buffer != VK_NULL_HANDLE || m.deformedGeneration == 0;
    cached.builtGeneration = cpuCurrent ? m.deformedGeneration : kUnknownGeneration;
    return &cached;
}

// Points the vertex descriptor array at this frame's buffers (unused slots at a dummy).
static void writeVertexDescriptors(const VulkanContext& ctx, VkDescriptorSet set, std::span<const VkBuffer> buffers,
                                   VkBuffer dummy) {
    std::vector<VkDescriptorBufferInfo> infos(gpu::kAabbMaxVertexSlots, {dummy, 0, VK_WHOLE_SIZE});
    for (size_t i = 0; i < buffers.size(); ++i) infos[i].buffer = buffers[i];
    VkWriteDescriptorSet write = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = set;
    write.dstBinding = gpu::kAabbBindingVertices;
    write.descriptorCount = gpu::kAabbMaxVertexSlots;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = infos.data();
    ctx.vkd.vkUpdateDescriptorSets(ctx.device, 1, &write, 0, nullptr);
}

static Status upload(VulkanContext& ctx, const Buffer& buffer, const void* data, size_t bytes) {
    if (bytes == 0) return Status::success();
    std::memcpy(buffer.data, data, bytes);
    return flushBuffer(ctx, buffer, 0, VK_WHOLE_SIZE);
}

Status AabbTreeDetectorImpl::recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, std::span<const ObjectPair> requested,
                                         uint64_t frame) {
    VulkanContext& c = *ctx;
    const size_t slotIndex = frame % slots.size();
    FrameSlot& slot = slots[slotIndex];
    VKC_TRY(ringSlotAvailable(c, ring, frame));

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
    std::vector<const CachedTree*> cached;
    std::vector<VkBuffer> vertexBuffers;
    std::unordered_map<VkBuffer, uint32_t> vertexSlot;
    for (const ObjectPair& p : objectPairs) {
        for (uint32_t object : {p.a, p.b}) {
            const MeshId mesh = scene.objects[object].mesh;
            if (treeIndex.count(mesh)) continue;
            auto t = tree(scene, mesh);
            if (!t) return t.status();
            treeIndex[mesh] = uint32_t(layout.size());
            layout.push_back(mesh);
            cached.push_back(t.value());
            auto [it, inserted] = vertexSlot.try_emplace(scene.meshes[mesh].vertexBuffer, uint32_t(vertexBuffers.size()));
            if (inserted) vertexBuffers.push_back(scene.meshes[mesh].vertexBuffer);
            if (vertexBuffers.size() > gpu::kAabbMaxVertexSlots)
                return makeError(ErrorCode::Unsupported, "aabb-tree: the pairs read more than " +
                                                             std::to_string(gpu::kAabbMaxVertexSlots) +
                                                             " distinct vertex buffers (mesh \"" +
                                                             scene.meshes[mesh].data.name + "\")");
        }
    }

    // Tree headers, nodes and leaves. A slot rewrites its nodes from the CPU trees only when the
    // set of trees changed; otherwise the boxes the GPU refit last are kept.
    std::vector<gpu::AabbTreeGpu> headers;
    uint32_t nodeCount = 0, leafCount = 0;
    for (uint32_t t = 0; t < layout.size(); ++t) {
        const SceneMesh& mesh = scene.meshes[layout[t]];
        headers.push_back(cached[t]->tree.gpuHeader(nodeCount, leafCount, vertexSlot[mesh.vertexBuffer],
                                                    mesh.vertexStrideFloats, mesh.vertexOffsetFloats));
        nodeCount += uint32_t(cached[t]->tree.nodes.size());
        leafCount += uint32_t(cached[t]->tree.leaves.size());
    }
    const std::string suffix = " [frame slot " + std::to_string(slotIndex) + "]";
    VKC_TRY(ensureBuffer(slot.trees, headers.size() * sizeof(gpu::AabbTreeGpu), MemoryUsage::Upload, "aabb-tree trees" + suffix));
    VKC_TRY(upload(c, slot.trees, headers.data(), headers.size() * sizeof(gpu::AabbTreeGpu)));
    std::vector<uint64_t> boxGenerations = slot.boxGenerations;
    if (layout != slot.layout || slot.nodes.buffer == VK_NULL_HANDLE) {
        VKC_TRY(ensureBuffer(slot.nodes, VkDeviceSize(nodeCount) * sizeof(gpu::AabbNodeGpu), MemoryUsage::Upload,
                             "aabb-tree nodes" + suffix));
        VKC_TRY(ensureBuffer(slot.leaves, VkDeviceSize(leafCount) * sizeof(glm::uvec4), MemoryUsage::Upload,
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
    VKC_TRY(ensureBuffer(slot.refitList, refitList.size() * 4, MemoryUsage::Upload, "aabb-tree refit list" + suffix));
    VKC_TRY(upload(c, slot.refitList, refitList.data(), refitList.size() * 4));

    // Object pairs with their relative transforms, slacks and entrance levels.
    std::vector<gpu::AabbPairGpu> gpuPairs;
    std::vector<uint32_t> entrance;
    for (const ObjectPair& p : objectPairs) {
        const MeshId meshA = scene.objects[p.a].mesh, meshB = scene.objects[p.b].mesh;
        const uint32_t ta = treeIndex[meshA], tb = treeIndex[meshB];
        const glm::mat4 bToA = glm::inverse(scene.objects[p.a].objectToWorld) * scene.objects[p.b].objectToWorld;
        auto pair = makeAabbPair(cached[ta]->tree, ta, cached[tb]->tree, tb, bToA, p.a, p.b);
        if (!pair) return pair.status();
        // The slack must cover the boxes the GPU refit produces, not the rest boxes.
        glm::vec2 slack = aabbBoxSlack(slackBox(scene.meshes[meshA], cached[ta]->tree, cached[ta]->builtGeneration),
                                       slackBox(scene.meshes[meshB], cached[tb]->tree, cached[tb]->builtGeneration),
                                       pair->bToA, pair->aToB);
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
    for (const CachedTree* t : cached) views.push_back({&t->tree, {}});
    auto seeds = buildAabbSeedTable(views, gpuPairs, entrance);
    if (!seeds) return seeds.status();
    VKC_TRY(ensureBuffer(slot.pairs, gpuPairs.size() * sizeof(gpu::AabbPairGpu), MemoryUsage::Upload, "aabb-tree pairs" + suffix));
    VKC_TRY(upload(c, slot.pairs, gpuPairs.data(), gpuPairs.size() * sizeof(gpu::AabbPairGpu)));
    VKC_TRY(upload(c, slot.seedLevels, seeds->levels.data(), sizeof(seeds->levels)));
    VKC_TRY(ensureBuffer(slot.seeds, seeds->seeds.size() * sizeof(gpu::AabbSeedGpu), MemoryUsage::Upload, "aabb-tree seeds" + suffix));
    VKC_TRY(upload(c, slot.seeds, seeds->seeds.data(), seeds->seeds.size() * sizeof(gpu::AabbSeedGpu)));

    // Descriptors (the slot is idle, so rewriting its set is allowed).
    const Buffer* bound[] = {&slot.trees, &slot.nodes, &slot.leaves, &slot.refitList, &slot.pairs, &slot.seedLevels,
                             &slot.seeds, &slot.state, &slot.nodePairs, &slot.trianglePairs, &slot.pairStats};
    static_assert(gpu::kAabbBindingPairStats == 10 && gpu::kAabbBindingVertices == 11);
    for (uint32_t b = 0; b < 11; ++b) writeBufferDescriptor(c, slot.set, b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, *bound[b]);
    writeVertexDescriptors(c, slot.set, vertexBuffers, dummyVertices.buffer);

    // The graph. Persistent per-slot buffers state what the slot's previous frame last did with them.
    slot.graph = std::make_unique<Graph>();
    Graph& graph = *slot.graph;
    auto persistent = [&](const char* name, const Buffer& buffer, SyncState lastUse) {
        ImportedBuffer imported;
        imported.buffer = buffer.buffer;
        imported.size = buffer.size;
        imported.initial = lastUse;
        return graph.importBuffer(name, imported);
    };
    const SyncState read = syncStateOf(Access::ComputeRead);
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
    in.trees = persistent("aabb-tree trees", slot.trees, read);
    in.nodes = persistent("aabb-tree nodes", slot.nodes, syncStateOf(Access::ComputeReadWrite));
    in.leaves = persistent("aabb-tree leaves", slot.leaves, read);
    in.refitList = persistent("aabb-tree refit list", slot.refitList, read);
    in.pairs = persistent("aabb-tree pairs", slot.pairs, read);
    in.seedLevels = persistent("aabb-tree seed levels", slot.seedLevels, read);
    in.seeds = persistent("aabb-tree seeds", slot.seeds, read);
    in.state = persistent("aabb-tree traversal state", slot.state, either(Access::TransferSrc, Access::IndirectRead));
    in.nodePairs = persistent("aabb-tree node pair lists", slot.nodePairs, syncStateOf(Access::ComputeReadWrite));
    in.trianglePairs = persistent("aabb-tree triangle pairs", slot.trianglePairs,
                                  either(Access::TransferSrc, Access::ComputeReadWrite));
    in.pairStats = persistent("aabb-tree pair stats", slot.pairStats, either(Access::TransferSrc, Access::ComputeReadWrite));
    // The host's vertex buffers may have been written by any earlier command: wait for all writes.
    for (VkBuffer buffer : vertexBuffers) {
        ImportedBuffer imported;
        imported.buffer = buffer;
        imported.initial = {VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT};
        in.vertices.push_back(graph.importBuffer("mesh vertices", imported));
    }
    RingSlot ringRange = ringSlot(ring, frame);
    ImportedBuffer readbackSlot;
    readbackSlot.buffer = ringRange.buffer;
    readbackSlot.offset = ringRange.offset;
    readbackSlot.size = ring.slotStride;
    readbackSlot.initial = syncStateOf(Access::HostRead);
    readbackSlot.final = syncStateOf(Access::HostRead);  // the final barrier makes it host-visible
    in.readback = graph.importBuffer("aabb-tree readback slot", readbackSlot);
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

AabbTreeDetector::AabbTreeDetector(std::unique_ptr<AabbTreeDetectorImpl> impl) : impl_(std::move(impl)) {}
AabbTreeDetector::AabbTreeDetector(AabbTreeDetector&&) noexcept = default;
AabbTreeDetector& AabbTreeDetector::operator=(AabbTreeDetector&&) noexcept = default;
AabbTreeDetector::~AabbTreeDetector() = default;

Result<AabbTreeDetector> AabbTreeDetector::create(Context& context, const AabbTreeSettings& settings) {
    if (!context.valid()) return makeError(ErrorCode::InvalidArgument, "AabbTreeDetector::create: context is not valid");
    auto impl = std::make_unique<AabbTreeDetectorImpl>();
    impl->ctx = &context.vulkan();
    impl->settings = settings;
    AabbTreeSettings& s = impl->settings;
    if (s.nodePairCapacity == 0) s.nodePairCapacity = kDefaultNodePairCapacity;
    if (s.trianglePairCapacity == 0) s.trianglePairCapacity = kDefaultTrianglePairCapacity;
    if (s.maxObjectPairs == 0) s.maxObjectPairs = kDefaultMaxObjectPairs;
    if (s.framesInFlight == 0) s.framesInFlight = kDefaultFramesInFlight;
    // Both ping-pong lists index one buffer with 32-bit entry numbers.
    if (s.nodePairCapacity > (1u << 30))
        return makeError(ErrorCode::InvalidArgument, "AabbTreeSettings::nodePairCapacity " +
                                                         std::to_string(s.nodePairCapacity) + " exceeds 2^30");
    VKC_TRY(impl->createResources());
    return AabbTreeDetector(std::move(impl));
}

const AabbTreeSettings& AabbTreeDetector::settings() const { return impl_->settings; }

Status AabbTreeDetector::record(VkCommandBuffer cmd, const Scene& scene, std::span<const ObjectPair> pairs, uint64_t frame) {
    return impl_->recordFrame(cmd, scene.impl(), pairs, frame);
}

Status AabbTreeDetector::record(VkCommandBuffer cmd, const Scene& scene, uint64_t frame) {
    std::vector<ObjectPair> pairs = cpuOverlappingObjectPairs(scene.impl());
    return impl_->recordFrame(cmd, scene.impl(), pairs, frame);
}

VkSemaphoreSubmitInfo AabbTreeDetector::completionSignal(uint64_t frame) { return ringSignal(impl_->ring, frame); }

Status AabbTreeDetector::results(uint64_t frame, FrameResults& out, AabbTreeFrameStats* stats) {
    AabbTreeDetectorImpl& d = *impl_;
    auto bytes = readRingSlot(*d.ctx, d.ring, frame);
    if (!bytes) return bytes.status();
    const FrameSlot& slot = d.slots[frame % d.slots.size()];
    const char* base = static_cast<const char*>(bytes.value());
    gpu::AabbTraversalStateGpu state;
    std::memcpy(&state, base, sizeof(state));
    const size_t pairCount = slot.objectPairs.size();
    std::vector<gpu::AabbPairStatsGpu> pairStats(pairCount);
    if (pairCount != 0) std::memcpy(pairStats.data(), base + d.readbackStatsOffset, pairCount * sizeof(gpu::AabbPairStatsGpu));

    out = FrameResults{};
    std::vector<int> resultOf(pairCount, -1);
    for (size_t k = 0; k < pairCount; ++k) {
        if (pairStats[k].trianglePairs == 0) continue;
        resultOf[k] = int(out.pairs.size());
        PairResult& r = out.pairs.emplace_back();
        r.a = slot.objectPairs[k].a;
        r.b = slot.objectPairs[k].b;
        r.trianglePairs = pairStats[k].trianglePairs;
    }
    const uint32_t capacity = d.trianglePairCapacity();
    if (capacity != 0) {
        const auto* list = reinterpret_cast<const gpu::AabbTrianglePairGpu*>(base + d.readbackTrianglesOffset);
        const uint32_t stored = std::min(state.trianglePairCount, capacity);
        for (uint32_t i = 0; i < stored; ++i) {
            gpu::AabbTrianglePairGpu entry;
            std::memcpy(&entry, list + i, sizeof(entry));
            if (entry.pair < pairCount && resultOf[entry.pair] >= 0)
                out.pairs[resultOf[entry.pair]].trianglePairList.push_back({entry.triangleA, entry.triangleB});
        }
        for (PairResult& r : out.pairs) {
            std::sort(r.trianglePairList.begin(), r.trianglePairList.end());
            r.truncated = r.trianglePairList.size() < *r.trianglePairs;
        }
        if (state.trianglePairCount > capacity)
            out.warnings.push_back("aabb-tree: " + std::to_string(state.trianglePairCount) +
                                   " intersecting triangle pairs, list capacity " + std::to_string(capacity) +
                                   " (AabbTreeSettings::trianglePairCapacity): list truncated, counts exact");
    }
    if (state.nodePairOverflow != 0) {
        // Node pairs past the list capacity were never tested: counts may be too low, for any pair.
        for (PairResult& r : out.pairs) r.truncated = true;
        out.warnings.push_back("aabb-tree: a node pair list overflowed (AabbTreeSettings::nodePairCapacity " +
                               std::to_string(d.settings.nodePairCapacity) + "): results incomplete, grow and retry");
    }
    out.colliding = !out.pairs.empty();

    // Temporal coherence (section 5): next frame's entrance level from this frame's overlap counts.
    if (!d.settings.disableTemporalCoherence) {
        for (size_t k = 0; k < pairCount; ++k) {
            const gpu::AabbPairGpu& pair = slot.gpuPairs[k];
            const AabbTree& treeA = d.trees.at(slot.layout[pair.treeA]).tree;
            const AabbTree& treeB = d.trees.at(slot.layout[pair.treeB]).tree;
            d.entranceLevels[slot.objectPairs[k]] =
                nextAabbEntranceLevel(pair, treeA, treeB, pairStats[k], slot.entrance[k]);
        }
    }
    if (stats) {
        stats->globalLevels = slot.globalLevels;
        stats->levelTested.assign(state.levelTested, state.levelTested + slot.globalLevels);
        stats->levelOverlaps.assign(state.levelOverlaps, state.levelOverlaps + slot.globalLevels);
        stats->trianglePairCount = state.trianglePairCount;
        stats->nodePairOverflow = state.nodePairOverflow != 0;
        stats->refitTrees = slot.refitTrees;
    }
    return readPassTimings(*d.ctx, *slot.graph, slot.timestamps, out.gpuTimingsMs);
}

Result<FrameResults> AabbTreeDetector::run(const Scene& scene, AabbTreeFrameStats* stats) {
    std::vector<ObjectPair> pairs = cpuOverlappingObjectPairs(scene.impl());
    return run(scene, pairs, stats);
}

Result<FrameResults> AabbTreeDetector::run(const Scene& scene, std::span<const ObjectPair> pairs, AabbTreeFrameStats* stats) {
    VulkanContext& c = *impl_->ctx;
    const uint64_t frame = impl_->nextRunFrame++;
    Status recorded = Status::success();
    VKC_TRY(submitAndWait(c, [&](VkCommandBuffer cmd) { recorded = record(cmd, scene, pairs, frame); }, "aabb-tree run"));
    VKC_TRY(recorded);
    // The submit has completed, so the host signals the frame's completion itself.
    VkSemaphoreSubmitInfo signal = completionSignal(frame);
    VkSemaphoreSignalInfo info = {VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
    info.semaphore = signal.semaphore;
    info.value = signal.value;
    VKC_TRY(checkVk(c.vkd.vkSignalSemaphore(c.device, &info), "vkSignalSemaphore(aabb-tree readback ring)"));
    FrameResults out;
    VKC_TRY(results(frame, out, stats));
    return out;
}

}  // namespace vkc
