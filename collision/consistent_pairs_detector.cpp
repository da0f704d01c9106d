// vkc::ConsistentPairsDetector (paper 3, Jang, Jeong & Han): pipelines, per-frame-slot resources and
// the public entry points. Frames are recorded and decoded in consistent_pairs_detector_frame.cpp.
#include "collision/consistent_pairs_detector_impl.h"

#include "collision/scene_impl.h"
#include "passes/stencil_passes.h"
#include "vk/commands.h"
#include "vk/descriptors.h"

#include "spirv/cp_back_id.frag.h"
#include "spirv/cp_consistency.frag.h"
#include "spirv/cp_decide.comp.h"
#include "spirv/cp_determination.frag.h"
#include "spirv/cp_geometry.vert.h"
#include "spirv/cp_peel.frag.h"
#include "spirv/stencil_compact.comp.h"

#include <algorithm>
#include <cmath>

namespace vkc {

static_assert(sizeof(gpu::CpObjectGpu) == 80 && sizeof(gpu::CpFrameGpu) == 160 && sizeof(gpu::CpDrawPush) == 16 &&
                  sizeof(gpu::CpDecidePush) == 16,
              "consistent-pairs structs must match their std430 / push-constant layouts");
static_assert(sizeof(gpu::CpStatsGpu) == 16 + 4 * gpu::kCpMaxIterations && sizeof(gpu::CpPointGpu) == 64);

namespace {

constexpr uint32_t kDefaultResolution = 1024;
constexpr uint32_t kDefaultLayers = 3;
constexpr uint32_t kDefaultIterations = 8;
constexpr float kDefaultThresholdPixels = 1.5f;
constexpr float kDefaultPaddingPixels = 2.0f;
constexpr uint32_t kDefaultPointCapacity = 65536;
constexpr uint32_t kDefaultMaxObjects = 4096;
constexpr uint32_t kDefaultMaxCandidatePairs = 16384;
constexpr uint32_t kDefaultFramesInFlight = 2;

}  // namespace

ConsistentPairsDetectorImpl::~ConsistentPairsDetectorImpl() {
    if (!ctx) return;
    for (ConsistentPairsSlot& slot : slots) {
        for (Buffer* buffer : {&slot.objects, &slot.frame, &slot.draws, &slot.candidates, &slot.indices, &slot.pairFlags,
                               &slot.stats, &slot.pairs, &slot.points})
            destroyBuffer(*ctx, *buffer);
        for (Image* image : {&slot.depth, &slot.peelTarget, &slot.layers, &slot.backDepth, &slot.backId})
            destroyImage(*ctx, *image);
        destroyQueryPool(*ctx, slot.occlusion);
        destroyQueryPool(*ctx, slot.timestamps);
    }
    destroyReadbackRing(*ctx, ring);
    destroyBuffer(*ctx, dummyVertices);
    destroyDescriptorPool(*ctx, descriptorPool);
    for (Pipeline* p : {&peel, &consistency, &backId, &determination, &decide, &compact}) destroyPipeline(*ctx, *p);
}

Status ConsistentPairsDetectorImpl::createPipelines() {
    VulkanContext& c = *ctx;
    auto compute = [&](Pipeline& out, std::span<const uint32_t> spirv, const PipelineLayoutDesc& layout,
                       const char* name) -> Status {
        auto created = createComputePipeline(c, spirv, layout, {}, name);
        if (!created) return created.status();
        out = created.value();
        return Status::success();
    };
    VKC_TRY(compute(decide, kSpirv_cp_decide_comp, kConsistentPairsDecideLayout, "cp-decide"));
    // The flag-matrix compaction is the stencil method's, unchanged.
    VKC_TRY(compute(compact, kSpirv_stencil_compact_comp, kStencilCompactLayout, "cp-compact"));

    auto graphics = [&](Pipeline& out, GraphicsPipelineDesc desc) -> Status {
        desc.vertexSpirv = kSpirv_cp_geometry_vert;
        desc.layout = kConsistentPairsDrawLayout;
        desc.depthFormat = kConsistentPairsDepthFormat;
        // fitStencilViews keeps the orientation: outward counter-clockwise triangles face the eye.
        desc.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
        auto created = createGraphicsPipeline(c, desc);
        if (!created) return created.status();
        out = created.value();
        return Status::success();
    };
    GraphicsPipelineDesc peeling;
    peeling.fragmentSpirv = kSpirv_cp_peel_frag;
    peeling.cullMode = VK_CULL_MODE_BACK_BIT;
    peeling.depthTest = true;
    peeling.depthWrite = true;
    peeling.depthCompare = VK_COMPARE_OP_LESS;
    peeling.colorFormats = {kConsistentPairsLayerFormat};
    peeling.name = "cp-peel";
    VKC_TRY(graphics(peel, peeling));

    GraphicsPipelineDesc backFaces;
    backFaces.fragmentSpirv = kSpirv_cp_consistency_frag;
    backFaces.cullMode = VK_CULL_MODE_FRONT_BIT;
    backFaces.name = "cp-consistency";
    VKC_TRY(graphics(consistency, backFaces));
    backFaces.fragmentSpirv = kSpirv_cp_back_id_frag;
    backFaces.name = "cp-back-id";
    VKC_TRY(graphics(backId, backFaces));

    GraphicsPipelineDesc allFaces;
    allFaces.fragmentSpirv = kSpirv_cp_determination_frag;
    allFaces.cullMode = VK_CULL_MODE_NONE;
    allFaces.name = "cp-determination";
    return graphics(determination, allFaces);
}

Status ConsistentPairsDetectorImpl::createSlot(ConsistentPairsSlot& slot, uint32_t index) {
    VulkanContext& c = *ctx;
    const ConsistentPairsSettings& s = settings;
    const std::string suffix = " [frame slot " + std::to_string(index) + "]";
    auto buffer = [&](Buffer& out, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUsage memory,
                      const char* name) -> Status {
        auto created = createBuffer(c, {size, usage, memory, (std::string(name) + suffix).c_str()});
        if (!created) return created.status();
        out = created.value();
        return Status::success();
    };
    const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    VKC_TRY(buffer(slot.objects, sizeof(gpu::CpObjectGpu) * s.maxObjects, storage, MemoryUsage::Upload, "cp objects"));
    VKC_TRY(buffer(slot.frame, sizeof(gpu::CpFrameGpu), storage, MemoryUsage::Upload, "cp frame view"));
    VKC_TRY(buffer(slot.draws, sizeof(VkDrawIndexedIndirectCommand) * VkDeviceSize(s.maxObjects) * s.maxIterations,
                   storage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, MemoryUsage::Upload, "cp indirect draws"));
    VKC_TRY(buffer(slot.candidates, 8 * VkDeviceSize(s.maxCandidatePairs), storage, MemoryUsage::Upload,
                   "cp candidate pairs"));
    VKC_TRY(buffer(slot.pairFlags, std::max<VkDeviceSize>(16, stencilPairFlagsBytes(s.maxObjects)), storage,
                   MemoryUsage::DeviceLocal, "cp pair flags"));
    VKC_TRY(buffer(slot.stats, sizeof(gpu::CpStatsGpu), storage, MemoryUsage::DeviceLocal, "cp stats"));
    VKC_TRY(buffer(slot.pairs, stencilPairsBytes(s.maxCandidatePairs), storage, MemoryUsage::DeviceLocal, "cp pairs"));
    VKC_TRY(buffer(slot.points, consistentPairsPointsBytes(s.pointCapacity), storage, MemoryUsage::DeviceLocal,
                   "cp collision points"));

    auto image = [&](Image& out, VkFormat format, VkImageUsageFlags usage, uint32_t layers, const char* name) -> Status {
        auto created = createImage(c, {s.resolution, s.resolution, format, usage, layers,
                                       (std::string(name) + suffix).c_str()});
        if (!created) return created.status();
        out = created.value();
        return Status::success();
    };
    const VkImageUsageFlags storageImage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    VKC_TRY(image(slot.depth, kConsistentPairsDepthFormat, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 1, "cp depth"));
    VKC_TRY(image(slot.peelTarget, kConsistentPairsLayerFormat,
                  VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, 1, "cp peel target"));
    // Two layers at least, so that every view of an array image is an array view.
    VKC_TRY(image(slot.layers, kConsistentPairsLayerFormat, storageImage, s.layersPerIteration, "cp front layers"));
    VKC_TRY(image(slot.backDepth, kConsistentPairsBackDepthFormat, storageImage, s.layersPerIteration,
                  "cp nearest back depth per slot"));
    VKC_TRY(image(slot.backId, kConsistentPairsBackIdFormat, storageImage, s.layersPerIteration,
                  "cp nearest back id per slot"));

    auto set = [&](VkDescriptorSet& out, VkDescriptorSetLayout layout, const char* name) -> Status {
        auto created = allocateDescriptorSet(c, descriptorPool, layout, (std::string(name) + suffix).c_str());
        if (!created) return created.status();
        out = created.value();
        return Status::success();
    };
    VKC_TRY(set(slot.geometrySet, peel.setLayouts[0], "cp geometry set"));
    VKC_TRY(set(slot.windowSet, peel.setLayouts[1], "cp window set"));
    VKC_TRY(set(slot.decideSet, decide.setLayouts[0], "cp decide set"));
    VKC_TRY(set(slot.compactSet, compact.setLayouts[0], "cp compact set"));

    auto occlusion = createQueryPool(c, VK_QUERY_TYPE_OCCLUSION,
                                     consistentPairsPeelCount(s.layersPerIteration, s.maxIterations),
                                     ("cp peel occlusion" + suffix).c_str());
    if (!occlusion) return occlusion.status();
    slot.occlusion = occlusion.value();
    auto timestamps = createQueryPool(c, VK_QUERY_TYPE_TIMESTAMP,
                                      2 * consistentPairsPassCount(s.layersPerIteration, s.maxIterations),
                                      ("cp timestamps" + suffix).c_str());
    if (!timestamps) return timestamps.status();
    slot.timestamps = timestamps.value();

    const VkDescriptorType sb = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writeBufferDescriptor(c, slot.geometrySet, gpu::kCpBindingObjects, sb, slot.objects);
    writeBufferDescriptor(c, slot.geometrySet, gpu::kCpBindingFrame, sb, slot.frame);
    writeBufferDescriptor(c, slot.windowSet, gpu::kCpBindingPairFlags, sb, slot.pairFlags);
    writeBufferDescriptor(c, slot.windowSet, gpu::kCpBindingStats, sb, slot.stats);
    writeBufferDescriptor(c, slot.windowSet, gpu::kCpBindingPoints, sb, slot.points);
    writeBufferDescriptor(c, slot.decideSet, gpu::kCpBindingDecideStats, sb, slot.stats);
    writeBufferDescriptor(c, slot.decideSet, gpu::kCpBindingDraws, sb, slot.draws);
    writeBufferDescriptor(c, slot.compactSet, gpu::kStencilBindingCandidates, sb, slot.candidates);
    writeBufferDescriptor(c, slot.compactSet, gpu::kStencilBindingPairFlags, sb, slot.pairFlags);
    writeBufferDescriptor(c, slot.compactSet, gpu::kStencilBindingPairs, sb, slot.pairs);
    const Image* images[3] = {&slot.layers, &slot.backDepth, &slot.backId};
    const uint32_t bindings[3] = {gpu::kCpBindingLayers, gpu::kCpBindingBackDepth, gpu::kCpBindingBackId};
    VkDescriptorImageInfo infos[3];
    VkWriteDescriptorSet writes[3];
    for (uint32_t k = 0; k < 3; ++k) {
        infos[k] = {VK_NULL_HANDLE, images[k]->view, VK_IMAGE_LAYOUT_GENERAL};
        writes[k] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        writes[k].dstSet = slot.windowSet;
        writes[k].dstBinding = bindings[k];
        writes[k].descriptorCount = 1;
        writes[k].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
        writes[k].pImageInfo = &infos[k];
    }
    c.vkd.vkUpdateDescriptorSets(c.device, 3, writes, 0, nullptr);
    return Status::success();
}

Status ConsistentPairsDetectorImpl::createResources() {
    VulkanContext& c = *ctx;
    const uint32_t frames = settings.framesInFlight;
    VkDescriptorPoolSize sizes[2] = {
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, frames * (2 + gpu::kCpMaxMeshSlots + 3 + 2 + 3)},
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, frames * 3}};
    auto pool = createDescriptorPool(c, frames * 4, sizes, "cp descriptors");
    if (!pool) return pool.status();
    descriptorPool = pool.value();

    auto dummy = createBuffer(c, {16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::DeviceLocal,
                                  "cp unused mesh slot"});
    if (!dummy) return dummy.status();
    dummyVertices = dummy.value();

    const VkDeviceSize pairsBytes = stencilPairsBytes(settings.maxCandidatePairs);
    const VkDeviceSize pointsBytes = consistentPairsPointsBytes(settings.pointCapacity);
    readbackPointsOffset = pairsBytes;
    readbackStatsOffset = pairsBytes + pointsBytes;
    auto createdRing = createReadbackRing(c, readbackStatsOffset + sizeof(gpu::CpStatsGpu), frames,
                                          "cp readback ring");
    if (!createdRing) return createdRing.status();
    ring = createdRing.value();

    slots.resize(frames);
    for (uint32_t i = 0; i < frames; ++i) VKC_TRY(createSlot(slots[i], i));
    return Status::success();
}

ConsistentPairsDetector::ConsistentPairsDetector(std::unique_ptr<ConsistentPairsDetectorImpl> impl)
    : impl_(std::move(impl)) {}
ConsistentPairsDetector::ConsistentPairsDetector(ConsistentPairsDetector&&) noexcept = default;
ConsistentPairsDetector& ConsistentPairsDetector::operator=(ConsistentPairsDetector&&) noexcept = default;
ConsistentPairsDetector::~ConsistentPairsDetector() = default;

Result<ConsistentPairsDetector> ConsistentPairsDetector::create(Context& context, const ConsistentPairsSettings& settings) {
    if (!context.valid())
        return makeError(ErrorCode::InvalidArgument, "ConsistentPairsDetector::create: context is not valid");
    auto impl = std::make_unique<ConsistentPairsDetectorImpl>();
    impl->ctx = &context.vulkan();
    impl->context = &context;
    impl->settings = settings;
    ConsistentPairsSettings& s = impl->settings;
    if (s.resolution == 0) s.resolution = kDefaultResolution;
    if (s.layersPerIteration == 0) s.layersPerIteration = kDefaultLayers;
    if (s.maxIterations == 0) s.maxIterations = kDefaultIterations;
    if (s.distanceThresholdPixels == 0.0f) s.distanceThresholdPixels = kDefaultThresholdPixels;
    if (s.regionPaddingPixels == 0.0f) s.regionPaddingPixels = kDefaultPaddingPixels;
    if (s.pointCapacity == 0) s.pointCapacity = kDefaultPointCapacity;
    if (s.maxObjects == 0) s.maxObjects = kDefaultMaxObjects;
    if (s.maxCandidatePairs == 0) s.maxCandidatePairs = kDefaultMaxCandidatePairs;
    if (s.framesInFlight == 0) s.framesInFlight = kDefaultFramesInFlight;
    if (s.layersPerIteration < 2 || s.layersPerIteration > gpu::kCpMaxLayers)
        return makeError(ErrorCode::InvalidArgument, "ConsistentPairsSettings::layersPerIteration must be 2.." +
                                                         std::to_string(gpu::kCpMaxLayers) + ", not " +
                                                         std::to_string(s.layersPerIteration));
    if (s.maxIterations > gpu::kCpMaxIterations)
        return makeError(ErrorCode::InvalidArgument, "ConsistentPairsSettings::maxIterations " +
                                                         std::to_string(s.maxIterations) + " exceeds " +
                                                         std::to_string(gpu::kCpMaxIterations));
    const VkPhysicalDeviceLimits& limits = impl->ctx->properties.limits;
    if (s.resolution > std::min(limits.maxFramebufferWidth, limits.maxFramebufferHeight))
        return makeError(ErrorCode::InvalidArgument, "ConsistentPairsSettings::resolution " +
                                                         std::to_string(s.resolution) +
                                                         " exceeds the device's framebuffer size");
    if (!std::isfinite(s.distanceThresholdPixels) || s.distanceThresholdPixels < 0.0f ||
        !std::isfinite(s.regionPaddingPixels) || s.regionPaddingPixels < 0.0f)
        return makeError(ErrorCode::InvalidArgument,
                         "ConsistentPairsSettings: distanceThresholdPixels and regionPaddingPixels must be finite and >= 0");
    VKC_TRY(impl->createPipelines());
    VKC_TRY(impl->createResources());
    return ConsistentPairsDetector(std::move(impl));
}

Status ConsistentPairsDetector::record(VkCommandBuffer cmd, const Scene& scene, std::span<const ObjectPair> candidates,
                                       std::span<const Aabb> worldBounds, uint64_t frame) {
    return impl_->recordFrame(cmd, scene.impl(), candidates, worldBounds, frame);
}

VkSemaphoreSubmitInfo ConsistentPairsDetector::completionSignal(uint64_t frame) { return ringSignal(impl_->ring, frame); }

Status ConsistentPairsDetector::results(uint64_t frame, FrameResults& out, ConsistentPairsFrameDetails* details) {
    return impl_->readResults(frame, out, details);
}

const ConsistentPairsSettings& ConsistentPairsDetector::settings() const { return impl_->settings; }

Result<FrameResults> ConsistentPairsDetector::run(const Scene& scene, const BroadphaseResults& pcs,
                                                  ConsistentPairsFrameDetails* details) {
    VulkanContext& c = *impl_->ctx;
    const uint64_t frame = impl_->nextRunFrame++;
    Status recorded = Status::success();
    VKC_TRY(submitAndWait(
        c, [&](VkCommandBuffer cmd) { recorded = record(cmd, scene, pcs.pairs, pcs.worldBounds, frame); },
        "consistent-pairs run"));
    VKC_TRY(recorded);
    // The submit has completed, so the host signals the frame's completion itself.
    VKC_TRY(signalRingFromHost(c, impl_->ring, frame));
    FrameResults out;
    VKC_TRY(results(frame, out, details));
    if (pcs.truncated)
        out.warnings.push_back("consistent-pairs: the potentially colliding set was truncated (" +
                               std::to_string(pcs.pairCount) + " pairs); pairs beyond its capacity were not tested");
    return out;
}

Result<FrameResults> ConsistentPairsDetector::run(const Scene& scene, ConsistentPairsFrameDetails* details) {
    if (!impl_->broadphase) {
        auto broadphase = Broadphase::create(*impl_->context, impl_->settings.broadphase);
        if (!broadphase) return broadphase.status();
        impl_->broadphase = std::make_unique<Broadphase>(std::move(broadphase.value()));
    }
    auto pcs = impl_->broadphase->run(scene);
    if (!pcs) return pcs.status();
    auto results = run(scene, pcs.value(), details);
    if (results) {
        for (const auto& [name, ms] : pcs->gpuTimingsMs) results->gpuTimingsMs[name] += ms;
    }
    return results;
}

}  // namespace vkc
