// vkc::ConsistentPairsDetector (paper 3, Jang, Jeong & Han): pipelines, per-frame-slot resources and
// the public entry points. Frames are recorded and decoded in consistent_pairs_detector_frame.cpp.
#include "collision/consistent_pairs/consistent_pairs_detector_impl.h"

#include "collision/frames/frame_warnings.h"
#include "collision/broadphase/broadphase_candidates.h"
#include "collision/frames/blocking_run.h"
#include "collision/frames/detector_settings.h"
#include "collision/frames/frame_slot_resources.h"
#include "collision/scene/scene_impl.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "passes/shared/pair_compact_pass.h"
#include "passes/stencil/stencil_passes.h"
#include "vk/assign_result.h"
#include "vk/descriptors.h"

#include "spirv/candidate_index.comp.h"
#include "spirv/consistent_pairs_back_clear.comp.h"
#include "spirv/consistent_pairs_back_id.frag.h"
#include "spirv/consistent_pairs_clear.frag.h"
#include "spirv/consistent_pairs_consistency.frag.h"
#include "spirv/consistent_pairs_decide.comp.h"
#include "spirv/consistent_pairs_determination.frag.h"
#include "spirv/consistent_pairs_geometry.vert.h"
#include "spirv/consistent_pairs_layer_copy.comp.h"
#include "spirv/consistent_pairs_peel.frag.h"
#include "spirv/fullscreen_triangle.vert.h"
#include "spirv/pair_compact.comp.h"

#include <algorithm>

namespace vkc {

static_assert(sizeof(gpu::ConsistentPairsFrameGpu) == 32 && sizeof(gpu::ConsistentPairsDrawPush) == 16 &&
                  sizeof(gpu::ConsistentPairsDecidePush) == 16 && sizeof(gpu::ConsistentPairsIterationGpu) == 32 &&
                  sizeof(gpu::ConsistentPairsImagesPush) == 16,
              "consistent-pairs structs must match their std430 / push-constant layouts");
static_assert(sizeof(gpu::ConsistentPairsStatsGpu) == 16 + 4 * gpu::kConsistentPairsMaxIterations && sizeof(gpu::ConsistentPairsPointGpu) == 64);

namespace {

constexpr uint32_t kDefaultResolution = 1024;
constexpr uint32_t kDefaultLayers = 3;
constexpr uint32_t kDefaultIterations = 8;
constexpr float kDefaultThresholdPixels = 1.5f;
constexpr float kDefaultPaddingPixels = 2.0f;
constexpr uint32_t kDefaultPointCapacity = 65536;
constexpr uint32_t kDefaultMaxCandidatePairs = 16384;

}  // namespace

ConsistentPairsDetectorImpl::~ConsistentPairsDetectorImpl() {
    if (!ctx) return;
    for (ConsistentPairsSlot& slot : slots) destroyQueryPool(*ctx, slot.occlusion);
    destroyDetectorFrames(*ctx, frames);
    destroyImageFramePipelines(*ctx, frameSetup);
    for (Pipeline* p :
         {&peel, &consistency, &backId, &determination, &decide, &clear, &layerCopy, &backClear, &compact, &candidateIndex})
        destroyPipeline(*ctx, *p);
}

Status ConsistentPairsDetectorImpl::createPipelines() {
    VulkanContext& c = *ctx;
    frames.vertexBufferCapacity = vertexBufferCapacity(c, settings.maxObjects);  // one per object at most
    VKC_TRY(createImageFramePipelines(c, "consistent-pairs", frameSetup));
    VKC_TRY(assignResult(decide, createComputePipeline(c, kSpirv_consistent_pairs_decide_comp, kConsistentPairsDecideLayout, {},
                                                       "consistent-pairs-decide")));
    VKC_TRY(assignResult(layerCopy, createComputePipeline(c, kSpirv_consistent_pairs_layer_copy_comp,
                                                          kConsistentPairsImagesLayout, {}, "consistent-pairs-layer-copy")));
    VKC_TRY(assignResult(backClear, createComputePipeline(c, kSpirv_consistent_pairs_back_clear_comp,
                                                          kConsistentPairsImagesLayout, {}, "consistent-pairs-back-clear")));
    // The flag-matrix compaction is the stencil method's, unchanged.
    VKC_TRY(assignResult(compact, createComputePipeline(c, kSpirv_pair_compact_comp, kStencilCompactLayout, {},
                                                        "consistent-pairs-compact")));
    VKC_TRY(assignResult(candidateIndex, createComputePipeline(c, kSpirv_candidate_index_comp, kStencilCompactLayout, {},
                                                               "consistent-pairs-candidate-index")));

    auto graphics = [&](Pipeline& out, GraphicsPipelineDesc desc) -> Status {
        desc.vertexSpirv = kSpirv_consistent_pairs_geometry_vert;
        desc.layout = withVertexBufferCapacity(kConsistentPairsDrawLayout, frames.vertexBufferCapacity);
        desc.depthFormat = kConsistentPairsDepthFormat;
        // The fitted view keeps the orientation: outward counter-clockwise triangles face the eye.
        desc.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
        return assignResult(out, createGraphicsPipeline(c, desc));
    };
    GraphicsPipelineDesc peeling;
    peeling.fragmentSpirv = kSpirv_consistent_pairs_peel_frag;
    peeling.cullMode = VK_CULL_MODE_BACK_BIT;
    peeling.depthTest = true;
    peeling.depthWrite = true;
    peeling.depthCompare = VK_COMPARE_OP_LESS;
    peeling.colorFormats = {kConsistentPairsLayerFormat};
    peeling.name = "consistent-pairs-peel";
    VKC_TRY(graphics(peel, peeling));

    // A peel's clear, drawn only in an iteration that runs: depth 1 everywhere, the background texel.
    GraphicsPipelineDesc clearing;
    clearing.vertexSpirv = kSpirv_fullscreen_triangle_vert;
    clearing.fragmentSpirv = kSpirv_consistent_pairs_clear_frag;
    clearing.layout = kConsistentPairsClearLayout;
    clearing.depthFormat = kConsistentPairsDepthFormat;
    clearing.depthTest = true;
    clearing.depthWrite = true;
    clearing.depthCompare = VK_COMPARE_OP_ALWAYS;
    clearing.colorFormats = {kConsistentPairsLayerFormat};
    clearing.name = "consistent-pairs-clear";
    VKC_TRY(assignResult(clear, createGraphicsPipeline(c, clearing)));

    // The other draws differ only in their fragment shader and the faces they cull.
    struct WindowDraw {
        Pipeline* out;
        std::span<const uint32_t> fragmentSpirv;
        VkCullModeFlags cullMode;
        const char* name;
    };
    const WindowDraw windowDraws[] = {
        {&consistency, kSpirv_consistent_pairs_consistency_frag, VK_CULL_MODE_FRONT_BIT, "consistent-pairs-consistency"},
        {&backId, kSpirv_consistent_pairs_back_id_frag, VK_CULL_MODE_FRONT_BIT, "consistent-pairs-back-id"},
        {&determination, kSpirv_consistent_pairs_determination_frag, VK_CULL_MODE_NONE, "consistent-pairs-determination"}};
    for (const WindowDraw& draw : windowDraws) {
        GraphicsPipelineDesc desc;
        desc.fragmentSpirv = draw.fragmentSpirv;
        desc.cullMode = draw.cullMode;
        desc.name = draw.name;
        VKC_TRY(graphics(*draw.out, desc));
    }
    return Status::success();
}

Status ConsistentPairsDetectorImpl::createSlot(ConsistentPairsSlot& slot, uint32_t index) {
    const FrameSlotResources make(*ctx, index);
    const VkDescriptorPool pool = frames.descriptorPool;
    VKC_TRY(make.descriptorSet(slot.setupSet, pool, frameSetup.candidates.setLayouts[0], "consistent-pairs setup set"));
    VKC_TRY(make.descriptorSet(slot.geometrySet, pool, peel.setLayouts[0], "consistent-pairs geometry set",
                               frames.vertexBufferCapacity));
    VKC_TRY(make.descriptorSet(slot.windowSet, pool, peel.setLayouts[1], "consistent-pairs window set"));
    VKC_TRY(make.descriptorSet(slot.decideSet, pool, decide.setLayouts[0], "consistent-pairs decide set"));
    VKC_TRY(make.descriptorSet(slot.imagesSet, pool, layerCopy.setLayouts[0], "consistent-pairs images set"));
    VKC_TRY(make.descriptorSet(slot.compactSet, pool, compact.setLayouts[0], "consistent-pairs compact set"));
    return make.queryPool(slot.occlusion, VK_QUERY_TYPE_OCCLUSION,
                          consistentPairsPeelCount(settings.layersPerIteration, settings.maxIterations),
                          "consistent-pairs peel occlusion");
}

Status ConsistentPairsDetectorImpl::createResources() {
    const uint32_t slotCount = settings.framesInFlight;
    const uint32_t vertexBuffers = frames.vertexBufferCapacity;
    VkDescriptorPoolSize sizes[2] = {
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, slotCount * (6 + 3 + vertexBuffers + 6 + 5 + 5)},
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, slotCount * (3 + 4)}};
    VKC_TRY(createDetectorFrames(*ctx,
                                 {"consistent-pairs", slotCount, slotCount * 6, sizes,
                                  consistentPairsReadbackLayout(
                                      settings.maxCandidatePairs, settings.pointCapacity,
                                      consistentPairsPeelCount(settings.layersPerIteration, settings.maxIterations),
                                      settings.keepImages ? consistentPairsImageBytes(settings.resolution) : 0,
                                      settings.maxObjects),
                                  !settings.disableGpuTimings},
                                 frames));

    slots.resize(slotCount);
    for (uint32_t i = 0; i < slotCount; ++i) VKC_TRY(createSlot(slots[i], i));
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
    VKC_TRY(requireFeatureSet(vulkanOf(context), kFeatureSetConsistentPairs, "ConsistentPairsDetector"));
    auto impl = std::make_unique<ConsistentPairsDetectorImpl>();
    impl->ctx = &vulkanOf(context);
    impl->context = &context;
    impl->settings = settings;
    ConsistentPairsSettings& s = impl->settings;
    if (s.resolution == 0) s.resolution = kDefaultResolution;
    if (s.layersPerIteration == 0) s.layersPerIteration = kDefaultLayers;
    if (s.maxIterations == 0) s.maxIterations = kDefaultIterations;
    if (s.distanceThresholdPixels == 0.0f) s.distanceThresholdPixels = kDefaultThresholdPixels;
    if (s.regionPaddingPixels == 0.0f) s.regionPaddingPixels = kDefaultPaddingPixels;
    if (s.pointCapacity == 0) s.pointCapacity = kDefaultPointCapacity;
    // Per object, one binding holds its table entry and its draws of every iteration.
    const VkDeviceSize drawsPerObject = VkDeviceSize(std::min(s.maxIterations, gpu::kConsistentPairsMaxIterations)) *
                                        gpu::kImageFrameCommandDrawUints * 4;
    VKC_TRY(applyDetectorDefaults(s, kDefaultMaxCandidatePairs, "ConsistentPairsSettings",
                                  objectsPerBinding(*impl->ctx, std::max<VkDeviceSize>(sizeof(gpu::ObjectGpu), drawsPerObject))));
    if (s.layersPerIteration < 2 || s.layersPerIteration > gpu::kConsistentPairsMaxLayers)
        return makeError(ErrorCode::InvalidArgument, "ConsistentPairsSettings::layersPerIteration must be 2.." +
                                                         std::to_string(gpu::kConsistentPairsMaxLayers) + ", not " +
                                                         std::to_string(s.layersPerIteration));
    if (s.maxIterations > gpu::kConsistentPairsMaxIterations)
        return makeError(ErrorCode::InvalidArgument, "ConsistentPairsSettings::maxIterations " +
                                                         std::to_string(s.maxIterations) + " exceeds " +
                                                         std::to_string(gpu::kConsistentPairsMaxIterations));
    VKC_TRY(checkFramebufferResolution(*impl->ctx, s.resolution, "ConsistentPairsSettings"));
    if (!validPixelDistance(s.distanceThresholdPixels) || !validPixelDistance(s.regionPaddingPixels))
        return makeError(ErrorCode::InvalidArgument,
                         "ConsistentPairsSettings: distanceThresholdPixels and regionPaddingPixels must be finite and >= 0");
    VKC_TRY(impl->createPipelines());
    VKC_TRY(impl->createResources());
    return ConsistentPairsDetector(std::move(impl));
}

Status ConsistentPairsDetector::record(VkCommandBuffer cmd, const Scene& scene, const CandidateSet& candidates,
                                       uint64_t frame) {
    return impl_->recordFrame(cmd, sceneImplOf(scene), {&candidates, nullptr}, frame);
}

Status ConsistentPairsDetector::record(VkCommandBuffer cmd, const Scene& scene, const Broadphase& broadphase,
                                       uint64_t frame) {
    auto candidates = broadphaseCandidates(broadphase, frame, "consistent-pairs");
    if (!candidates) return candidates.status();
    return impl_->recordFrame(cmd, sceneImplOf(scene), {nullptr, &candidates.value()}, frame);
}

VkSemaphoreSubmitInfo ConsistentPairsDetector::completionSignal(uint64_t frame) {
    return ringSignal(impl_->frames.ring, frame);
}

Status ConsistentPairsDetector::results(uint64_t frame, FrameResults& out, ConsistentPairsFrameDetails* details) {
    return impl_->readResults(frame, out, details);
}

const ConsistentPairsSettings& ConsistentPairsDetector::settings() const { return impl_->settings; }

Result<FrameResults> ConsistentPairsDetector::run(const Scene& scene, const BroadphaseResults& pcs,
                                                  ConsistentPairsFrameDetails* details) {
    return runDetectorFrame(
        *impl_->ctx, impl_->frames, "consistent-pairs", pcs,
        [&](VkCommandBuffer cmd, uint64_t frame) { return record(cmd, scene, pcs, frame); },
        [&](uint64_t frame, FrameResults& out) { return results(frame, out, details); });
}

Result<FrameResults> ConsistentPairsDetector::run(const Scene& scene, ConsistentPairsFrameDetails* details) {
    return runGpuDriven(
        *impl_->context, {"consistent-pairs", "ConsistentPairsSettings", impl_->settings}, impl_->frames, scene,
        [&](VkCommandBuffer cmd, uint64_t frame, const GpuCandidates& candidates) {
            return impl_->recordFrame(cmd, sceneImplOf(scene), {nullptr, &candidates}, frame);
        },
        [&](uint64_t frame, FrameResults& out) { return results(frame, out, details); });
}

}  // namespace vkc
