// vkc::StencilDetector (paper 1, CInDeR): pipelines, per-frame-slot resources and the public
// entry points. Frames are recorded and decoded in stencil_detector_frame.cpp.
#include "collision/stencil_detector_impl.h"

#include "collision/scene_impl.h"
#include "vk/commands.h"
#include "vk/descriptors.h"

#include "spirv/stencil_compact.comp.h"
#include "spirv/stencil_empty.frag.h"
#include "spirv/stencil_fullscreen.vert.h"
#include "spirv/stencil_geometry.vert.h"
#include "spirv/stencil_normals.comp.h"
#include "spirv/stencil_penetrated.frag.h"
#include "spirv/stencil_penetrating.frag.h"
#include "spirv/stencil_scan.comp.h"

#include <algorithm>
#include <cmath>

namespace vkc {

static_assert(sizeof(gpu::StencilObjectGpu) == 80 && sizeof(gpu::StencilDrawPush) == 80,
              "stencil draw structs must match their std430 / push-constant layouts");
static_assert(sizeof(gpu::StencilNormalsPush) == 32 && sizeof(gpu::StencilScanPush) == 80 &&
              sizeof(gpu::StencilCompactPush) == 16);
static_assert(sizeof(gpu::StencilListHeader) == 16 && sizeof(gpu::StencilPairGpu) == 16 &&
              sizeof(gpu::StencilPointGpu) == 16);

namespace {

constexpr uint32_t kDefaultResolution = 512;
constexpr uint32_t kDefaultViews = 3;
constexpr float kDefaultEdgeOffsetPixels = 0.5f;
constexpr float kDefaultPaddingPixels = 2.0f;
constexpr uint32_t kDefaultMaxObjects = 4096;
constexpr uint32_t kDefaultMaxCandidatePairs = 16384;
constexpr uint32_t kDefaultPointCapacity = 16384;
constexpr uint32_t kDefaultFramesInFlight = 2;
constexpr uint32_t kTimestampQueries = 64;  // 2 per pass: setup, normals, 6 per view (3), compact, readback

constexpr SpecConstant kEdgeVariant[] = {{0, 1}};
constexpr SpecConstant kTriangleVariant[] = {{0, 0}};

VkStencilOpState stencilOp(VkCompareOp compare, uint32_t reference, VkStencilOp pass, uint32_t writeMask) {
    return {VK_STENCIL_OP_KEEP, pass, VK_STENCIL_OP_KEEP, compare, 0xffu, writeMask, reference};
}

}  // namespace

StencilDetectorImpl::~StencilDetectorImpl() {
    if (!ctx) return;
    for (StencilSlot& slot : slots) {
        for (Buffer* buffer : {&slot.objects, &slot.candidates, &slot.topology, &slot.normals, &slot.pairFlags,
                               &slot.pairs, &slot.points})
            destroyBuffer(*ctx, *buffer);
        destroyImage(*ctx, slot.depthStencil);
        destroyImage(*ctx, slot.penetrating);
        destroyImage(*ctx, slot.penetrated);
        destroyQueryPool(*ctx, slot.occlusion);
        destroyQueryPool(*ctx, slot.timestamps);
    }
    destroyReadbackRing(*ctx, ring);
    destroyBuffer(*ctx, dummyVertices);
    destroyDescriptorPool(*ctx, descriptorPool);
    for (Pipeline* p : {&normals, &edgeDepth, &count, &positive, &negative, &penetrating, &recount, &penetratedId,
                        &scan, &compact})
        destroyPipeline(*ctx, *p);
}

Status StencilDetectorImpl::createPipelines() {
    VulkanContext& c = *ctx;
    auto compute = [&](Pipeline& out, std::span<const uint32_t> spirv, const PipelineLayoutDesc& layout,
                       const char* name) -> Status {
        auto created = createComputePipeline(c, spirv, layout, {}, name);
        if (!created) return created.status();
        out = created.value();
        return Status::success();
    };
    VKC_TRY(compute(normals, kSpirv_stencil_normals_comp, kStencilNormalsLayout, "stencil-normals"));
    VKC_TRY(compute(scan, kSpirv_stencil_scan_comp, kStencilScanLayout, "stencil-scan"));
    VKC_TRY(compute(compact, kSpirv_stencil_compact_comp, kStencilCompactLayout, "stencil-compact"));

    auto graphics = [&](Pipeline& out, GraphicsPipelineDesc desc) -> Status {
        desc.depthFormat = depthStencilFormat;
        desc.stencilFormat = depthStencilFormat;
        auto created = createGraphicsPipeline(c, desc);
        if (!created) return created.status();
        out = created.value();
        return Status::success();
    };
    // Every draw pipeline has a fragment stage so that all share one set layout (vertex | fragment).
    GraphicsPipelineDesc edges;
    edges.vertexSpirv = kSpirv_stencil_geometry_vert;
    edges.fragmentSpirv = kSpirv_stencil_empty_frag;
    edges.layout = kStencilDrawLayout;
    edges.specConstants = kEdgeVariant;
    edges.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    edges.depthTest = true;
    edges.depthWrite = true;
    edges.depthCompare = VK_COMPARE_OP_LESS;
    edges.name = "stencil-edges";
    VKC_TRY(graphics(edgeDepth, edges));

    // Two-sided stencil: front faces increment-wrap, back faces decrement-wrap, in one draw.
    GraphicsPipelineDesc counting;
    counting.vertexSpirv = kSpirv_stencil_geometry_vert;
    counting.fragmentSpirv = kSpirv_stencil_empty_frag;
    counting.layout = kStencilDrawLayout;
    counting.specConstants = kTriangleVariant;
    counting.cullMode = VK_CULL_MODE_NONE;
    counting.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;  // see fitStencilViews: orientation is kept
    counting.depthTest = true;
    counting.depthWrite = false;
    counting.depthCompare = VK_COMPARE_OP_LESS;
    counting.stencilTest = true;
    counting.stencilFront = stencilOp(VK_COMPARE_OP_ALWAYS, 0, VK_STENCIL_OP_INCREMENT_AND_WRAP, 0xffu);
    counting.stencilBack = stencilOp(VK_COMPARE_OP_ALWAYS, 0, VK_STENCIL_OP_DECREMENT_AND_WRAP, 0xffu);
    counting.name = "stencil-count";
    VKC_TRY(graphics(count, counting));

    // Boolean tests: reference OP stencil, i.e. bias < stencil (positive) and bias > stencil (negative).
    GraphicsPipelineDesc test;
    test.vertexSpirv = kSpirv_stencil_fullscreen_vert;
    test.layout = kStencilFullscreenLayout;
    test.stencilTest = true;
    test.stencilFront = test.stencilBack = stencilOp(VK_COMPARE_OP_LESS, gpu::kStencilBias, VK_STENCIL_OP_KEEP, 0u);
    test.name = "stencil-boolean-positive";
    VKC_TRY(graphics(positive, test));
    test.stencilFront = test.stencilBack = stencilOp(VK_COMPARE_OP_GREATER, gpu::kStencilBias, VK_STENCIL_OP_KEEP, 0u);
    test.name = "stencil-boolean-negative";
    VKC_TRY(graphics(negative, test));

    GraphicsPipelineDesc redrawEdges = edges;
    redrawEdges.fragmentSpirv = kSpirv_stencil_penetrating_frag;
    redrawEdges.depthWrite = false;
    redrawEdges.depthCompare = VK_COMPARE_OP_LESS_OR_EQUAL;
    redrawEdges.stencilTest = true;
    redrawEdges.stencilFront = redrawEdges.stencilBack =
        stencilOp(VK_COMPARE_OP_LESS, gpu::kStencilBias, VK_STENCIL_OP_KEEP, 0u);
    redrawEdges.colorFormats = {kStencilPenetratingFormat};
    redrawEdges.name = "stencil-penetrating";
    VKC_TRY(graphics(penetrating, redrawEdges));

    GraphicsPipelineDesc recounting = counting;
    recounting.fragmentSpirv = kSpirv_stencil_penetrated_frag;
    recounting.colorFormats = {kStencilPenetratedFormat};
    recounting.colorWriteMask = 0;
    recounting.name = "stencil-recount";
    VKC_TRY(graphics(recount, recounting));

    GraphicsPipelineDesc identify = recounting;
    identify.colorWriteMask = VK_COLOR_COMPONENT_R_BIT;
    // As in the paper (5.2), the identifying draw restores the stencil: the first fragment at a
    // pixel with count 1 decrements it back to the bias, so later fragments there fail the test.
    identify.stencilFront = identify.stencilBack =
        stencilOp(VK_COMPARE_OP_EQUAL, gpu::kStencilBias + 1, VK_STENCIL_OP_DECREMENT_AND_CLAMP, 0xffu);
    identify.name = "stencil-penetrated";
    return graphics(penetratedId, identify);
}

Status StencilDetectorImpl::createResources() {
    VulkanContext& c = *ctx;
    const StencilSettings& s = settings;
    const uint32_t frames = s.framesInFlight;
    VkDescriptorPoolSize sizes[2] = {
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, frames * (2 * (2 + gpu::kStencilMaxMeshSlots) + 2 + 3)},
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, frames * 2}};
    auto pool = createDescriptorPool(c, frames * 4, sizes, "stencil descriptors");
    if (!pool) return pool.status();
    descriptorPool = pool.value();

    auto dummy = createBuffer(c, {16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::DeviceLocal,
                                  "stencil unused mesh slot"});
    if (!dummy) return dummy.status();
    dummyVertices = dummy.value();

    const VkDeviceSize pairsBytes = stencilPairsBytes(s.maxCandidatePairs);
    const VkDeviceSize pointsBytes = stencilPointsBytes(s.pointCapacity);
    readbackPointsOffset = pairsBytes;
    auto createdRing = createReadbackRing(c, pairsBytes + pointsBytes, frames, "stencil readback ring");
    if (!createdRing) return createdRing.status();
    ring = createdRing.value();

    slots.resize(frames);
    for (uint32_t i = 0; i < frames; ++i) {
        StencilSlot& slot = slots[i];
        const std::string suffix = " [frame slot " + std::to_string(i) + "]";
        auto buffer = [&](Buffer& out, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUsage memory,
                          const char* name) -> Status {
            auto created = createBuffer(c, {size, usage, memory, (std::string(name) + suffix).c_str()});
            if (!created) return created.status();
            out = created.value();
            return Status::success();
        };
        const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        VKC_TRY(buffer(slot.objects, sizeof(gpu::StencilObjectGpu) * s.maxObjects, storage, MemoryUsage::Upload,
                       "stencil objects"));
        VKC_TRY(buffer(slot.candidates, 8 * VkDeviceSize(s.maxCandidatePairs), storage, MemoryUsage::Upload,
                       "stencil candidate pairs"));
        VKC_TRY(buffer(slot.pairFlags, std::max<VkDeviceSize>(16, stencilPairFlagsBytes(s.maxObjects)), storage,
                       MemoryUsage::DeviceLocal, "stencil pair flags"));
        VKC_TRY(buffer(slot.pairs, pairsBytes, storage, MemoryUsage::DeviceLocal, "stencil pairs"));
        VKC_TRY(buffer(slot.points, pointsBytes, storage, MemoryUsage::DeviceLocal, "stencil points"));

        auto image = [&](Image& out, VkFormat format, VkImageUsageFlags usage, const char* name) -> Status {
            auto created = createImage(c, {s.resolution, s.resolution, format, usage, 1,
                                           (std::string(name) + suffix).c_str()});
            if (!created) return created.status();
            out = created.value();
            return Status::success();
        };
        VKC_TRY(image(slot.depthStencil, depthStencilFormat, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                      "stencil depth-stencil"));
        const VkImageUsageFlags idUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_STORAGE_BIT;
        VKC_TRY(image(slot.penetrating, kStencilPenetratingFormat, idUsage, "stencil penetrating ids"));
        VKC_TRY(image(slot.penetrated, kStencilPenetratedFormat, idUsage, "stencil penetrated ids"));

        auto set = [&](VkDescriptorSet& out, const Pipeline& pipeline, const char* name) -> Status {
            auto created = allocateDescriptorSet(c, descriptorPool, pipeline.setLayouts[0],
                                                 (std::string(name) + suffix).c_str());
            if (!created) return created.status();
            out = created.value();
            return Status::success();
        };
        VKC_TRY(set(slot.drawSet, edgeDepth, "stencil draw set"));
        VKC_TRY(set(slot.normalsSet, normals, "stencil normals set"));
        VKC_TRY(set(slot.scanSet, scan, "stencil scan set"));
        VKC_TRY(set(slot.compactSet, compact, "stencil compact set"));

        const uint32_t queries = s.views * (2 + 2 * s.maxObjects);
        auto occlusion = createQueryPool(c, VK_QUERY_TYPE_OCCLUSION, queries, ("stencil occlusion" + suffix).c_str());
        if (!occlusion) return occlusion.status();
        slot.occlusion = occlusion.value();
        auto timestamps = createQueryPool(c, VK_QUERY_TYPE_TIMESTAMP, kTimestampQueries,
                                          ("stencil timestamps" + suffix).c_str());
        if (!timestamps) return timestamps.status();
        slot.timestamps = timestamps.value();

        writeBufferDescriptor(c, slot.drawSet, gpu::kStencilBindingObjects, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                              slot.objects);
        writeBufferDescriptor(c, slot.scanSet, gpu::kStencilBindingPairFlags, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                              slot.pairFlags);
        writeBufferDescriptor(c, slot.scanSet, gpu::kStencilBindingPoints, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                              slot.points);
        writeBufferDescriptor(c, slot.compactSet, gpu::kStencilBindingCandidates, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                              slot.candidates);
        writeBufferDescriptor(c, slot.compactSet, gpu::kStencilBindingPairFlags, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                              slot.pairFlags);
        writeBufferDescriptor(c, slot.compactSet, gpu::kStencilBindingPairs, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                              slot.pairs);
        VkDescriptorImageInfo images[2] = {{VK_NULL_HANDLE, slot.penetrating.view, VK_IMAGE_LAYOUT_GENERAL},
                                           {VK_NULL_HANDLE, slot.penetrated.view, VK_IMAGE_LAYOUT_GENERAL}};
        VkWriteDescriptorSet writes[2] = {};
        for (uint32_t k = 0; k < 2; ++k) {
            writes[k] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            writes[k].dstSet = slot.scanSet;
            writes[k].dstBinding = k == 0 ? gpu::kStencilBindingPenetratingImage : gpu::kStencilBindingPenetratedImage;
            writes[k].descriptorCount = 1;
            writes[k].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
            writes[k].pImageInfo = &images[k];
        }
        c.vkd.vkUpdateDescriptorSets(c.device, 2, writes, 0, nullptr);
    }
    return Status::success();
}

StencilDetector::StencilDetector(std::unique_ptr<StencilDetectorImpl> impl) : impl_(std::move(impl)) {}
StencilDetector::StencilDetector(StencilDetector&&) noexcept = default;
StencilDetector& StencilDetector::operator=(StencilDetector&&) noexcept = default;
StencilDetector::~StencilDetector() = default;

Result<StencilDetector> StencilDetector::create(Context& context, const StencilSettings& settings) {
    if (!context.valid()) return makeError(ErrorCode::InvalidArgument, "StencilDetector::create: context is not valid");
    auto impl = std::make_unique<StencilDetectorImpl>();
    impl->ctx = &context.vulkan();
    impl->context = &context;
    impl->settings = settings;
    StencilSettings& s = impl->settings;
    if (s.resolution == 0) s.resolution = kDefaultResolution;
    if (s.views == 0) s.views = kDefaultViews;
    if (s.edgeOffsetPixels == 0.0f) s.edgeOffsetPixels = kDefaultEdgeOffsetPixels;
    if (s.regionPaddingPixels == 0.0f) s.regionPaddingPixels = kDefaultPaddingPixels;
    if (s.maxObjects == 0) s.maxObjects = kDefaultMaxObjects;
    if (s.maxCandidatePairs == 0) s.maxCandidatePairs = kDefaultMaxCandidatePairs;
    if (s.pointCapacity == 0) s.pointCapacity = kDefaultPointCapacity;
    if (s.framesInFlight == 0) s.framesInFlight = kDefaultFramesInFlight;
    if (s.views != 1 && s.views != 3)
        return makeError(ErrorCode::InvalidArgument, "StencilSettings::views must be 1 or 3, not " + std::to_string(s.views));
    const uint32_t maxDim = impl->ctx->properties.limits.maxFramebufferWidth;
    if (s.resolution > std::min(maxDim, impl->ctx->properties.limits.maxFramebufferHeight))
        return makeError(ErrorCode::InvalidArgument, "StencilSettings::resolution " + std::to_string(s.resolution) +
                                                         " exceeds the device's framebuffer size");
    if (!std::isfinite(s.edgeOffsetPixels) || s.edgeOffsetPixels < 0.0f || !std::isfinite(s.regionPaddingPixels) ||
        s.regionPaddingPixels < 0.0f)
        return makeError(ErrorCode::InvalidArgument, "StencilSettings: edgeOffsetPixels and regionPaddingPixels must be finite and >= 0");
    // Ids are packed as 16 bits in the point list.
    if (s.maxObjects > 65535)
        return makeError(ErrorCode::InvalidArgument, "StencilSettings::maxObjects " + std::to_string(s.maxObjects) +
                                                         " exceeds 65535");
    // 8 stencil bits hold the signed count (mod 256); prefer the exact float depth.
    for (VkFormat format : {VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT}) {
        VkFormatProperties props = {};
        impl->ctx->vki.vkGetPhysicalDeviceFormatProperties(impl->ctx->physicalDevice, format, &props);
        if (props.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) {
            impl->depthStencilFormat = format;
            break;
        }
    }
    if (impl->depthStencilFormat == VK_FORMAT_UNDEFINED)
        return makeError(ErrorCode::MissingFeature,
                         "stencil: the device renders neither D32_SFLOAT_S8_UINT nor D24_UNORM_S8_UINT");
    VKC_TRY(impl->createPipelines());
    VKC_TRY(impl->createResources());
    return StencilDetector(std::move(impl));
}

Status StencilDetector::record(VkCommandBuffer cmd, const Scene& scene, std::span<const ObjectPair> candidates,
                               std::span<const Aabb> worldBounds, uint64_t frame) {
    return impl_->recordFrame(cmd, scene.impl(), candidates, worldBounds, frame);
}

VkSemaphoreSubmitInfo StencilDetector::completionSignal(uint64_t frame) { return ringSignal(impl_->ring, frame); }

Status StencilDetector::results(uint64_t frame, FrameResults& out, StencilFrameDetails* details) {
    return impl_->readResults(frame, out, details);
}

const StencilSettings& StencilDetector::settings() const { return impl_->settings; }

Result<FrameResults> StencilDetector::run(const Scene& scene, const BroadphaseResults& pcs, StencilFrameDetails* details) {
    VulkanContext& c = *impl_->ctx;
    const uint64_t frame = impl_->nextRunFrame++;
    Status recorded = Status::success();
    VKC_TRY(submitAndWait(
        c, [&](VkCommandBuffer cmd) { recorded = record(cmd, scene, pcs.pairs, pcs.worldBounds, frame); },
        "stencil run"));
    VKC_TRY(recorded);
    // The submit has completed, so the host signals the frame's completion itself.
    VKC_TRY(signalRingFromHost(c, impl_->ring, frame));
    FrameResults out;
    VKC_TRY(results(frame, out, details));
    if (pcs.truncated)
        out.warnings.push_back("stencil: the potentially colliding set was truncated (" + std::to_string(pcs.pairCount) +
                               " pairs); pairs beyond its capacity were not tested");
    return out;
}

Result<FrameResults> StencilDetector::run(const Scene& scene, StencilFrameDetails* details) {
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
