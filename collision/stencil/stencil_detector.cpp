// vkc::StencilDetector (paper 1, CInDeR): pipelines, per-frame-slot resources and the public
// entry points. Frames are recorded and decoded in stencil_detector_frame.cpp.
#include "collision/stencil/stencil_detector_impl.h"

#include "collision/broadphase/broadphase_candidates.h"
#include "collision/frames/frame_warnings.h"
#include "collision/frames/blocking_run.h"
#include "collision/frames/detector_settings.h"
#include "collision/frames/frame_slot_resources.h"
#include "collision/scene/scene_impl.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "passes/shared/pair_compact_pass.h"
#include "vk/assign_result.h"
#include "vk/descriptors.h"

#include "spirv/candidate_index.comp.h"
#include "spirv/fullscreen_triangle.vert.h"
#include "spirv/pair_compact.comp.h"
#include "spirv/stencil_empty.frag.h"
#include "spirv/stencil_geometry.vert.h"
#include "spirv/stencil_normals.comp.h"
#include "spirv/stencil_penetrated.frag.h"
#include "spirv/stencil_penetrating.frag.h"
#include "spirv/stencil_scan.comp.h"

#include <algorithm>
#include <cstddef>

namespace vkc {

static_assert(sizeof(gpu::StencilObjectGpu) == 96 && sizeof(gpu::StencilDrawPush) == 16,
              "stencil draw structs must match their std430 / push-constant layouts");
static_assert(sizeof(gpu::StencilNormalsPush) == 32 && sizeof(gpu::StencilScanPush) == 20 &&
              sizeof(gpu::StencilCompactPush) == 16);
static_assert(sizeof(gpu::StencilListHeader) == 16 && sizeof(gpu::StencilPairGpu) == 16 &&
              sizeof(gpu::StencilPointGpu) == 16);

namespace {

constexpr uint32_t kDefaultResolution = 512;
constexpr uint32_t kDefaultViews = 3;
constexpr float kDefaultEdgeOffsetPixels = 0.5f;
constexpr float kDefaultPaddingPixels = 2.0f;
constexpr uint32_t kDefaultMaxCandidatePairs = 16384;
constexpr uint32_t kDefaultPointCapacity = 16384;

constexpr SpecConstant kEdgeVariant[] = {{0, 1}};
constexpr SpecConstant kTriangleVariant[] = {{0, 0}};

VkStencilOpState stencilOp(VkCompareOp compare, uint32_t reference, VkStencilOp pass, uint32_t writeMask) {
    return {VK_STENCIL_OP_KEEP, pass, VK_STENCIL_OP_KEEP, compare, 0xffu, writeMask, reference};
}

}  // namespace

StencilDetectorImpl::~StencilDetectorImpl() {
    if (!ctx) return;
    for (StencilSlot& slot : slots) destroyQueryPool(*ctx, slot.occlusion);
    destroyDetectorFrames(*ctx, frames);
    destroyImageFramePipelines(*ctx, frameSetup);
    for (Pipeline* p : {&normals, &edgeDepth, &count, &positive, &negative, &penetrating, &recount, &penetratedId,
                        &scan, &compact, &candidateIndex})
        destroyPipeline(*ctx, *p);
}

Status StencilDetectorImpl::createPipelines() {
    VulkanContext& c = *ctx;
    frames.vertexBufferCapacity = vertexBufferCapacity(c, settings.maxObjects);  // one per object at most
    VKC_TRY(createImageFramePipelines(c, "stencil", frameSetup));
    const PipelineLayoutDesc drawLayout = withVertexBufferCapacity(kStencilDrawLayout, frames.vertexBufferCapacity);
    VKC_TRY(assignResult(normals, createComputePipeline(c, kSpirv_stencil_normals_comp,
                                                        withVertexBufferCapacity(kStencilNormalsLayout,
                                                                                 frames.vertexBufferCapacity),
                                                        {}, "stencil-normals")));
    VKC_TRY(assignResult(scan, createComputePipeline(c, kSpirv_stencil_scan_comp, kStencilScanLayout, {}, "stencil-scan")));
    VKC_TRY(assignResult(compact, createComputePipeline(c, kSpirv_pair_compact_comp, kStencilCompactLayout, {},
                                                        "stencil-compact")));
    VKC_TRY(assignResult(candidateIndex, createComputePipeline(c, kSpirv_candidate_index_comp, kStencilCompactLayout, {},
                                                               "stencil-candidate-index")));

    auto graphics = [&](Pipeline& out, GraphicsPipelineDesc desc) -> Status {
        desc.depthFormat = desc.stencilFormat = depthStencilFormat;
        return assignResult(out, createGraphicsPipeline(c, desc));
    };
    // Every draw pipeline has a fragment stage so that all share one set layout (vertex | fragment).
    GraphicsPipelineDesc edges;
    edges.vertexSpirv = kSpirv_stencil_geometry_vert;
    edges.fragmentSpirv = kSpirv_stencil_empty_frag;
    edges.layout = drawLayout;
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
    counting.layout = drawLayout;
    counting.specConstants = kTriangleVariant;
    counting.cullMode = VK_CULL_MODE_NONE;
    counting.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;  // see shared/orthographic_fit.h: orientation is kept
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
    test.vertexSpirv = kSpirv_fullscreen_triangle_vert;
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
    const uint32_t slotCount = s.framesInFlight;
    const uint32_t vertexBuffers = frames.vertexBufferCapacity;
    VkDescriptorPoolSize sizes[2] = {
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, slotCount * (6 + (3 + vertexBuffers) + (2 + vertexBuffers) + 6 + 5)},
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, slotCount * 2}};
    VKC_TRY(createDetectorFrames(c,
                                 {"stencil", slotCount, slotCount * 5, sizes,
                                  stencilReadbackLayout(s.maxCandidatePairs, s.pointCapacity, s.maxObjects, s.views,
                                                        s.keepImages ? stencilCountsBytes(s.views, s.resolution) : 0),
                                  !s.disableGpuTimings},
                                 frames));

    slots.resize(slotCount);
    for (uint32_t i = 0; i < slotCount; ++i) {
        StencilSlot& slot = slots[i];
        const FrameSlotResources make(c, i);
        const VkDescriptorPool pool = frames.descriptorPool;
        VKC_TRY(make.descriptorSet(slot.setupSet, pool, frameSetup.candidates.setLayouts[0], "stencil setup set"));
        VKC_TRY(make.descriptorSet(slot.drawSet, pool, edgeDepth.setLayouts[0], "stencil draw set", vertexBuffers));
        VKC_TRY(make.descriptorSet(slot.normalsSet, pool, normals.setLayouts[0], "stencil normals set", vertexBuffers));
        VKC_TRY(make.descriptorSet(slot.scanSet, pool, scan.setLayouts[0], "stencil scan set"));
        VKC_TRY(make.descriptorSet(slot.compactSet, pool, compact.setLayouts[0], "stencil compact set"));
        VKC_TRY(make.queryPool(slot.occlusion, VK_QUERY_TYPE_OCCLUSION, stencilOcclusionQueries(s.views),
                               "stencil occlusion"));
    }
    return Status::success();
}

StencilDetector::StencilDetector(std::unique_ptr<StencilDetectorImpl> impl) : impl_(std::move(impl)) {}
StencilDetector::StencilDetector(StencilDetector&&) noexcept = default;
StencilDetector& StencilDetector::operator=(StencilDetector&&) noexcept = default;
StencilDetector::~StencilDetector() = default;

Result<StencilDetector> StencilDetector::create(Context& context, const StencilSettings& settings) {
    if (!context.valid()) return makeError(ErrorCode::InvalidArgument, "StencilDetector::create: context is not valid");
    VKC_TRY(requireFeatureSet(vulkanOf(context), kFeatureSetStencil, "StencilDetector"));
    auto impl = std::make_unique<StencilDetectorImpl>();
    impl->ctx = &vulkanOf(context);
    impl->context = &context;
    impl->settings = settings;
    StencilSettings& s = impl->settings;
    if (s.resolution == 0) s.resolution = kDefaultResolution;
    if (s.views == 0) s.views = kDefaultViews;
    if (s.edgeOffsetPixels == 0.0f) s.edgeOffsetPixels = kDefaultEdgeOffsetPixels;
    if (s.regionPaddingPixels == 0.0f) s.regionPaddingPixels = kDefaultPaddingPixels;
    if (s.pointCapacity == 0) s.pointCapacity = kDefaultPointCapacity;
    // Ids are packed as 16 bits in the point list.
    VKC_TRY(applyDetectorDefaults(s, kDefaultMaxCandidatePairs, "StencilSettings", kMaxPackedIdObjects));
    if (s.views != 1 && s.views != 3)
        return makeError(ErrorCode::InvalidArgument, "StencilSettings::views must be 1 or 3, not " + std::to_string(s.views));
    VKC_TRY(checkFramebufferResolution(*impl->ctx, s.resolution, "StencilSettings"));
    if (!validPixelDistance(s.edgeOffsetPixels) || !validPixelDistance(s.regionPaddingPixels))
        return makeError(ErrorCode::InvalidArgument, "StencilSettings: edgeOffsetPixels and regionPaddingPixels must be finite and >= 0");
    // 8 stencil bits hold the signed count (mod 256); prefer the exact float depth.
    impl->depthStencilFormat = pickDepthStencilFormat(*impl->ctx, VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT);
    if (impl->depthStencilFormat == VK_FORMAT_UNDEFINED)
        return makeError(ErrorCode::MissingFeature,
                         "stencil: the device renders neither D32_SFLOAT_S8_UINT nor D24_UNORM_S8_UINT");
    VKC_TRY(impl->createPipelines());
    VKC_TRY(impl->createResources());
    return StencilDetector(std::move(impl));
}

Status StencilDetector::record(VkCommandBuffer cmd, const Scene& scene, const CandidateSet& candidates, uint64_t frame) {
    return impl_->recordFrame(cmd, sceneImplOf(scene), {&candidates, nullptr}, frame);
}

Status StencilDetector::record(VkCommandBuffer cmd, const Scene& scene, const Broadphase& broadphase, uint64_t frame) {
    auto candidates = broadphaseCandidates(broadphase, frame, "stencil");
    if (!candidates) return candidates.status();
    return impl_->recordFrame(cmd, sceneImplOf(scene), {nullptr, &candidates.value()}, frame);
}

VkSemaphoreSubmitInfo StencilDetector::completionSignal(uint64_t frame) {
    return ringSignal(impl_->frames.ring, frame);
}

Status StencilDetector::results(uint64_t frame, FrameResults& out, StencilFrameDetails* details) {
    return impl_->readResults(frame, out, details);
}

const StencilSettings& StencilDetector::settings() const { return impl_->settings; }

Result<FrameResults> StencilDetector::run(const Scene& scene, const BroadphaseResults& pcs, StencilFrameDetails* details) {
    return runDetectorFrame(
        *impl_->ctx, impl_->frames, "stencil", pcs,
        [&](VkCommandBuffer cmd, uint64_t frame) { return record(cmd, scene, pcs, frame); },
        [&](uint64_t frame, FrameResults& out) { return results(frame, out, details); });
}

Result<FrameResults> StencilDetector::run(const Scene& scene, StencilFrameDetails* details) {
    return runGpuDriven(
        *impl_->context, {"stencil", "StencilSettings", impl_->settings}, impl_->frames, scene,
        [&](VkCommandBuffer cmd, uint64_t frame, const GpuCandidates& candidates) {
            return impl_->recordFrame(cmd, sceneImplOf(scene), {nullptr, &candidates}, frame);
        },
        [&](uint64_t frame, FrameResults& out) { return results(frame, out, details); });
}

}  // namespace vkc
