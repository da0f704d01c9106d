// vkc::Broadphase: owns the broadphase pipelines and one set of buffers per frame in flight,
// builds the pass graph per frame (passes/broadphase/broadphase_passes.cpp) and decodes the read-back slot.
#include "vkcollide/broadphase.h"

#include "collision/frames/blocking_run.h"
#include "collision/frames/detector_frames.h"
#include "collision/frames/frame_slot_resources.h"
#include "collision/broadphase/broadphase_candidates.h"
#include "collision/frames/vulkan_graph.h"
#include "collision/frames/object_gpu.h"
#include "collision/scene/object_transform.h"
#include "collision/scene/scene_impl.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "passes/broadphase/broadphase_passes.h"
#include "shaders_glsl/shared/float_order.h"
#include "vk/assign_result.h"
#include "vk/descriptors.h"
#include "vk/readback_ring.h"

#include "spirv/broadphase_bounds.comp.h"
#include "spirv/broadphase_centre_box.comp.h"
#include "spirv/broadphase_morton.comp.h"
#include "spirv/broadphase_pair_group.comp.h"
#include "spirv/broadphase_pairs.comp.h"
#include "spirv/broadphase_tree_build.comp.h"
#include "spirv/broadphase_tree_fit.comp.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <tuple>

namespace vkc {

static_assert(sizeof(gpu::PairListHeader) == 16 && sizeof(gpu::BroadphasePush) == 16);
static_assert(sizeof(ObjectPair) == 8, "the read-back pairs are uvec2s");

namespace {

constexpr uint32_t kDefaultMaxObjects = 4096;
constexpr uint32_t kDefaultPairCapacity = 65536;
constexpr uint32_t kDefaultFramesInFlight = 2;

// Everything one frame in flight uses; reused once that frame has been read back.
// Its buffers are the graph's (DetectorFrames::slots).
struct FrameSlot {
    VkDescriptorSet boundsSet = VK_NULL_HANDLE;
    VkDescriptorSet treeSet = VK_NULL_HANDLE;
    VkDescriptorSet codesToScratch = VK_NULL_HANDLE;
    VkDescriptorSet scratchToCodes = VK_NULL_HANDLE;
    VkDescriptorSet histogramScan = VK_NULL_HANDLE;
    VkDescriptorSet pairOffsetsScan = VK_NULL_HANDLE;
    std::unique_ptr<Graph> graph;  // kept for pass names when reading timings
    uint32_t objectCount = 0;
    glm::dvec3 origin{0.0};  // the shaders' coordinates are world minus this
    GpuCandidates candidates;  // the frame's bounds and pairs, for detectors recorded after it
    uint64_t frame = 0;
};

}  // namespace

struct BroadphaseImpl {
    VulkanContext* ctx = nullptr;
    BroadphaseSettings settings;  // in effect: defaults filled in, grown where they follow the scene
    bool objectsFollowScene = false;  // maxObjects was left 0
    bool pairsFollowScene = false;    // pairCapacity was left 0
    uint32_t wantedPairCapacity = 0;  // what a truncated frame's exact count asked for
    Pipeline boundsPipeline;
    BroadphaseTreePipelines treePipelines;
    RadixSortPipelines sortPipelines;
    DetectorFrames frames;
    std::vector<FrameSlot> slots;

    ~BroadphaseImpl();
    Status createResources();
    void destroyResources();
    Status grow(uint32_t maxObjects, uint32_t pairCapacity);
    Status growForScene(uint32_t objectCount);
    Status recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, uint64_t frame);
    // An error when a failed growth could not make even the old sizes again.
    Status usable() const {
        if (!slots.empty()) return Status::success();
        return makeError(ErrorCode::OutOfDeviceMemory,
                         "broadphase: its frames could not be made again after it failed to grow; create it anew");
    }
};

BroadphaseImpl::~BroadphaseImpl() {
    if (ctx) destroyResources();
}

void BroadphaseImpl::destroyResources() {
    destroyDetectorFrames(*ctx, frames);
    destroyPipeline(*ctx, boundsPipeline);
    for (Pipeline* tree : {&treePipelines.centreBox, &treePipelines.morton, &treePipelines.build, &treePipelines.fit,
                           &treePipelines.pairs, &treePipelines.pairGroup})
        destroyPipeline(*ctx, *tree);
    destroyRadixSortPipelines(*ctx, sortPipelines);
}

Status BroadphaseImpl::createResources() {
    VulkanContext& c = *ctx;
    // A frame reads at most one vertex buffer per object.
    const uint32_t vertexBuffers = vertexBufferCapacity(c, settings.maxObjects);
    auto bounds = createComputePipeline(c, kSpirv_broadphase_bounds_comp,
                                        withVertexBufferCapacity(kBroadphaseBoundsLayout, vertexBuffers), {},
                                        "broadphase-bounds");
    if (!bounds) return bounds.status();
    boundsPipeline = bounds.value();
    auto tree = [&](Pipeline& pipeline, std::span<const uint32_t> spirv, const char* name) {
        return assignResult(pipeline, createComputePipeline(c, spirv, kBroadphaseTreeLayout, {}, name));
    };
    VKC_TRY(tree(treePipelines.centreBox, kSpirv_broadphase_centre_box_comp, "broadphase-centre-box"));
    VKC_TRY(tree(treePipelines.morton, kSpirv_broadphase_morton_comp, "broadphase-morton"));
    VKC_TRY(tree(treePipelines.build, kSpirv_broadphase_tree_build_comp, "broadphase-tree-build"));
    VKC_TRY(tree(treePipelines.fit, kSpirv_broadphase_tree_fit_comp, "broadphase-tree-fit"));
    VKC_TRY(tree(treePipelines.pairs, kSpirv_broadphase_pairs_comp, "broadphase-pairs"));
    VKC_TRY(tree(treePipelines.pairGroup, kSpirv_broadphase_pair_group_comp, "broadphase-pair-group"));
    VKC_TRY(assignResult(sortPipelines, createRadixSortPipelines(c)));

    const uint32_t slotCount = settings.framesInFlight;
    // Per slot: the bounds set (its array binding holds vertexBuffers), the tree set, two sort sets
    // and two scan sets, counted from their layouts (lavapipe does not enforce a pool's sizes, so a
    // short count passes every test here and fails on stricter drivers).
    const uint32_t setBuffers = uint32_t(kBroadphaseBoundsLayout.bindings.size()) - 1 + vertexBuffers +
                                uint32_t(kBroadphaseTreeLayout.bindings.size()) +
                                2 * uint32_t(kRadixSortLayout.bindings.size()) +
                                2 * uint32_t(kPrefixScanLayout.bindings.size());
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, slotCount * setBuffers};
    VKC_TRY(createDetectorFrames(c,
                                 {"broadphase", slotCount, slotCount * 6, {&size, 1},
                                  broadphaseReadbackLayout(settings.maxObjects, settings.pairCapacity),
                                  !settings.disableGpuTimings},
                                 frames));
    frames.vertexBufferCapacity = vertexBuffers;
    slots.resize(slotCount);
    for (uint32_t i = 0; i < slotCount; ++i) {
        const FrameSlotResources make(c, i);
        VKC_TRY(make.descriptorSet(slots[i].boundsSet, frames.descriptorPool, boundsPipeline.setLayouts[0],
                                   "broadphase-bounds set", vertexBuffers));
        VKC_TRY(make.descriptorSet(slots[i].treeSet, frames.descriptorPool, treePipelines.pairs.setLayouts[0],
                                   "broadphase-tree set"));
        VKC_TRY(make.descriptorSet(slots[i].codesToScratch, frames.descriptorPool,
                                   sortPipelines.scatter.setLayouts[0], "broadphase-sort set (codes to scratch)"));
        VKC_TRY(make.descriptorSet(slots[i].scratchToCodes, frames.descriptorPool,
                                   sortPipelines.scatter.setLayouts[0], "broadphase-sort set (scratch to codes)"));
        VKC_TRY(make.descriptorSet(slots[i].histogramScan, frames.descriptorPool,
                                   sortPipelines.scan.apply.setLayouts[0], "broadphase-sort set (histogram scan)"));
        VKC_TRY(make.descriptorSet(slots[i].pairOffsetsScan, frames.descriptorPool,
                                   sortPipelines.scan.apply.setLayouts[0], "broadphase pair-offsets scan set"));
    }
    return Status::success();
}

// Everything is made again at the new sizes, once nothing recorded so far can still use it; frame
// numbers go on increasing, and the earlier frames' results are gone.
Status BroadphaseImpl::grow(uint32_t maxObjects, uint32_t pairCapacity) {
    VKC_TRY(ringIdle(*ctx, frames.ring));
    const uint64_t nextRunFrame = frames.nextRunFrame, signalled = frames.ring.signalled;
    const BroadphaseSettings before = settings;
    destroyResources();
    frames = DetectorFrames{};
    slots.clear();
    settings.maxObjects = maxObjects;
    settings.pairCapacity = pairCapacity;
    Status made = createResources();
    if (!made.ok()) {  // keep a working broadphase at the sizes it had
        destroyResources();
        frames = DetectorFrames{};
        slots.clear();
        settings = before;
        VKC_TRY(createResources());
    }
    frames.nextRunFrame = nextRunFrame;
    frames.ring.signalled = signalled;
    return made;
}

// More objects than maxObjects: grown to the next power of two when maxObjects follows the scene
// (every frame so far completed: NotReady until then), else refused.
Status BroadphaseImpl::growForScene(uint32_t objectCount) {
    const std::string tooMany = "broadphase: the scene has " + std::to_string(objectCount) +
                                " objects, more than BroadphaseSettings::maxObjects (" +
                                std::to_string(settings.maxObjects) + ")";
    const uint32_t limit = broadphaseObjectLimit(*ctx);
    if (!objectsFollowScene || objectCount > limit)
        return makeError(ErrorCode::InvalidArgument,
                         tooMany + (objectsFollowScene ? ", and this device's limit (" + std::to_string(limit) + ")" : ""));
    const uint32_t grownTo = std::min(limit, std::bit_ceil(objectCount));
    Status grown = grow(grownTo, settings.pairCapacity);
    if (grown.ok()) return grown;
    if (grown.code == ErrorCode::NotReady)
        return makeError(grown.code, tooMany + ": it grows once every frame recorded so far has completed (" +
                                         grown.message + "); or set maxObjects for the largest scene");
    return makeError(grown.code, tooMany + ": growing it to " + std::to_string(grownTo) + " failed: " + grown.message);
}

Status BroadphaseImpl::recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, uint64_t frame) {
    VKC_TRY(usable());
    VulkanContext& c = *ctx;
    const uint32_t objectCount = uint32_t(scene.objects.size());
    if (objectCount > settings.maxObjects) VKC_TRY(growForScene(objectCount));
    // A truncated frame asked for more pair room: taken when nothing is in flight, else later. Room
    // that cannot be had (out of memory) is not asked for again; the frames stay truncated.
    if (wantedPairCapacity > settings.pairCapacity && ringIdle(c, frames.ring).ok() &&
        !grow(settings.maxObjects, wantedPairCapacity).ok())
        wantedPairCapacity = settings.pairCapacity;
    // The slot is free once the frame that last used it has completed on the GPU (never waits).
    VKC_TRY(ringSlotAvailable(c, frames.ring, frame));
    FrameSlot& slot = slots[frame % slots.size()];

    slot.graph = std::make_unique<Graph>();
    Graph& graph = *slot.graph;
    BroadphasePassInputs in;
    in.objects = graph.createBuffer("broadphase objects",
                                    {sizeof(gpu::ObjectGpu) * std::max(objectCount, 1u), 0, /*hostWrite*/ true});
    in.bounds = graph.createBuffer("broadphase world bounds", {broadphaseBoundsBytes(settings.maxObjects)});
    in.pairs = graph.createBuffer("broadphase pairs", {broadphasePairsBytes(settings.pairCapacity)});
    in.centreBox = graph.createBuffer("broadphase centre box", {24});
    in.codes = graph.createBuffer("broadphase sorted codes", {radixSortBufferBytes(objectCount)});
    in.codesScratch = graph.createBuffer("broadphase sort scratch", {radixSortBufferBytes(objectCount)});
    in.sortHistogram = graph.createBuffer("broadphase sort histogram", {radixSortHistogramBytes(objectCount)});
    in.sortHistogramBlockSums =
        graph.createBuffer("broadphase sort histogram block sums", {radixSortHistogramBlockSumsBytes(objectCount)});
    in.treeNodes = graph.createBuffer("broadphase tree nodes", {broadphaseTreeNodesBytes(objectCount)});
    in.leafParents = graph.createBuffer("broadphase leaf parents", {broadphasePerObjectBytes(objectCount)});
    in.fitVisits = graph.createBuffer("broadphase fit visits", {broadphasePerObjectBytes(objectCount)});
    in.leafBoxes = graph.createBuffer("broadphase sorted leaf boxes", {broadphaseLeafBoxesBytes(objectCount)});
    in.pairOffsets = graph.createBuffer("broadphase pair offsets", {broadphasePerObjectBytes(objectCount)});
    in.pairOffsetsBlockSums =
        graph.createBuffer("broadphase pair offsets block sums", {prefixScanBlockSumsBytes(objectCount)});
    in.groupedPairs = graph.createBuffer("broadphase grouped pairs", {broadphasePairsBytes(settings.pairCapacity)});

    // Each mesh's vertex-buffer slot and bounds chunks, found once per mesh (a scene has far fewer
    // meshes than objects).
    VertexBufferSlots vertexSlots(frames.vertexBufferCapacity, "broadphase: the scene reads");
    constexpr uint32_t kNoSlot = UINT32_MAX;
    std::vector<uint32_t> meshSlots(scene.meshes.size(), kNoSlot), meshChunks(scene.meshes.size(), 0);
    uint64_t boundsChunks = 0;
    CandidateOrigin translations;  // gathered here rather than in a pass of its own over the objects
    for (const SceneObject& object : scene.objects) {
        translations.add(object.objectToWorld);
        uint32_t& meshSlot = meshSlots[object.mesh];
        if (meshSlot == kNoSlot) {
            const SceneMesh& mesh = scene.meshes[object.mesh];
            auto vertexSlot = vertexSlots.slot(mesh.vertexBuffer, vertexExtentBytes(mesh),
                                               [&] { return "object \"" + object.name + "\""; });
            if (!vertexSlot) return vertexSlot.status();
            meshSlot = vertexSlot.value();
            meshChunks[object.mesh] = boundsChunkCount(uint32_t(mesh.data.positions.size()));
        }
        boundsChunks += meshChunks[object.mesh];
    }
    const VkPhysicalDeviceLimits& limits = c.properties.limits;
    const uint64_t chunkLimit =
        std::min<uint64_t>(UINT32_MAX, uint64_t(limits.maxComputeWorkGroupCount[0]) *
                                           limits.maxComputeWorkGroupCount[1] * gpu::kBoundsGroupSize);
    if (boundsChunks > chunkLimit)
        return makeError(ErrorCode::InvalidArgument,
                         "broadphase: the scene's objects make " + std::to_string(boundsChunks) + " chunks of up to " +
                             std::to_string(gpu::kBoundsChunkVertices) +
                             " vertices (each object's mesh counted once per object), more than the " +
                             std::to_string(chunkLimit) + " one bounds dispatch reaches on this device");
    const bool chunkPerObject = boundsChunks == objectCount;
    in.chunkStarts = graph.createBuffer("broadphase bounds chunk starts",
                                        {broadphasePerObjectBytes(objectCount), 0, /*hostWrite*/ true});
    const glm::dvec3 origin = translations.centre();

    in.boundsPipeline = &boundsPipeline;
    in.treePipelines = &treePipelines;
    in.sortPipelines = &sortPipelines;
    in.boundsSet = slot.boundsSet;
    in.treeSet = slot.treeSet;
    in.codesToScratch = slot.codesToScratch;
    in.scratchToCodes = slot.scratchToCodes;
    in.histogramScan = slot.histogramScan;
    in.pairOffsetsScan = slot.pairOffsetsScan;
    in.push = {objectCount, uint32_t(boundsChunks), settings.margin, 0u};
    in.pairCapacity = settings.pairCapacity;
    in.maxGroupsX = limits.maxComputeWorkGroupCount[0];
    in.meshVertices = importVertexBuffers(graph, vertexSlots.buffers());
    in.readback = importReadbackSlot(graph, "broadphase readback slot", frames.ring, frame);
    in.readbackLayout = &frames.readback;
    addBroadphasePasses(graph, in);
    VKC_TRY(graph.compile(slotResources(frames, frame)));

    // The object table straight into its mapped memory: at 100,000 objects a table built aside
    // and copied cost a zero-fill and a copy of 8 MB per frame.
    if (objectCount != 0 && graph.buffer(in.objects) != VK_NULL_HANDLE) {
        auto* objects = static_cast<gpu::ObjectGpu*>(graph.mapped(in.objects));
        for (uint32_t i = 0; i < objectCount; ++i) {
            const SceneObject& object = scene.objects[i];
            objects[i] = objectGpu(scene, object, origin, meshSlots[object.mesh]);
        }
        VKC_TRY(frames.allocator->flush(graph.buffer(in.objects)));
    }
    if (!chunkPerObject) {
        auto* starts = static_cast<uint32_t*>(graph.mapped(in.chunkStarts));
        uint32_t next = 0;
        for (uint32_t i = 0; i < objectCount; ++i) {
            starts[i] = next;
            next += meshChunks[scene.objects[i].mesh];
        }
        VKC_TRY(frames.allocator->flush(graph.buffer(in.chunkStarts)));
    }
    const GraphDescriptors d(c, graph, frames.placeholder.buffer);
    d.storageBuffer(slot.boundsSet, gpu::kBindingObjects, in.objects);
    d.storageBuffer(slot.boundsSet, gpu::kBindingBounds, in.bounds);
    d.storageBuffer(slot.boundsSet, gpu::kBindingChunkStarts, in.chunkStarts);
    const std::pair<uint32_t, BufferHandle> treeBindings[] = {
        {gpu::kBindingBounds, in.bounds},         {gpu::kBindingPairs, in.pairs},
        {gpu::kBindingCentreBox, in.centreBox},   {gpu::kBindingSortedCodes, in.codes},
        {gpu::kBindingTreeNodes, in.treeNodes},   {gpu::kBindingLeafParents, in.leafParents},
        {gpu::kBindingFitVisits, in.fitVisits},   {gpu::kBindingLeafBoxes, in.leafBoxes},
        {gpu::kBindingPairOffsets, in.pairOffsets}, {gpu::kBindingGroupedPairs, in.groupedPairs}};
    for (const auto& [binding, buffer] : treeBindings) d.storageBuffer(slot.treeSet, binding, buffer);
    for (const auto& [set, source, destination] :
         {std::tuple{slot.codesToScratch, in.codes, in.codesScratch}, std::tuple{slot.scratchToCodes, in.codesScratch, in.codes}}) {
        d.storageBuffer(set, gpu::kRadixBindingSource, source);
        d.storageBuffer(set, gpu::kRadixBindingDestination, destination);
        d.storageBuffer(set, gpu::kRadixBindingHistogram, in.sortHistogram);
    }
    for (const auto& [set, data, blockSums] :
         {std::tuple{slot.histogramScan, in.sortHistogram, in.sortHistogramBlockSums},
          std::tuple{slot.pairOffsetsScan, in.pairOffsets, in.pairOffsetsBlockSums}}) {
        d.storageBuffer(set, gpu::kScanBindingData, data);
        d.storageBuffer(set, gpu::kScanBindingBlockSums, blockSums);
    }
    writeStorageBufferArray(c, slot.boundsSet, gpu::kBindingVertexBuffers, vertexSlots.bindings());
    VKC_TRY(executeFrameGraph(c, frames, frame, graph, cmd));
    slot.objectCount = objectCount;
    slot.origin = origin;
    slot.frame = frame;
    slot.candidates = {graph.buffer(in.bounds), graph.bufferSize(in.bounds), graph.buffer(in.pairs),
                       graph.bufferSize(in.pairs), origin, objectCount, settings.pairCapacity};
    return Status::success();
}

Broadphase::Broadphase(std::unique_ptr<BroadphaseImpl> impl) : impl_(std::move(impl)) {}
Broadphase::Broadphase(Broadphase&&) noexcept = default;
Broadphase& Broadphase::operator=(Broadphase&&) noexcept = default;
Broadphase::~Broadphase() = default;

Result<Broadphase> Broadphase::create(Context& context, const BroadphaseSettings& settings) {
    if (!context.valid()) return makeError(ErrorCode::InvalidArgument, "Broadphase::create: context is not valid");
    if (!(settings.margin >= 0.0f) || !std::isfinite(settings.margin))
        return makeError(ErrorCode::InvalidArgument, "BroadphaseSettings::margin must be finite and >= 0");
    auto impl = std::make_unique<BroadphaseImpl>();
    impl->ctx = &vulkanOf(context);
    impl->settings = settings;
    impl->objectsFollowScene = settings.maxObjects == 0;
    impl->pairsFollowScene = settings.pairCapacity == 0;
    BroadphaseSettings& s = impl->settings;
    if (s.maxObjects == 0) s.maxObjects = kDefaultMaxObjects;
    if (s.pairCapacity == 0) s.pairCapacity = kDefaultPairCapacity;
    if (s.framesInFlight == 0) s.framesInFlight = kDefaultFramesInFlight;
    // The tree passes give each object one thread.
    const uint32_t limit = broadphaseObjectLimit(*impl->ctx);
    if (s.maxObjects > limit)
        return makeError(ErrorCode::InvalidArgument, "BroadphaseSettings::maxObjects " + std::to_string(s.maxObjects) +
                                                         " exceeds this device's " + std::to_string(limit));
    VKC_TRY(impl->createResources());
    return Broadphase(std::move(impl));
}

Status Broadphase::record(VkCommandBuffer cmd, const Scene& scene, uint64_t frame) {
    return impl_->recordFrame(cmd, sceneImplOf(scene), frame);
}

VkSemaphoreSubmitInfo Broadphase::completionSignal(uint64_t frame) { return ringSignal(impl_->frames.ring, frame); }

Status Broadphase::results(uint64_t frame, BroadphaseResults& out) {
    VKC_TRY(impl_->usable());
    auto bytes = readRingSlot(*impl_->ctx, impl_->frames.ring, frame);
    if (!bytes) return bytes.status();
    FrameSlot& slot = impl_->slots[frame % impl_->slots.size()];
    const uint32_t n = slot.objectCount;
    const ReadbackLayout& layout = impl_->frames.readback;
    const uint32_t* bounds = layout.span<uint32_t>(bytes.value(), kBroadphaseReadbackBounds, size_t(n) * 6).data();
    // Back to world space in double, rounded outward so each box still contains its object.
    // Appended rather than resized and overwritten: a zero-fill of a million boxes' 24 MB was a
    // tenth of the calling thread's time per frame.
    out.worldBounds.clear();
    out.worldBounds.reserve(n);
    for (uint32_t i = 0; i < n; ++i) {
        Aabb& box = out.worldBounds.emplace_back();
        for (int axis = 0; axis < 3; ++axis) {
            const double lo = double(gpu::decodeOrderedFloat(bounds[i * 3 + axis])) + slot.origin[axis];
            const double hi = double(gpu::decodeOrderedFloat(bounds[(n + i) * 3 + axis])) + slot.origin[axis];
            box.min[axis] = floatAtMost(lo);
            box.max[axis] = floatAtLeast(hi);
        }
    }
    const char* pairBytes = layout.bytes(bytes.value(), kBroadphaseReadbackPairs);
    gpu::PairListHeader header;
    std::memcpy(&header, pairBytes, sizeof(header));
    out.pairCount = header.count;
    out.truncated = header.count > impl_->settings.pairCapacity;
    if (out.truncated && impl_->pairsFollowScene)  // the pair list's buffer stays within one binding
        impl_->wantedPairCapacity = std::max(
            impl_->wantedPairCapacity,
            uint32_t(std::min<uint64_t>(std::bit_ceil(uint64_t(header.count)),
                                        (impl_->ctx->properties.limits.maxStorageBufferRange - sizeof(header)) / 8)));
    const uint32_t stored = std::min(header.count, impl_->settings.pairCapacity);
    const auto* storedPairs = reinterpret_cast<const ObjectPair*>(pairBytes + sizeof(header));  // uvec2s
    out.pairs.assign(storedPairs, storedPairs + stored);
    // Grouped by a in increasing order on the GPU: each group sorted by b makes the list sorted.
    for (auto group = out.pairs.begin(); group != out.pairs.end();) {
        const auto end = std::find_if(group, out.pairs.end(), [a = group->a](const ObjectPair& p) { return p.a != a; });
        std::sort(group, end);
        group = end;
    }
    return readFrameTimings(*impl_->ctx, impl_->frames, frame, *slot.graph, out.gpuTimingsMs);
}

const BroadphaseSettings& Broadphase::settings() const { return impl_->settings; }

Result<GpuCandidates> BroadphaseAccess::candidates(const Broadphase& broadphase, uint64_t frame) {
    const BroadphaseImpl& impl = *broadphase.impl_;
    VKC_TRY(impl.usable());
    const FrameSlot& slot = impl.slots[frame % impl.slots.size()];
    if (!slot.graph || slot.frame != frame)
        return makeError(ErrorCode::InvalidArgument, "the broadphase has not recorded frame " + std::to_string(frame) +
                                                         " (record it first, into the same command buffer)");
    return slot.candidates;
}

Result<GpuCandidates> broadphaseCandidates(const Broadphase& broadphase, uint64_t frame, const char* method) {
    auto candidates = BroadphaseAccess::candidates(broadphase, frame);
    if (!candidates) return makeError(candidates.status().code, std::string(method) + ": " + candidates.status().message);
    return candidates;
}

DetectorFrames& BroadphaseAccess::frames(Broadphase& broadphase) { return broadphase.impl_->frames; }

Result<BroadphaseResults> Broadphase::run(const Scene& scene) {
    auto once = [&] {
        return runAndWait<BroadphaseResults>(
            *impl_->ctx, impl_->frames, "broadphase run",
            [&](VkCommandBuffer cmd, uint64_t frame) { return record(cmd, scene, frame); },
            [&](uint64_t frame, BroadphaseResults& out) { return results(frame, out); });
    };
    auto out = once();
    // A truncated list whose capacity follows the pairs: once more with the room its count asked for.
    if (out && out->truncated && impl_->wantedPairCapacity > impl_->settings.pairCapacity) out = once();
    return out;
}

}  // namespace vkc
