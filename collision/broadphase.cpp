// vkc::Broadphase: owns the broadphase pipelines and one set of buffers per frame in flight,
// builds the pass graph per frame (passes/broadphase_passes.cpp) and decodes the read-back slot.
#include "vkcollide/broadphase.h"

#include "collision/graph_execution.h"
#include "collision/object_gpu.h"
#include "collision/object_transform.h"
#include "collision/scene_impl.h"
#include "collision/vertex_buffer_slots.h"
#include "passes/broadphase_passes.h"
#include "vk/commands.h"
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
struct FrameSlot {
    Buffer objects;  // host-visible: the CPU writes transforms at record time
    Buffer bounds;
    Buffer pairs;
    VkDescriptorSet boundsSet = VK_NULL_HANDLE;
    VkDescriptorSet pairsSet = VK_NULL_HANDLE;
    QueryPool timestamps;
    std::unique_ptr<Graph> graph;  // kept for pass names when reading timings
    uint32_t objectCount = 0;
    glm::dvec3 origin{0.0};  // the shaders' coordinates are world minus this
};

// The centre of the objects' translations: boxes are computed relative to it, so their precision
// follows the scene's extent, not its distance from the world origin.
glm::dvec3 frameOrigin(const SceneImpl& scene) {
    if (scene.objects.empty()) return glm::dvec3(0.0);
    glm::dvec3 lo(INFINITY), hi(-INFINITY);
    for (const SceneObject& object : scene.objects) {
        lo = glm::min(lo, glm::dvec3(object.objectToWorld[3]));
        hi = glm::max(hi, glm::dvec3(object.objectToWorld[3]));
    }
    return 0.5 * (lo + hi);
}

}  // namespace

struct BroadphaseImpl {
    VulkanContext* ctx = nullptr;
    BroadphaseSettings settings;
    Pipeline boundsPipeline;
    Pipeline pairsPipeline;
    VkDescriptorPool descriptorPool = VK_NULL_HANDLE;
    uint32_t vertexBufferCapacity = 0;  // length of each bounds set's vertex-buffer array
    std::vector<FrameSlot> slots;
    ReadbackRing ring;
    VkDeviceSize readbackPairsOffset = 0;
    uint64_t nextRunFrame = 0;

    ~BroadphaseImpl();
    Status createResources();
    Status recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, uint64_t frame);
};

BroadphaseImpl::~BroadphaseImpl() {
    if (!ctx) return;
    for (FrameSlot& slot : slots) {
        destroyBuffer(*ctx, slot.objects);
        destroyBuffer(*ctx, slot.bounds);
        destroyBuffer(*ctx, slot.pairs);
        destroyQueryPool(*ctx, slot.timestamps);
    }
    destroyReadbackRing(*ctx, ring);
    destroyDescriptorPool(*ctx, descriptorPool);
    destroyPipeline(*ctx, boundsPipeline);
    destroyPipeline(*ctx, pairsPipeline);
}

Status BroadphaseImpl::createResources() {
    VulkanContext& c = *ctx;
    // A frame reads at most one vertex buffer per object.
    vertexBufferCapacity = vkc::vertexBufferCapacity(c, settings.maxObjects);
    auto bounds = createComputePipeline(c, kSpirv_broadphase_bounds_comp,
                                        withVertexBufferCapacity(kBroadphaseBoundsLayout, vertexBufferCapacity), {},
                                        "broadphase-bounds");
    if (!bounds) return bounds.status();
    boundsPipeline = bounds.value();
    auto pairs = createComputePipeline(c, kSpirv_broadphase_pairs_comp, kBroadphasePairsLayout, {}, "broadphase-pairs");
    if (!pairs) return pairs.status();
    pairsPipeline = pairs.value();

    const uint32_t frames = settings.framesInFlight;
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, frames * (2 + vertexBufferCapacity + 2)};
    auto pool = createDescriptorPool(c, frames * 2, {&size, 1}, "broadphase descriptors");
    if (!pool) return pool.status();
    descriptorPool = pool.value();

    const VkDeviceSize boundsBytes = broadphaseBoundsBytes(settings.maxObjects);
    const VkDeviceSize pairsBytes = broadphasePairsBytes(settings.pairCapacity);
    readbackPairsOffset = boundsBytes;
    auto createdRing = createReadbackRing(c, boundsBytes + pairsBytes, frames, "broadphase readback ring");
    if (!createdRing) return createdRing.status();
    ring = createdRing.value();

    slots.resize(frames);
    for (uint32_t i = 0; i < frames; ++i) {
        FrameSlot& slot = slots[i];
        std::string suffix = " [frame slot " + std::to_string(i) + "]";
        auto objects = createBuffer(c, {sizeof(gpu::ObjectGpu) * settings.maxObjects, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                        MemoryUsage::Upload, ("broadphase objects" + suffix).c_str()});
        if (!objects) return objects.status();
        slot.objects = objects.value();
        auto boundsBuffer = createBuffer(c, {boundsBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::DeviceLocal,
                                             ("broadphase world bounds" + suffix).c_str()});
        if (!boundsBuffer) return boundsBuffer.status();
        slot.bounds = boundsBuffer.value();
        auto pairBuffer = createBuffer(c, {pairsBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::DeviceLocal,
                                           ("broadphase pairs" + suffix).c_str()});
        if (!pairBuffer) return pairBuffer.status();
        slot.pairs = pairBuffer.value();
        auto boundsSet = allocateDescriptorSet(c, descriptorPool, boundsPipeline.setLayouts[0],
                                               ("broadphase-bounds set" + suffix).c_str(), vertexBufferCapacity);
        if (!boundsSet) return boundsSet.status();
        slot.boundsSet = boundsSet.value();
        auto pairsSet = allocateDescriptorSet(c, descriptorPool, pairsPipeline.setLayouts[0],
                                              ("broadphase-pairs set" + suffix).c_str());
        if (!pairsSet) return pairsSet.status();
        slot.pairsSet = pairsSet.value();
        auto timestamps = createQueryPool(c, VK_QUERY_TYPE_TIMESTAMP, 8, ("broadphase timestamps" + suffix).c_str());
        if (!timestamps) return timestamps.status();
        slot.timestamps = timestamps.value();

        writeBufferDescriptor(c, slot.boundsSet, gpu::kBindingObjects, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, slot.objects);
        writeBufferDescriptor(c, slot.boundsSet, gpu::kBindingBounds, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, slot.bounds);
        writeBufferDescriptor(c, slot.pairsSet, gpu::kBindingBounds, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, slot.bounds);
        writeBufferDescriptor(c, slot.pairsSet, gpu::kBindingPairs, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, slot.pairs);
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
    VKC_TRY(ringSlotAvailable(c, ring, frame));
    FrameSlot& slot = slots[frame % slots.size()];

    VertexBufferSlots vertexSlots(vertexBufferCapacity, "broadphase: the scene reads");
    auto* objects = static_cast<gpu::ObjectGpu*>(slot.objects.data);
    const glm::dvec3 origin = frameOrigin(scene);
    uint32_t maxVertexCount = 0;
    for (uint32_t i = 0; i < objectCount; ++i) {
        const SceneObject& object = scene.objects[i];
        const SceneMesh& mesh = scene.meshes[object.mesh];
        auto vertexSlot = vertexSlots.slot(mesh.vertexBuffer, "object \"" + object.name + "\"");
        if (!vertexSlot) return vertexSlot.status();
        objects[i] = objectGpu(scene, object, origin, vertexSlot.value());
        maxVertexCount = std::max(maxVertexCount, objects[i].vertices.count);
    }
    VKC_TRY(flushBuffer(c, slot.objects));
    const std::vector<VkBuffer>& meshBuffers = vertexSlots.buffers();
    writeStorageBufferArray(c, slot.boundsSet, gpu::kBindingVertexBuffers, meshBuffers);

    slot.graph = std::make_unique<Graph>();
    Graph& graph = *slot.graph;
    BroadphasePassInputs in;
    in.boundsPipeline = &boundsPipeline;
    in.pairsPipeline = &pairsPipeline;
    in.boundsSet = slot.boundsSet;
    in.pairsSet = slot.pairsSet;
    in.push = {objectCount, objectCount < 2 ? 0u : objectCount * (objectCount - 1) / 2, settings.margin, 0u};
    in.pairCapacity = settings.pairCapacity;
    in.maxVertexCount = maxVertexCount;
    in.maxPairGroups = c.properties.limits.maxComputeWorkGroupCount[0];
    in.objects = importPersistentBuffer(graph, "broadphase objects", slot.objects, syncStateOf(Access::ComputeRead));
    in.bounds = importPersistentBuffer(graph, "broadphase world bounds", slot.bounds, syncStateOf(Access::TransferSrc));
    in.pairs = importPersistentBuffer(graph, "broadphase pairs", slot.pairs, syncStateOf(Access::TransferSrc));
    in.meshVertices = importVertexBuffers(graph, meshBuffers);
    in.readback = importReadbackSlot(graph, "broadphase readback slot", ring, frame);
    in.readbackPairsOffset = readbackPairsOffset;
    addBroadphasePasses(graph, in);
    VKC_TRY(graph.compile());
    VKC_TRY(graph.execute(cmd, graphExecuteContext(c, slot.timestamps)));
    slot.objectCount = objectCount;
    slot.origin = origin;
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

VkSemaphoreSubmitInfo Broadphase::completionSignal(uint64_t frame) { return ringSignal(impl_->ring, frame); }

static float decodeOrderedFloat(uint32_t encoded) {
    uint32_t bits = (encoded & 0x80000000u) ? (encoded & 0x7fffffffu) : ~encoded;
    float value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
}

Status Broadphase::results(uint64_t frame, BroadphaseResults& out) {
    auto bytes = readRingSlot(*impl_->ctx, impl_->ring, frame);
    if (!bytes) return bytes.status();
    const FrameSlot& slot = impl_->slots[frame % impl_->slots.size()];
    const uint32_t n = slot.objectCount;
    const auto* bounds = static_cast<const uint32_t*>(bytes.value());
    out.worldBounds.resize(n);
    // Back to world space in double, rounded outward so each box still contains its object.
    for (uint32_t i = 0; i < n; ++i)
        for (int axis = 0; axis < 3; ++axis) {
            const double lo = double(decodeOrderedFloat(bounds[i * 3 + axis])) + slot.origin[axis];
            const double hi = double(decodeOrderedFloat(bounds[(n + i) * 3 + axis])) + slot.origin[axis];
            out.worldBounds[i].min[axis] = floatAtMost(lo);
            out.worldBounds[i].max[axis] = floatAtLeast(hi);
        }
    const char* pairBytes = static_cast<const char*>(bytes.value()) + impl_->readbackPairsOffset;
    gpu::PairListHeader header;
    std::memcpy(&header, pairBytes, sizeof(header));
    out.pairCount = header.count;
    out.truncated = header.count > impl_->settings.pairCapacity;
    const uint32_t stored = std::min(header.count, impl_->settings.pairCapacity);
    out.pairs.resize(stored);
    if (stored != 0)  // an empty vector's data() may be null, which memcpy must not get even for 0 bytes
        std::memcpy(out.pairs.data(), pairBytes + sizeof(header), stored * sizeof(ObjectPair));
    std::sort(out.pairs.begin(), out.pairs.end());
    out.gpuTimingsMs.clear();
    return readPassTimings(*impl_->ctx, *slot.graph, slot.timestamps, out.gpuTimingsMs);
}

Result<BroadphaseResults> Broadphase::run(const Scene& scene) {
    VulkanContext& c = *impl_->ctx;
    const uint64_t frame = impl_->nextRunFrame++;
    Status recorded = Status::success();
    VKC_TRY(submitAndWait(c, [&](VkCommandBuffer cmd) { recorded = record(cmd, scene, frame); }, "broadphase run"));
    VKC_TRY(recorded);
    // The submit has completed, so the host signals the frame's completion itself.
    VKC_TRY(signalRingFromHost(c, impl_->ring, frame));
    BroadphaseResults out;
    VKC_TRY(results(frame, out));
    return out;
}

}  // namespace vkc
