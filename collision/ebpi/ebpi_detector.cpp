// vkc::EbpiDetector (paper 5, adaptive ray sampling with the Error Bound Polynomial Image):
// pipelines, per-frame-slot descriptor sets and the public entry points. Frames are recorded in
// ebpi_detector_frame.cpp and decoded in ebpi_detector_results.cpp.
#include "collision/ebpi/ebpi_detector_impl.h"

#include "collision/broadphase/broadphase_candidates.h"
#include "collision/ebpi/ebpi_ray_plan.h"
#include "collision/frames/blocking_run.h"
#include "collision/frames/detector_settings.h"
#include "collision/frames/frame_slot_resources.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "collision/scene/scene_impl.h"
#include "passes/aabb_tree/aabb_tree_passes.h"
#include "passes/ebpi/ebpi_direction_passes.h"
#include "passes/ebpi/ebpi_image_passes.h"
#include "passes/ebpi/ebpi_ray_passes.h"
#include "passes/ebpi/ebpi_setup_pass.h"
#include "passes/ebpi/ebpi_trace_passes.h"
#include "passes/ebpi/ebpi_volume_passes.h"
#include "vk/assign_result.h"
#include "vk/descriptors.h"

#include "spirv/aabb_indirect.comp.h"
#include "spirv/aabb_pairs.comp.h"
#include "spirv/aabb_refit.comp.h"
#include "spirv/aabb_traverse.comp.h"
#include "spirv/ebpi_depth_extent.comp.h"
#include "spirv/ebpi_directions.comp.h"
#include "spirv/ebpi_edge_terms.comp.h"
#include "spirv/ebpi_normal_histogram.comp.h"
#include "spirv/ebpi_pair_setup.comp.h"
#include "spirv/ebpi_pair_verdicts.comp.h"
#include "spirv/ebpi_pyramid.comp.h"
#include "spirv/ebpi_ray_allocate.comp.h"
#include "spirv/ebpi_ray_generate.comp.h"
#include "spirv/ebpi_ray_options.comp.h"
#include "spirv/ebpi_ray_scan.comp.h"
#include "spirv/ebpi_transient_terms.comp.h"
#include "spirv/ebpi_volume.comp.h"

#include <cmath>
#include <string>

namespace vkc {

namespace {

// A coarse EBPI with deep pixel splits (4096 rays per window side at most, as 512^2 x 8): finer
// EBPIs save some rays but cost more plan work than they save (lavapipe), and past 128^2 the
// default pairs' buffers pass lavapipe's storage-buffer binding (collision/ebpi/README.md, "Defaults").
constexpr uint32_t kDefaultResolution = 64;
constexpr uint32_t kDefaultMaxSplit = 64;
constexpr uint32_t kDefaultMaxRays = 1u << 17;
constexpr uint32_t kDefaultHitCapacity = 16;
constexpr uint32_t kDefaultMaxPairs = 4;
constexpr uint32_t kDefaultMaxGradientVertices = 1u << 18;
constexpr uint32_t kDefaultMaxCandidatePairs = 16384;
constexpr uint32_t kDefaultTrianglePairCapacity = 1u << 18;
constexpr uint32_t kDefaultNodePairCapacity = 1u << 19;
constexpr uint64_t kDefaultRayMemoryBudget = uint64_t(512) << 20;
// The ray scan runs as one workgroup over every view (ebpi_ray_scan.comp).
constexpr uint32_t kMaxViews = gpu::kEbpiRayMaxGroups;

std::string field(const char* name, uint64_t value) {
    return std::string("EbpiSettings::") + name + " " + std::to_string(value);
}

Status checkSettings(const VulkanContext& ctx, EbpiSettings& s) {
    if (!(s.tolerance > 0.0) || !std::isfinite(s.tolerance))
        return makeError(ErrorCode::InvalidArgument,
                         "EbpiSettings::tolerance " + std::to_string(s.tolerance) +
                             " must be a finite volume > 0 (world units cubed, per pair)");
    if (s.resolution == 0) s.resolution = kDefaultResolution;
    if (s.maxSplit == 0) s.maxSplit = kDefaultMaxSplit;
    if (s.maxRays == 0) s.maxRays = kDefaultMaxRays;
    if (s.hitCapacity == 0) s.hitCapacity = kDefaultHitCapacity;
    if (s.maxPairs == 0) s.maxPairs = kDefaultMaxPairs;
    if (s.maxGradientVertices == 0) s.maxGradientVertices = kDefaultMaxGradientVertices;
    if (s.trianglePairCapacity == 0) s.trianglePairCapacity = kDefaultTrianglePairCapacity;
    if (s.nodePairCapacity == 0) s.nodePairCapacity = kDefaultNodePairCapacity;
    if (s.rayMemoryBudget == 0) s.rayMemoryBudget = kDefaultRayMemoryBudget;
    VKC_TRY(applyDetectorDefaults(s, kDefaultMaxCandidatePairs, "EbpiSettings",
                                  objectsPerBinding(ctx, sizeof(gpu::EbpiSceneObjectGpu))));
    if (s.maxSplit > gpu::kEbpiRayMaxSplitLimit)
        return makeError(ErrorCode::InvalidArgument, field("maxSplit", s.maxSplit) + " exceeds " +
                                                         std::to_string(gpu::kEbpiRayMaxSplitLimit));
    const uint64_t views = uint64_t(s.maxPairs) * 3;
    const uint64_t tilesPerView = ebpiPyramidTiles(s.resolution, s.resolution);
    if (views > kMaxViews || !ebpiRayPlanFits(views * tilesPerView, uint32_t(std::min<uint64_t>(tilesPerView, UINT32_MAX)),
                                              s.maxSplit))
        return makeError(ErrorCode::InvalidArgument,
                         "EbpiSettings: maxPairs " + std::to_string(s.maxPairs) + ", resolution " +
                             std::to_string(s.resolution) + " and maxSplit " + std::to_string(s.maxSplit) +
                             " give more than 2^32 sub-tiles per frame (or more than 2^22 tiles per view): lower one");
    if (uint64_t(s.maxRays) * s.hitCapacity > gpu::kEbpiVolumeMaxContributions)
        return makeError(ErrorCode::InvalidArgument,
                         "EbpiSettings: maxRays x hitCapacity " + std::to_string(uint64_t(s.maxRays) * s.hitCapacity) +
                             " exceeds 2^26 (the volume sums could wrap): lower one");
    const VkDeviceSize limit = storageBindingLimit(ctx);
    const struct {
        const char* what;
        VkDeviceSize bytes;
        const char* lower;
    } buffers[] = {
        {"EBPI pixels", views * s.resolution * s.resolution * sizeof(gpu::EbpiPixelGpu), "resolution or maxPairs"},
        {"pyramid", views * tilesPerView * sizeof(gpu::EbpiPyramidTexelGpu), "resolution or maxPairs"},
        {"ray options", views * s.resolution * s.resolution * sizeof(gpu::EbpiRayOptionsGpu), "resolution or maxPairs"},
        {"rays", VkDeviceSize(s.maxRays) * sizeof(gpu::EbpiRayGpu), "maxRays"},
        {"one ray's hit slots", VkDeviceSize(s.hitCapacity) * sizeof(gpu::EbpiHitGpu), "hitCapacity"},
        {"gradient sums", VkDeviceSize(s.maxGradientVertices) * gpu::kEbpiVolumeAxes * 8, "maxGradientVertices"},
        {"triangle pairs", VkDeviceSize(s.trianglePairCapacity) * sizeof(gpu::AabbTrianglePairGpu), "trianglePairCapacity"},
        {"node pairs", 2 * VkDeviceSize(s.nodePairCapacity) * sizeof(gpu::AabbNodePairGpu), "nodePairCapacity"},
    };
    for (const auto& b : buffers)
        if (b.bytes > limit)
            return makeError(ErrorCode::InvalidArgument,
                             "EbpiSettings need " + std::to_string(b.bytes) + " bytes of " + b.what + ", above the " +
                                 std::to_string(limit) +
                                 " bytes one storage buffer binding reaches on this device: lower " + b.lower);
    return Status::success();
}

}  // namespace

uint64_t ebpiRayBytes(uint64_t rays, uint64_t hitCapacity, uint64_t chunkRays) {
    const uint64_t perRay = sizeof(gpu::EbpiRayGpu) + sizeof(gpu::EbpiRaySampleGpu) + sizeof(gpu::EbpiVolumeRayGpu) +
                            sizeof(gpu::EbpiRayHitsGpu);
    return rays * perRay + chunkRays * hitCapacity * sizeof(gpu::EbpiHitGpu);
}

ReadbackLayout ebpiReadbackLayout(const EbpiSettings& s) {
    ReadbackLayout layout;
    layout.add(VkDeviceSize(s.maxPairs) * 3 * sizeof(gpu::EbpiRayViewResultGpu));
    layout.add(sizeof(gpu::EbpiRayCountersGpu));
    layout.add(VkDeviceSize(s.maxPairs) * gpu::kEbpiVolumeAxes * sizeof(gpu::EbpiPairVolumeGpu));
    layout.add(VkDeviceSize(s.maxGradientVertices) * gpu::kEbpiVolumeAxes * 2 * sizeof(uint32_t));
    const VkDeviceSize views = s.keepImages ? VkDeviceSize(s.maxPairs) * 3 : 0;
    layout.add(views * s.resolution * s.resolution * sizeof(gpu::EbpiPixelGpu));
    layout.add(views * ebpiPyramidTiles(s.resolution, s.resolution) * sizeof(gpu::EbpiRayTileGpu));
    layout.add(sizeof(gpu::AabbTraversalStateGpu));
    layout.add(VkDeviceSize(s.maxPairs) * 9 * sizeof(double));
    layout.add(VkDeviceSize(s.maxPairs) * 3 * sizeof(gpu::EbpiViewGpu));
    layout.add(VkDeviceSize(s.maxPairs) * 3 * sizeof(gpu::EbpiRayViewGpu));
    layout.add(sizeof(gpu::EbpiSetupStateGpu) + VkDeviceSize(s.maxPairs) * sizeof(gpu::EbpiSlotGpu));
    layout.add(VkDeviceSize(s.maxPairs) * sizeof(gpu::EbpiVolumePairGpu));
    return layout;
}

EbpiDetectorImpl::~EbpiDetectorImpl() {
    if (!ctx) return;
    destroyDetectorFrames(*ctx, frames);
    for (EbpiSlot& slot : slots) destroyEbpiAccelFrame(*ctx, slot.accel);
    for (Pipeline* p : {&pairVerdicts, &setup, &histogram, &directions, &depthExtent, &edgeTerms, &transientTerms, &pyramid,
                        &options, &allocate, &scan, &generate, &volume, &aabbPairs, &aabbRefit, &aabbIndirect, &aabbTraverse})
        destroyPipeline(*ctx, *p);
    destroyPairSelectionPrograms(*ctx, pairSelection);
    destroyEbpiTracePipelines(*ctx, tracePipelines);
}

Status EbpiDetectorImpl::createPipelines() {
    VulkanContext& c = *ctx;
    // A frame reads the vertex buffers of its pairs' objects; the transient edges' traversal those
    // of every object's tree.
    frames.vertexBufferCapacity = vertexBufferCapacity(c, std::max(settings.maxObjects, 2 * settings.maxPairs));
    const PipelineLayoutDesc imageLayout = withVertexBufferCapacity(kEbpiImagePipelineLayout, frames.vertexBufferCapacity);
    const PipelineLayoutDesc traceLayout =
        withVertexBufferCapacity(ebpiTracePipelineLayout(backend), frames.vertexBufferCapacity);
    const PipelineLayoutDesc volumeLayout = ebpiVolumePipelineLayout();
    const PipelineLayoutDesc directionLayout =
        withVertexBufferCapacity(kEbpiDirectionPipelineLayout, frames.vertexBufferCapacity);
    const SpecConstant imageGroup[] = {{0, gpu::kEbpiImageGroupSize}};
    const SpecConstant rayGroup[] = {{0, gpu::kEbpiRayGroupSize}};
    // The traversal reports every leaf pair whose boxes overlap (aabb_traverse.comp's
    // kLeafBoxesOnly); aabb_indirect.comp sizes its groups, so both share the group size.
    const PipelineLayoutDesc aabbLayout = withVertexBufferCapacity(kAabbPipelineLayout, frames.vertexBufferCapacity);
    const SpecConstant aabbRefitGroup[] = {{0, gpu::kAabbRefitGroupSize}};
    const SpecConstant aabbGroup[] = {{0, gpu::kAabbTraverseGroupSize}};
    const SpecConstant aabbLeafBoxes[] = {{0, gpu::kAabbTraverseGroupSize}, {1, 1u}};
    const struct {
        Pipeline* out;
        std::span<const uint32_t> spirv;
        const PipelineLayoutDesc* layout;
        std::span<const SpecConstant> spec;
        const char* name;
    } pipelines[] = {
        {&pairVerdicts, kSpirv_ebpi_pair_verdicts_comp, &kEbpiSetupPipelineLayout, {}, kEbpiPairVerdictsPassName},
        {&setup, kSpirv_ebpi_pair_setup_comp, &kEbpiSetupPipelineLayout, {}, kEbpiPairSetupPassName},
        {&histogram, kSpirv_ebpi_normal_histogram_comp, &directionLayout, {}, kEbpiNormalHistogramPassName},
        {&directions, kSpirv_ebpi_directions_comp, &directionLayout, {}, kEbpiDirectionsPassName},
        {&depthExtent, kSpirv_ebpi_depth_extent_comp, &imageLayout, imageGroup, kEbpiDepthExtentPassName},
        {&edgeTerms, kSpirv_ebpi_edge_terms_comp, &imageLayout, imageGroup, kEbpiEdgeTermsPassName},
        {&transientTerms, kSpirv_ebpi_transient_terms_comp, &imageLayout, imageGroup, kEbpiTransientTermsPassName},
        {&aabbPairs, kSpirv_aabb_pairs_comp, &aabbLayout, {}, kAabbPairsPassName},
        {&aabbRefit, kSpirv_aabb_refit_comp, &aabbLayout, aabbRefitGroup, kAabbRefitPassName},
        {&aabbIndirect, kSpirv_aabb_indirect_comp, &aabbLayout, aabbGroup, kAabbIndirectPassName},
        {&aabbTraverse, kSpirv_aabb_traverse_comp, &aabbLayout, aabbLeafBoxes, kAabbTraversePassName},
        {&pyramid, kSpirv_ebpi_pyramid_comp, &kEbpiRayPipelineLayout, rayGroup, kEbpiPyramidPassName},
        {&options, kSpirv_ebpi_ray_options_comp, &kEbpiRayPipelineLayout, rayGroup, kEbpiRayOptionsPassName},
        {&allocate, kSpirv_ebpi_ray_allocate_comp, &kEbpiRayPipelineLayout, {}, kEbpiRayAllocatePassName},
        {&scan, kSpirv_ebpi_ray_scan_comp, &kEbpiRayPipelineLayout, {}, kEbpiRayScanPassName},
        {&generate, kSpirv_ebpi_ray_generate_comp, &kEbpiRayPipelineLayout, rayGroup, kEbpiRayGeneratePassName},
        {&volume, kSpirv_ebpi_volume_comp, &volumeLayout, {}, kEbpiVolumePassName},
    };
    for (const auto& p : pipelines)
        VKC_TRY(assignResult(*p.out, createComputePipeline(c, p.spirv, *p.layout, p.spec, p.name)));
    VKC_TRY(assignResult(pairSelection, createPairSelectionPrograms(c)));
    return assignResult(tracePipelines, createEbpiTracePipelines(c, backend, traceLayout));
}

Status EbpiDetectorImpl::createResources() {
    VulkanContext& c = *ctx;
    const uint32_t slotCount = settings.framesInFlight;
    const uint32_t vertexBuffers = frames.vertexBufferCapacity;
    const uint32_t perSlot = (gpu::kEbpiSetupBindingSelectedPairs + 1) + kPairSelectionStorageBuffers + (gpu::kEbpiDirectionBindingRayViews + 1 + vertexBuffers) +
                             (gpu::kEbpiImageBindingCrossingPairs + 1 + vertexBuffers) +
                             (gpu::kEbpiRayBindingCosts + 1) + (gpu::kEbpiTraceBindingInstances + 1 + vertexBuffers) +
                             (gpu::kEbpiVolumeBindingRayCount + 1) + (gpu::kAabbBindingEntrances + 1 + vertexBuffers);
    std::vector<VkDescriptorPoolSize> sizes = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, slotCount * perSlot}};
    if (ebpiUsesAccelStructs(backend)) sizes.push_back({VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, slotCount});
    VKC_TRY(createDetectorFrames(
        c, {"ebpi", slotCount, slotCount * (7 + kPairSelectionSets), sizes, ebpiReadbackLayout(settings), !settings.disableGpuTimings}, frames));
    slots.resize(slotCount);
    frames.discardFrame = [this](uint64_t frame) { slots[frame % slots.size()].traversal.nodesValid = false; };
    for (uint32_t i = 0; i < slotCount; ++i) {
        const FrameSlotResources make(c, i);
        EbpiSlot& slot = slots[i];
        VKC_TRY(make.descriptorSet(slot.setupSet, frames.descriptorPool, setup.setLayouts[0], "ebpi setup set"));
        VKC_TRY(createPairSelectionSlot(make, frames.descriptorPool, pairSelection, "ebpi", slot.pairSelection));
        VKC_TRY(make.descriptorSet(slot.directionSet, frames.descriptorPool, histogram.setLayouts[0],
                                   "ebpi direction set", vertexBuffers));
        VKC_TRY(make.descriptorSet(slot.imageSet, frames.descriptorPool, depthExtent.setLayouts[0], "ebpi image set",
                                   vertexBuffers));
        VKC_TRY(make.descriptorSet(slot.raySet, frames.descriptorPool, pyramid.setLayouts[0], "ebpi ray set"));
        VKC_TRY(make.descriptorSet(slot.traceSet, frames.descriptorPool, ebpiTraceSetLayout(tracePipelines),
                                   "ebpi trace set", vertexBuffers));
        VKC_TRY(make.descriptorSet(slot.volumeSet, frames.descriptorPool, volume.setLayouts[0], "ebpi volume set"));
        VKC_TRY(make.descriptorSet(slot.traversal.set, frames.descriptorPool, aabbTraverse.setLayouts[0],
                                   "ebpi aabb-tree set", vertexBuffers));
    }
    return Status::success();
}

EbpiDetector::EbpiDetector(std::unique_ptr<EbpiDetectorImpl> impl) : impl_(std::move(impl)) {}
EbpiDetector::EbpiDetector(EbpiDetector&&) noexcept = default;
EbpiDetector& EbpiDetector::operator=(EbpiDetector&&) noexcept = default;
EbpiDetector::~EbpiDetector() = default;

Result<EbpiDetector> EbpiDetector::create(Context& context, const EbpiSettings& settings) {
    if (!context.valid()) return makeError(ErrorCode::InvalidArgument, "EbpiDetector::create: context is not valid");
    VKC_TRY(requireFeatureSet(vulkanOf(context), kFeatureSetEbpi, "EbpiDetector"));
    auto impl = std::make_unique<EbpiDetectorImpl>();
    impl->ctx = &vulkanOf(context);
    impl->context = &context;
    impl->settings = settings;
    VKC_TRY(checkSettings(*impl->ctx, impl->settings));
    const VulkanContext& c = *impl->ctx;
    impl->hitChunkRays = uint32_t(std::min<VkDeviceSize>(
        impl->settings.maxRays, storageBindingLimit(c) / (VkDeviceSize(impl->settings.hitCapacity) * sizeof(gpu::EbpiHitGpu))));
    switch (impl->settings.rayBackend) {
        case EbpiRayBackendChoice::Default:
            // The fastest the device runs, as measured: on a CPU device (lavapipe) the compute
            // traversal casts the same rays 50-100 times faster than its emulated ray queries
            // (collision/ebpi/README.md, "Ray backends"); on GPUs the hardware traversal.
            impl->backend = c.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? EbpiRayBackend::Compute
                            : c.hasRayQuery                                          ? EbpiRayBackend::RayQuery
                            : c.hasRayTracingPipeline ? EbpiRayBackend::RayTracingPipeline
                                                      : EbpiRayBackend::Compute;
            break;
        case EbpiRayBackendChoice::Compute:
            impl->backend = EbpiRayBackend::Compute;
            break;
        case EbpiRayBackendChoice::RayQuery:
            VKC_TRY(requireFeatureSet(c, kFeatureSetRayQuery, "EbpiDetector (EbpiRayBackendChoice::RayQuery)"));
            impl->backend = EbpiRayBackend::RayQuery;
            break;
        case EbpiRayBackendChoice::RayTracingPipeline:
            VKC_TRY(requireFeatureSet(c, kFeatureSetRayTracingPipeline,
                                      "EbpiDetector (EbpiRayBackendChoice::RayTracingPipeline)"));
            impl->backend = EbpiRayBackend::RayTracingPipeline;
            break;
    }
    VKC_TRY(impl->createPipelines());
    VKC_TRY(impl->createResources());
    return EbpiDetector(std::move(impl));
}

Status EbpiDetector::record(VkCommandBuffer cmd, const Scene& scene, const CandidateSet& candidates, uint64_t frame) {
    return impl_->recordFrame(cmd, sceneImplOf(scene), {&candidates, nullptr}, frame);
}

Status EbpiDetector::record(VkCommandBuffer cmd, const Scene& scene, const Broadphase& broadphase, uint64_t frame) {
    auto candidates = broadphaseCandidates(broadphase, frame, "ebpi");
    if (!candidates) return candidates.status();
    return impl_->recordFrame(cmd, sceneImplOf(scene), {nullptr, &candidates.value()}, frame);
}

VkSemaphoreSubmitInfo EbpiDetector::completionSignal(uint64_t frame) { return ringSignal(impl_->frames.ring, frame); }

Status EbpiDetector::results(uint64_t frame, FrameResults& out, EbpiFrameDetails* details) {
    return impl_->readResults(frame, out, details);
}

const EbpiSettings& EbpiDetector::settings() const { return impl_->settings; }

Status EbpiDetector::setTolerance(double tolerance) {
    if (!(tolerance > 0.0) || !std::isfinite(tolerance))
        return makeError(ErrorCode::InvalidArgument, "EbpiDetector::setTolerance " + std::to_string(tolerance) +
                                                         ": must be a finite volume > 0 (world units cubed, per pair)");
    impl_->settings.tolerance = tolerance;
    return Status::success();
}

const char* ebpiRayBackendName(EbpiRayBackendChoice backend) {
    switch (backend) {
        case EbpiRayBackendChoice::Default: return "default";
        case EbpiRayBackendChoice::Compute: return "compute";
        case EbpiRayBackendChoice::RayQuery: return "ray-query";
        case EbpiRayBackendChoice::RayTracingPipeline: return "ray-tracing-pipeline";
    }
    return "unknown";
}

EbpiRayBackendChoice EbpiDetector::rayBackend() const {
    switch (impl_->backend) {
        case EbpiRayBackend::Compute: return EbpiRayBackendChoice::Compute;
        case EbpiRayBackend::RayQuery: return EbpiRayBackendChoice::RayQuery;
        case EbpiRayBackend::RayTracingPipeline: return EbpiRayBackendChoice::RayTracingPipeline;
    }
    return EbpiRayBackendChoice::Compute;
}

// Rays and hit slots grow in place (growRays): a blocking frame cut for them runs again.
std::pair<uint32_t, uint32_t> EbpiDetectorImpl::rayCapacity() const { return {settings.maxRays, settings.hitCapacity}; }

Result<FrameResults> EbpiDetector::run(const Scene& scene, const BroadphaseResults& pcs, EbpiFrameDetails* details) {
    return runGrowingToNeed([&] { return impl_->rayCapacity(); }, [&] {
        return runDetectorFrame(
            *impl_->ctx, impl_->frames, "ebpi", pcs,
            [&](VkCommandBuffer cmd, uint64_t frame) { return record(cmd, scene, pcs, frame); },
            [&](uint64_t frame, FrameResults& out) { return results(frame, out, details); });
    });
}

Result<FrameResults> EbpiDetector::run(const Scene& scene, EbpiFrameDetails* details) {
    return runGrowingToNeed([&] { return impl_->rayCapacity(); }, [&] {
        return runGpuDriven(
            *impl_->context, {"ebpi", "EbpiSettings", impl_->settings}, impl_->frames, scene,
            [&](VkCommandBuffer cmd, uint64_t frame, const GpuCandidates& candidates) {
                return impl_->recordFrame(cmd, sceneImplOf(scene), {nullptr, &candidates}, frame);
            },
            [&](uint64_t frame, FrameResults& out) { return results(frame, out, details); });
    });
}

}  // namespace vkc
