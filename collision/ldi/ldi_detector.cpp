// vkc::LdiDetector (paper 2, LDI depth peeling): pipelines, per-frame-slot resources and the public
// entry points. Frames are recorded in ldi_detector_frame.cpp and decoded in ldi_detector_results.cpp.
#include "collision/ldi/ldi_detector_impl.h"

#include "collision/broadphase/broadphase_candidates.h"
#include "collision/frames/frame_warnings.h"
#include "collision/frames/blocking_run.h"
#include "collision/frames/detector_settings.h"
#include "collision/frames/frame_slot_resources.h"
#include "collision/scene/scene_impl.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "vk/assign_result.h"
#include "vk/descriptors.h"

#include "spirv/ldi_drawn_bound.comp.h"
#include "spirv/ldi_indirect.comp.h"
#include "spirv/ldi_layer_count.comp.h"
#include "spirv/ldi_pair_setup.comp.h"
#include "spirv/ldi_pair_verdicts.comp.h"
#include "spirv/ldi_peel.frag.h"
#include "spirv/ldi_peel.vert.h"
#include "spirv/fullscreen_triangle.vert.h"
#include "spirv/ldi_points.comp.h"
#include "spirv/ldi_sort.comp.h"
#include "spirv/ldi_volume.comp.h"
#include "spirv/ldi_volume_sum.comp.h"

#include <algorithm>
#include <cstring>

namespace vkc {

static_assert(sizeof(gpu::LdiTileGpu) == 208 && sizeof(gpu::LdiTileStatsGpu) == 32 &&
                  sizeof(gpu::LdiPairResultGpu) == 32 && sizeof(gpu::LdiListHeader) == 16 &&
                  sizeof(gpu::LdiPointTestGpu) == 96 && sizeof(gpu::LdiPairInfoGpu) == 80 &&
                  sizeof(gpu::LdiSetupStateGpu) == 32 && sizeof(gpu::LdiSceneObjectGpu) == 128 &&
                  sizeof(gpu::LdiSetupParamsGpu) == 48,
              "ldi structs must match their std430 layouts");
static_assert(sizeof(gpu::LdiDrawPush) == 16 && sizeof(gpu::LdiComputePush) == 32,
              "ldi push constants must match their blocks");

namespace {

// 320: the stated bound stays within a fifth of the volume on the shared meshes' overlapping pairs
// (bunny_60k against itself 0.5 apart: 20.6% at 256², 15.0% at 320², 7.4% at 512²; the bound
// shrinks with the pixel side, the error is ~1e-4 of it).
constexpr uint32_t kDefaultResolution = 320;
constexpr uint32_t kDefaultLayerCap = 16;
constexpr uint32_t kDefaultMaxPairs = 4;
constexpr uint32_t kDefaultInsideCapacity = 65536;
constexpr uint64_t kDefaultLayerMemoryBudget = uint64_t(512) << 20;
constexpr uint32_t kDefaultMaxCandidatePairs = 16384;
// The stats reset is one vkCmdUpdateBuffer (at most 65536 bytes): 2048 tiles of 32 bytes.
constexpr uint32_t kMaxPairsLimit = 1024;

}  // namespace

LdiDetectorImpl::~LdiDetectorImpl() {
    if (!ctx) return;
    destroyDetectorFrames(*ctx, frames);
    for (Pipeline* p :
         {&peel, &stencilClear, &layerCount, &indirect, &sort, &volume, &volumeSum, &points, &drawnBound, &pairVerdicts,
          &pairSetup})
        destroyPipeline(*ctx, *p);
    destroyPairSelectionPrograms(*ctx, pairSelection);
}

Status LdiDetectorImpl::createPipelines() {
    VulkanContext& c = *ctx;
    // A host's frame reads each tile's mesh buffer (its vertices are the pairs' points too), or, for
    // a point query, one tile's and the points' buffers: never more buffers than tiles. A
    // GPU-driven frame binds every object's, as the GPU chooses the pairs.
    frames.vertexBufferCapacity = vertexBufferCapacity(c, std::max(maxTiles, settings.maxObjects));
    const PipelineLayoutDesc computeLayout = withVertexBufferCapacity(kLdiComputeLayout, frames.vertexBufferCapacity);
    auto compute = [&](Pipeline& out, std::span<const uint32_t> spirv, const char* name) -> Status {
        return assignResult(out, createComputePipeline(c, spirv, computeLayout, {}, name));
    };
    VKC_TRY(compute(layerCount, kSpirv_ldi_layer_count_comp, "ldi-layer-count"));
    VKC_TRY(compute(indirect, kSpirv_ldi_indirect_comp, "ldi-indirect"));
    VKC_TRY(compute(sort, kSpirv_ldi_sort_comp, "ldi-sort"));
    VKC_TRY(compute(volume, kSpirv_ldi_volume_comp, "ldi-volume"));
    VKC_TRY(compute(volumeSum, kSpirv_ldi_volume_sum_comp, "ldi-volume-sum"));
    VKC_TRY(compute(points, kSpirv_ldi_points_comp, "ldi-points"));
    VKC_TRY(compute(drawnBound, kSpirv_ldi_drawn_bound_comp, "ldi-drawn-bound"));
    VKC_TRY(assignResult(pairVerdicts, createComputePipeline(c, kSpirv_ldi_pair_verdicts_comp, kLdiSetupLayout, {},
                                                             "ldi-pair-verdicts")));
    VKC_TRY(assignResult(pairSetup, createComputePipeline(c, kSpirv_ldi_pair_setup_comp, kLdiSetupLayout, {},
                                                          "ldi-pair-setup")));
    VKC_TRY(assignResult(pairSelection, createPairSelectionPrograms(c)));

    // §4: depth test and culling off; the stencil routes one fragment per pixel and pass (EQUAL
    // the pass's layer, set per pass) and counts every fragment (increment-and-clamp on pass and fail).
    GraphicsPipelineDesc desc;
    desc.vertexSpirv = kSpirv_ldi_peel_vert;
    desc.fragmentSpirv = kSpirv_ldi_peel_frag;
    desc.layout = withVertexBufferCapacity(kLdiDrawLayout, frames.vertexBufferCapacity);
    desc.cullMode = VK_CULL_MODE_NONE;
    desc.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;  // see LdiView::entryIsFront
    desc.stencilTest = true;
    desc.stencilFront = desc.stencilBack = {VK_STENCIL_OP_INCREMENT_AND_CLAMP, VK_STENCIL_OP_INCREMENT_AND_CLAMP,
                                            VK_STENCIL_OP_INCREMENT_AND_CLAMP, VK_COMPARE_OP_EQUAL, 0xffu, 0xffu, 0u};
    desc.extraDynamicStates = {VK_DYNAMIC_STATE_STENCIL_REFERENCE};
    desc.depthFormat = depthStencilFormat;
    desc.stencilFormat = depthStencilFormat;
    desc.name = "ldi-peel";
    VKC_TRY(assignResult(peel, createGraphicsPipeline(c, desc)));

    // A layer pass's stencil clear: one triangle over the atlas zeroing the stencil, drawn only when
    // the GPU found a tile with that layer (ldi_indirect.comp).
    GraphicsPipelineDesc clear;
    clear.vertexSpirv = kSpirv_fullscreen_triangle_vert;
    clear.layout = {{}, 0};  // no descriptors, no push constants
    clear.stencilTest = true;
    clear.stencilFront = clear.stencilBack = {VK_STENCIL_OP_ZERO, VK_STENCIL_OP_ZERO, VK_STENCIL_OP_ZERO,
                                              VK_COMPARE_OP_ALWAYS, 0xffu, 0xffu, 0u};
    clear.depthFormat = depthStencilFormat;
    clear.stencilFormat = depthStencilFormat;
    clear.name = "ldi-stencil-clear";
    return assignResult(stencilClear, createGraphicsPipeline(c, clear));
}

Status LdiDetectorImpl::createResources() {
    VulkanContext& c = *ctx;
    const LdiSettings& s = settings;
    const uint32_t slotCount = s.framesInFlight;
    const uint32_t vertexBuffers = frames.vertexBufferCapacity;
    // Per slot: the draw set (tiles and the vertex buffers), the compute set (tiles, the vertex
    // buffers and 12 more), the setup set (12), the pair selection's sets.
    VkDescriptorPoolSize sizes[2] = {
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         slotCount * (2 * (1 + vertexBuffers) + 12 + 12 + kPairSelectionStorageBuffers)},
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, slotCount}};
    VKC_TRY(createDetectorFrames(c,
                                 {"ldi", slotCount, slotCount * (4 + kPairSelectionSets), sizes,
                                  ldiReadbackLayout(s.insideCapacity, s.maxPairs, maxTiles, s.resolution, s.keepImages),
                                  !s.disableGpuTimings},
                                 frames));

    slots.resize(slotCount);
    for (uint32_t i = 0; i < slotCount; ++i) {
        const FrameSlotResources make(c, i);
        VKC_TRY(make.descriptorSet(slots[i].drawSet, frames.descriptorPool, peel.setLayouts[0], "ldi draw set",
                                   vertexBuffers));
        VKC_TRY(make.descriptorSet(slots[i].tileLayersSet, frames.descriptorPool, peel.setLayouts[gpu::kLdiSetTileLayers],
                                   "ldi tile layers set"));
        VKC_TRY(make.descriptorSet(slots[i].computeSet, frames.descriptorPool, sort.setLayouts[0], "ldi compute set",
                                   vertexBuffers));
        VKC_TRY(make.descriptorSet(slots[i].setupSet, frames.descriptorPool, pairSetup.setLayouts[0], "ldi setup set"));
        VKC_TRY(createPairSelectionSlot(make, frames.descriptorPool, pairSelection, "ldi", slots[i].pairSelection));
    }
    return Status::success();
}

LdiDetector::LdiDetector(std::unique_ptr<LdiDetectorImpl> impl) : impl_(std::move(impl)) {}
LdiDetector::LdiDetector(LdiDetector&&) noexcept = default;
LdiDetector& LdiDetector::operator=(LdiDetector&&) noexcept = default;
LdiDetector::~LdiDetector() = default;

Result<LdiDetector> LdiDetector::create(Context& context, const LdiSettings& settings) {
    if (!context.valid()) return makeError(ErrorCode::InvalidArgument, "LdiDetector::create: context is not valid");
    VKC_TRY(requireFeatureSet(vulkanOf(context), kFeatureSetLdi, "LdiDetector"));
    auto impl = std::make_unique<LdiDetectorImpl>();
    impl->ctx = &vulkanOf(context);
    impl->context = &context;
    impl->settings = settings;
    LdiSettings& s = impl->settings;
    if (s.resolution == 0) s.resolution = kDefaultResolution;
    if (s.layerCap == 0) s.layerCap = kDefaultLayerCap;
    if (s.maxPairs == 0) s.maxPairs = kDefaultMaxPairs;
    if (s.insideCapacity == 0) s.insideCapacity = kDefaultInsideCapacity;
    if (s.layerMemoryBudget == 0) s.layerMemoryBudget = kDefaultLayerMemoryBudget;
    VKC_TRY(applyDetectorDefaults(s, kDefaultMaxCandidatePairs, "LdiSettings",
                                  objectsPerBinding(*impl->ctx, sizeof(gpu::LdiSceneObjectGpu))));
    if (s.layerCap > gpu::kLdiMaxLayerCap)
        return makeError(ErrorCode::InvalidArgument, "LdiSettings::layerCap " + std::to_string(s.layerCap) +
                                                         " exceeds " + std::to_string(gpu::kLdiMaxLayerCap) +
                                                         " (the 8-bit stencil clamps at 255)");
    if (s.errorBound != LdiErrorBound::Tight && s.errorBound != LdiErrorBound::DrawnTriangles)
        return makeError(ErrorCode::InvalidArgument, "LdiSettings::errorBound " + std::to_string(uint32_t(s.errorBound)) +
                                                         " is not an LdiErrorBound (Tight 0, DrawnTriangles 1)");
    if (s.maxPairs > kMaxPairsLimit)
        return makeError(ErrorCode::InvalidArgument, "LdiSettings::maxPairs " + std::to_string(s.maxPairs) +
                                                         " exceeds " + std::to_string(kMaxPairsLimit));
    VKC_TRY(checkFramebufferResolution(*impl->ctx, s.resolution, "LdiSettings"));
    const VkPhysicalDeviceLimits& limits = impl->ctx->properties.limits;
    const uint32_t maxDim = std::min(limits.maxFramebufferWidth, limits.maxFramebufferHeight);
    // Each (tile, layer) image is bound at a dynamic offset of a multiple of its size.
    if (ldiLayerBytes(s.resolution) % limits.minStorageBufferOffsetAlignment != 0)
        return makeError(ErrorCode::InvalidArgument, "LdiSettings::resolution " + std::to_string(s.resolution) +
                                                         " is too small: a layer's image must be a multiple of " +
                                                         std::to_string(limits.minStorageBufferOffsetAlignment) +
                                                         " bytes");
    impl->maxTiles = 2 * s.maxPairs;
    impl->atlasColumns = std::min(impl->maxTiles, maxDim / s.resolution);
    if ((impl->maxTiles + impl->atlasColumns - 1) / impl->atlasColumns * s.resolution > maxDim)
        return makeError(ErrorCode::InvalidArgument, "LdiSettings: " + std::to_string(impl->maxTiles) + " tiles of " +
                                                         std::to_string(s.resolution) +
                                                         "^2 do not fit the device's framebuffer");
    // The compute set binds every per-frame buffer whole, the dynamic offsets of the draw set are 32-bit
    // and the shaders index with uint: each buffer must fit maxStorageBufferRange and 2^32 bytes.
    const VkDeviceSize bufferLimit = storageBindingLimit(*impl->ctx);
    const std::string sizes = "LdiSettings: resolution " + std::to_string(s.resolution) + ", layerCap " +
                              std::to_string(s.layerCap) + " and maxPairs " + std::to_string(s.maxPairs);
    const VkDeviceSize perTileBytes = VkDeviceSize(s.resolution) * s.resolution;
    const struct {
        const char* what;
        VkDeviceSize bytes;
        const char* lower;
    } buffers[] = {
        {"peeled layers", VkDeviceSize(impl->maxTiles) * ldiTileLayerBytes(s.resolution, s.layerCap),
         "resolution, layerCap or maxPairs"},
        {"intersection-depth images", VkDeviceSize(s.maxPairs) * perTileBytes * sizeof(float), "resolution or maxPairs"},
        {"stencil counts", VkDeviceSize(impl->atlasColumns) *
                                 ((impl->maxTiles + impl->atlasColumns - 1) / impl->atlasColumns) * perTileBytes, "resolution or maxPairs"},
        {"volume partial sums", VkDeviceSize(s.maxPairs) * ldiVolumeGroups(s.resolution) * sizeof(double),
         "resolution or maxPairs"},
        {"inside vertices", ldiInsideBytes(s.insideCapacity), "insideCapacity"},
    };
    for (const auto& b : buffers)
        if (b.bytes > bufferLimit)
            return makeError(ErrorCode::InvalidArgument,
                             sizes + " need " + std::to_string(b.bytes) + " bytes of " + b.what + ", above the " +
                                 std::to_string(bufferLimit) +
                                 " bytes one storage buffer binding reaches on this device (maxStorageBufferRange, "
                                 "at most 2^32 - 1): lower " + b.lower);
    // ldi-volume: one workgroup row of a pair's pixels, one row per pair; ldi-volume-sum: one per pair.
    const uint32_t* groupLimit = limits.maxComputeWorkGroupCount;
    if (ldiVolumeGroups(s.resolution) > groupLimit[0])
        return makeError(ErrorCode::InvalidArgument, sizes + ": the volume pass needs " +
                                                         std::to_string(ldiVolumeGroups(s.resolution)) +
                                                         " workgroups per pair, above maxComputeWorkGroupCount[0] " +
                                                         std::to_string(groupLimit[0]) + ": lower resolution");
    if (s.maxPairs > std::min(groupLimit[0], groupLimit[1]))
        return makeError(ErrorCode::InvalidArgument, sizes + ": maxPairs is above maxComputeWorkGroupCount");
    // 8 stencil bits count the depth complexity; prefer the exact float depth (as the stencil method).
    impl->depthStencilFormat = pickDepthStencilFormat(
        *impl->ctx, VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_FORMAT_FEATURE_TRANSFER_SRC_BIT);
    if (impl->depthStencilFormat == VK_FORMAT_UNDEFINED)
        return makeError(ErrorCode::MissingFeature,
                         "ldi: the device renders and copies neither D32_SFLOAT_S8_UINT nor D24_UNORM_S8_UINT");
    VKC_TRY(impl->createPipelines());
    VKC_TRY(impl->createResources());
    return LdiDetector(std::move(impl));
}

Status LdiDetector::record(VkCommandBuffer cmd, const Scene& scene, const CandidateSet& candidates, uint64_t frame) {
    return impl_->recordFrame(cmd, sceneImplOf(scene), candidates, frame);
}

Status LdiDetector::record(VkCommandBuffer cmd, const Scene& scene, const Broadphase& broadphase, uint64_t frame) {
    auto candidates = broadphaseCandidates(broadphase, frame, "ldi");
    if (!candidates) return candidates.status();
    return impl_->recordGpuDriven(cmd, sceneImplOf(scene), candidates.value(), frame);
}

VkSemaphoreSubmitInfo LdiDetector::completionSignal(uint64_t frame) { return ringSignal(impl_->frames.ring, frame); }

Status LdiDetector::results(uint64_t frame, FrameResults& out, LdiFrameDetails* details) {
    return impl_->readResults(frame, out, details);
}

Status LdiDetector::recordPointQuery(VkCommandBuffer cmd, const Scene& scene, uint32_t object, const Aabb& objectBounds,
                                     VkBuffer points, VkDeviceSize offset, uint32_t stride, uint32_t count,
                                     uint64_t frame) {
    return impl_->recordPoints(cmd, sceneImplOf(scene), object, objectBounds, points, offset, stride, count, frame);
}

Status LdiDetector::pointResults(uint64_t frame, LdiPointResults& out) { return impl_->readPointResults(frame, out); }

const LdiSettings& LdiDetector::settings() const { return impl_->settings; }

Result<FrameResults> LdiDetector::run(const Scene& scene, const BroadphaseResults& pcs, LdiFrameDetails* details) {
    return runGrowingToNeed([&] { return impl_->settings.layerCap; }, [&] {  // growLayers
        return runDetectorFrame(
            *impl_->ctx, impl_->frames, "ldi", pcs,
            [&](VkCommandBuffer cmd, uint64_t frame) { return record(cmd, scene, pcs, frame); },
            [&](uint64_t frame, FrameResults& out) { return results(frame, out, details); });
    });
}

Result<FrameResults> LdiDetector::run(const Scene& scene, LdiFrameDetails* details) {
    // The tight bound needs the pairs on the CPU: its own broadphase's, read back first.
    if (impl_->settings.errorBound == LdiErrorBound::Tight)
        return runAfterOwnBroadphase(*impl_->context, impl_->settings.broadphase, impl_->frames, scene,
                                     [&](const BroadphaseResults& pcs) { return run(scene, pcs, details); });
    return runGrowingToNeed([&] { return impl_->settings.layerCap; }, [&] {  // growLayers
        return runGpuDriven(
            *impl_->context, {"ldi", "LdiSettings", impl_->settings}, impl_->frames, scene,
            [&](VkCommandBuffer cmd, uint64_t frame, const GpuCandidates& candidates) {
                return impl_->recordGpuDriven(cmd, sceneImplOf(scene), candidates, frame);
            },
            [&](uint64_t frame, FrameResults& out) { return results(frame, out, details); });
    });
}

Result<LdiPointResults> LdiDetector::classifyPoints(const Scene& scene, uint32_t object,
                                                    std::span<const glm::vec3> worldPoints) {
    VulkanContext& c = *impl_->ctx;
    if (object >= scene.objectCount())
        return makeError(ErrorCode::InvalidArgument, "ldi: classifyPoints names unknown object " + std::to_string(object));
    const Aabb box = placedMeshBounds(scene.mesh(scene.objectMesh(object)), scene.transform(object));
    auto buffer = createBuffer(c, {std::max<VkDeviceSize>(16, worldPoints.size_bytes()),
                                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::Upload, "ldi query points"});
    if (!buffer) return buffer.status();
    Buffer points = buffer.value();
    if (!worldPoints.empty()) std::memcpy(points.data, worldPoints.data(), worldPoints.size_bytes());
    auto query = [&]() -> Result<uint64_t> {
        VKC_TRY(flushBuffer(c, points));
        return recordAndWait(c, impl_->frames, "ldi classify points", [&](VkCommandBuffer cmd, uint64_t frame) {
            return recordPointQuery(cmd, scene, object, box, points.buffer, 0, sizeof(glm::vec3),
                                    uint32_t(worldPoints.size()), frame);
        });
    };
    Result<uint64_t> frame = query();
    destroyBuffer(c, points);
    if (!frame) return frame.status();
    LdiPointResults out;
    VKC_TRY(pointResults(frame.value(), out));
    return out;
}

}  // namespace vkc
