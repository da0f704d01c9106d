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
#include "vk/descriptors.h"
#include "vk/readback_ring.h"

#include "spirv/broadphase_bounds.comp.h"
#include "spirv/broadphase_pairs.comp.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace vkc {

static_assert(sizeof(gpu::PairListHeader) == 16 && sizeof(gpu::BroadphasePush) == 16);

namespace {

constexpr uint32_t kDefaultMaxObjects = 4096;
constexpr uint32_t kDefaultPairCapacity = 65536;
constexpr uint32_t kDefaultFramesInFlight = 2;

// Everything one frame in flight uses; reused once that frame has been read back.
// Its buffers are the graph's (DetectorFrames::slots).
struct FrameSlot {
    VkDescriptorSet boundsSet = VK_NULL_HANDLE;
    VkDescriptorSet pairsSet = VK_NULL_HANDLE;
    std::unique_ptr<Graph> graph;  // kept for pass names when reading timings
    uint32_t objectCount = 0;
    glm::dvec3 origin{0.0};  // the shaders' coordinates are world minus this
    GpuCandidates candidates;  // the frame's bounds and pairs, for detectors recorded after it
    uint64_t frame = 0;
};

}  // namespace

struct BroadphaseImpl {
    VulkanContext* ctx = nullptr;
    BroadphaseSettings settings;
    Pipeline boundsPipeline;
    Pipeline pairsPipeline;
    DetectorFrames frames;
    std::vector<FrameSlot> slots;

    ~BroadphaseImpl();
    Status createResources();
    Status recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, uint64_t frame);
};

BroadphaseImpl::~BroadphaseImpl() {
    if (!ctx) return;
    destroyDetectorFrames(*ctx, frames);
    destroyPipeline(*ctx, boundsPipeline);
    destroyPipeline(*ctx, pairsPipeline);
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
    auto pairs = createComputePipeline(c, kSpirv_broadphase_pairs_comp, kBroadphasePairsLayout, {}, "broadphase-pairs");
    if (!pairs) return pairs.status();
    pairsPipeline = pairs.value();

    const uint32_t slotCount = settings.framesInFlight;
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, slotCount * (2 + vertexBuffers + 2)};
    VKC_TRY(createDetectorFrames(c,
                                 {"broadphase", slotCount, slotCount * 2, {&size, 1},
                                  broadphaseReadbackLayout(settings.maxObjects, settings.pairCapacity),
                                  !settings.disableGpuTimings},
                                 frames));
    frames.vertexBufferCapacity = vertexBuffers;
    slots.resize(slotCount);
    for (uint32_t i = 0; i < slotCount; ++i) {
        const FrameSlotResources make(c, i);
        VKC_TRY(make.descriptorSet(slots[i].boundsSet, frames.descriptorPool, boundsPipeline.setLayouts[0],
                                   "broadphase-bounds set", vertexBuffers));
        VKC_TRY(make.descriptorSet(slots[i].pairsSet, frames.descriptorPool, pairsPipeline.setLayouts[0],
                                   "broadphase-pairs set"));
    }
    return Status::success();
}

Status BroadphaseImpl::recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, uint64_t frame) {
    VulkanContext& c = *ctx;
    const uint32_t objectCount = uint32_t(scene.objects.size());
    if (objectCount > settings.maxObjects)
        return makeError(ErrorCode::InvalidArgument, "broadphase: the scene has " + std::to_string(objectCount) +
                                                         " objects, more than BroadphaseSettings::maxObjects (" +
                                                         std::to_string(settings.maxObjects) + ")");
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

    VertexBufferSlots vertexSlots(frames.vertexBufferCapacity, "broadphase: the scene reads");
    std::vector<gpu::ObjectGpu> objects(objectCount);
    const glm::dvec3 origin = candidateOrigin(scene);
    uint32_t maxVertexCount = 0;
    for (uint32_t i = 0; i < objectCount; ++i) {
        const SceneObject& object = scene.objects[i];
        const SceneMesh& mesh = scene.meshes[object.mesh];
        auto vertexSlot = vertexSlots.slot(mesh.vertexBuffer, "object \"" + object.name + "\"");
        if (!vertexSlot) return vertexSlot.status();
        objects[i] = objectGpu(scene, object, origin, vertexSlot.value());
        maxVertexCount = std::max(maxVertexCount, objects[i].vertices.count);
    }

    in.boundsPipeline = &boundsPipeline;
    in.pairsPipeline = &pairsPipeline;
    in.boundsSet = slot.boundsSet;
    in.pairsSet = slot.pairsSet;
    in.push = {objectCount, objectCount < 2 ? 0u : objectCount * (objectCount - 1) / 2, settings.margin, 0u};
    in.pairCapacity = settings.pairCapacity;
    in.maxVertexCount = maxVertexCount;
    in.maxPairGroups = c.properties.limits.maxComputeWorkGroupCount[0];
    in.meshVertices = importVertexBuffers(graph, vertexSlots.buffers());
    in.readback = importReadbackSlot(graph, "broadphase readback slot", frames.ring, frame);
    in.readbackLayout = &frames.readback;
    addBroadphasePasses(graph, in);
    VKC_TRY(graph.compile(slotResources(frames, frame)));

    VKC_TRY(fillHostBuffer(*frames.allocator, graph, in.objects, std::span<const gpu::ObjectGpu>(objects)));
    const GraphDescriptors d(c, graph, frames.placeholder.buffer);
    d.storageBuffer(slot.boundsSet, gpu::kBindingObjects, in.objects);
    d.storageBuffer(slot.boundsSet, gpu::kBindingBounds, in.bounds);
    d.storageBuffer(slot.pairsSet, gpu::kBindingBounds, in.bounds);
    d.storageBuffer(slot.pairsSet, gpu::kBindingPairs, in.pairs);
    writeStorageBufferArray(c, slot.boundsSet, gpu::kBindingVertexBuffers, vertexSlots.buffers());
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
    BroadphaseSettings& s = impl->settings;
    if (s.maxObjects == 0) s.maxObjects = kDefaultMaxObjects;
    if (s.pairCapacity == 0) s.pairCapacity = kDefaultPairCapacity;
    if (s.framesInFlight == 0) s.framesInFlight = kDefaultFramesInFlight;
    // The bounds dispatch puts one object per workgroup row; the pair index must fit 32 bits.
    const uint32_t maxRows = impl->ctx->properties.limits.maxComputeWorkGroupCount[1];
    if (s.maxObjects > std::min(maxRows, 65535u))
        return makeError(ErrorCode::InvalidArgument, "BroadphaseSettings::maxObjects " + std::to_string(s.maxObjects) +
                                                         " exceeds " + std::to_string(std::min(maxRows, 65535u)));
    VKC_TRY(impl->createResources());
    return Broadphase(std::move(impl));
}

Status Broadphase::record(VkCommandBuffer cmd, const Scene& scene, uint64_t frame) {
    return impl_->recordFrame(cmd, sceneImplOf(scene), frame);
}

VkSemaphoreSubmitInfo Broadphase::completionSignal(uint64_t frame) { return ringSignal(impl_->frames.ring, frame); }

Status Broadphase::results(uint64_t frame, BroadphaseResults& out) {
    auto bytes = readRingSlot(*impl_->ctx, impl_->frames.ring, frame);
    if (!bytes) return bytes.status();
    FrameSlot& slot = impl_->slots[frame % impl_->slots.size()];
    const uint32_t n = slot.objectCount;
    const ReadbackLayout& layout = impl_->frames.readback;
    const uint32_t* bounds = layout.span<uint32_t>(bytes.value(), kBroadphaseReadbackBounds, size_t(n) * 6).data();
    out.worldBounds.resize(n);
    // Back to world space in double, rounded outward so each box still contains its object.
    for (uint32_t i = 0; i < n; ++i)
        for (int axis = 0; axis < 3; ++axis) {
            const double lo = double(gpu::decodeOrderedFloat(bounds[i * 3 + axis])) + slot.origin[axis];
            const double hi = double(gpu::decodeOrderedFloat(bounds[(n + i) * 3 + axis])) + slot.origin[axis];
            out.worldBounds[i].min[axis] = floatAtMost(lo);
            out.worldBounds[i].max[axis] = floatAtLeast(hi);
        }
    const char* pairBytes = layout.bytes(bytes.value(), kBroadphaseReadbackPairs);
    gpu::PairListHeader header;
    std::memcpy(&header, pairBytes, sizeof(header));
    out.pairCount = header.count;
    out.truncated = header.count > impl_->settings.pairCapacity;
    const uint32_t stored = std::min(header.count, impl_->settings.pairCapacity);
    out.pairs.resize(stored);
    if (stored != 0)  // an empty vector's data() may be null, which memcpy must not get even for 0 bytes
        std::memcpy(out.pairs.data(), pairBytes + sizeof(header), stored * sizeof(ObjectPair));
    std::sort(out.pairs.begin(), out.pairs.end());
    return readFrameTimings(*impl_->ctx, impl_->frames, frame, *slot.graph, out.gpuTimingsMs);
}

const BroadphaseSettings& Broadphase::settings() const { return impl_->settings; }

Result<GpuCandidates> BroadphaseAccess::candidates(const Broadphase& broadphase, uint64_t frame) {
    const BroadphaseImpl& impl = *broadphase.impl_;
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
    return runAndWait<BroadphaseResults>(
        *impl_->ctx, impl_->frames, "broadphase run",
        [&](VkCommandBuffer cmd, uint64_t frame) { return record(cmd, scene, frame); },
        [&](uint64_t frame, BroadphaseResults& out) { return results(frame, out); });
}

}  // namespace vkc
