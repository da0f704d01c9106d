// vkc::AabbTreeDetector (method `aabb-tree`, paper 4): caches one CPU-built tree per mesh, owns
// one set of buffers per frame in flight (pipelines, descriptor sets, read-back ring created here),
// records each frame's pass graph (aabb_tree_detector_record.cpp) and decodes the read-back slot
// (aabb_tree_detector_results.cpp). Refit policy and temporal coherence: see those files.
#include "collision/aabb_tree/aabb_tree_detector_impl.h"

#include "collision/aabb_tree/aabb_tree_detector_support.h"
#include "collision/broadphase/broadphase_candidates.h"
#include "collision/frames/frame_slot_resources.h"
#include "collision/frames/blocking_run.h"
#include "collision/frames/detector_settings.h"
#include "collision/scene/scene_impl.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "passes/aabb_tree/aabb_tree_passes.h"
#include "vk/descriptors.h"

#include "spirv/aabb_indirect.comp.h"
#include "spirv/aabb_pairs.comp.h"
#include "spirv/aabb_refit.comp.h"
#include "spirv/aabb_traverse.comp.h"

#include <algorithm>

namespace vkc {

AabbTreeDetectorImpl::~AabbTreeDetectorImpl() {
    if (!ctx) return;
    destroyDetectorFrames(*ctx, frames);
    destroyPipeline(*ctx, pairsPipeline);
    destroyPipeline(*ctx, refitPipeline);
    destroyPipeline(*ctx, indirectPipeline);
    destroyPipeline(*ctx, traversePipeline);
}

Status AabbTreeDetectorImpl::createResources() {
    VulkanContext& c = *ctx;
    const SpecConstant refitSpec[] = {{0, gpu::kAabbRefitGroupSize}};
    // aabb_indirect.comp sizes the traversal's groups: both must be specialised alike.
    const SpecConstant traverseSpec[] = {{0, gpu::kAabbTraverseGroupSize}};
    const uint32_t vertexBuffers = vertexBufferCapacity(c, settings.maxObjects);  // one per object at most
    const PipelineLayoutDesc layout = withVertexBufferCapacity(kAabbPipelineLayout, vertexBuffers);
    auto pairs = createComputePipeline(c, kSpirv_aabb_pairs_comp, layout, {}, "aabb-pairs");
    if (!pairs) return pairs.status();
    pairsPipeline = pairs.value();
    auto refit = createComputePipeline(c, kSpirv_aabb_refit_comp, layout, refitSpec, "aabb-refit");
    if (!refit) return refit.status();
    refitPipeline = refit.value();
    auto indirect = createComputePipeline(c, kSpirv_aabb_indirect_comp, layout, traverseSpec, "aabb-indirect");
    if (!indirect) return indirect.status();
    indirectPipeline = indirect.value();
    auto traverse = createComputePipeline(c, kSpirv_aabb_traverse_comp, layout, traverseSpec, "aabb-traverse");
    if (!traverse) return traverse.status();
    traversePipeline = traverse.value();

    const uint32_t slotCount = settings.framesInFlight;
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                 slotCount * (gpu::kAabbBindingEntrances + 1 + vertexBuffers)};
    VKC_TRY(createDetectorFrames(c,
                                 {"aabb-tree", slotCount, slotCount, {&size, 1},
                                  aabbTreeReadbackLayout(settings.maxCandidatePairs, trianglePairCapacity()),
                                  !settings.disableGpuTimings},
                                 frames));
    frames.vertexBufferCapacity = vertexBuffers;
    slots.resize(slotCount);
    frames.discardFrame = [this](uint64_t frame) { slots[frame % slots.size()].traversal.nodesValid = false; };
    for (uint32_t i = 0; i < slotCount; ++i)
        VKC_TRY(FrameSlotResources(c, i).descriptorSet(slots[i].traversal.set, frames.descriptorPool, refitPipeline.setLayouts[0],
                                                      "aabb-tree set", vertexBuffers));
    return Status::success();
}

AabbTreeDetector::AabbTreeDetector(std::unique_ptr<AabbTreeDetectorImpl> impl) : impl_(std::move(impl)) {}
AabbTreeDetector::AabbTreeDetector(AabbTreeDetector&&) noexcept = default;
AabbTreeDetector& AabbTreeDetector::operator=(AabbTreeDetector&&) noexcept = default;
AabbTreeDetector::~AabbTreeDetector() = default;

// aabb_traverse.comp aggregates its appends and counters per subgroup (one atomic per subgroup
// instead of the paper's mip-map prefix sums, 4.4): it needs these operations in compute.
static Status checkSubgroupSupport(const VulkanContext& ctx) {
    VkPhysicalDeviceSubgroupProperties subgroup = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 properties = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties.pNext = &subgroup;
    ctx.vki.vkGetPhysicalDeviceProperties2(ctx.physicalDevice, &properties);
    const std::pair<VkSubgroupFeatureFlagBits, const char*> needed[] = {
        {VK_SUBGROUP_FEATURE_BASIC_BIT, "basic"},
        {VK_SUBGROUP_FEATURE_VOTE_BIT, "vote"},
        {VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "arithmetic"},
        {VK_SUBGROUP_FEATURE_BALLOT_BIT, "ballot"}};
    std::string missing;
    for (const auto& [bit, name] : needed)
        if (!(subgroup.supportedOperations & bit)) missing += std::string(missing.empty() ? "" : ", ") + name;
    if (!(subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT)) missing += missing.empty() ? "compute stage" : ", compute stage";
    if (!missing.empty())
        return makeError(ErrorCode::MissingFeature, "aabb-tree: device \"" + std::string(properties.properties.deviceName) +
                                                        "\" lacks subgroup support in compute: " + missing);
    return Status::success();
}

Result<AabbTreeDetector> AabbTreeDetector::create(Context& context, const AabbTreeSettings& settings) {
    if (!context.valid()) return makeError(ErrorCode::InvalidArgument, "AabbTreeDetector::create: context is not valid");
    VKC_TRY(requireFeatureSet(vulkanOf(context), kFeatureSetAabbTree, "AabbTreeDetector"));
    auto impl = std::make_unique<AabbTreeDetectorImpl>();
    impl->ctx = &vulkanOf(context);
    impl->context = &context;
    impl->settings = settings;
    AabbTreeSettings& s = impl->settings;
    if (s.nodePairCapacity == 0) s.nodePairCapacity = kAabbDefaultNodePairCapacity;
    if (s.trianglePairCapacity == 0) s.trianglePairCapacity = kAabbDefaultTrianglePairCapacity;
    if (s.nodePairMemoryBudget == 0) s.nodePairMemoryBudget = kAabbDefaultNodePairMemoryBudget;
    VKC_TRY(applyDetectorDefaults(s, kAabbDefaultMaxCandidatePairs, "AabbTreeSettings",
                                  objectsPerBinding(*impl->ctx, sizeof(gpu::AabbObjectGpu))));
    // Both ping-pong lists index one buffer with 32-bit entry numbers.
    if (s.nodePairCapacity > (1u << 30))
        return makeError(ErrorCode::InvalidArgument, "AabbTreeSettings::nodePairCapacity " +
                                                         std::to_string(s.nodePairCapacity) + " exceeds 2^30");
    VKC_TRY(checkSubgroupSupport(*impl->ctx));
    VKC_TRY(impl->createResources());
    return AabbTreeDetector(std::move(impl));
}

const AabbTreeSettings& AabbTreeDetector::settings() const { return impl_->settings; }

Status AabbTreeDetector::record(VkCommandBuffer cmd, const Scene& scene, const CandidateSet& candidates, uint64_t frame) {
    return impl_->recordFrame(cmd, sceneImplOf(scene), {&candidates, nullptr}, frame);
}

Status AabbTreeDetector::record(VkCommandBuffer cmd, const Scene& scene, const Broadphase& broadphase, uint64_t frame) {
    auto candidates = broadphaseCandidates(broadphase, frame, "aabb-tree");
    if (!candidates) return candidates.status();
    return impl_->recordFrame(cmd, sceneImplOf(scene), {nullptr, &candidates.value()}, frame);
}

VkSemaphoreSubmitInfo AabbTreeDetector::completionSignal(uint64_t frame) { return ringSignal(impl_->frames.ring, frame); }

// The node-pair lists grow in place (growNodePairs): a blocking frame they cut runs again.
Result<FrameResults> AabbTreeDetector::run(const Scene& scene, const BroadphaseResults& pcs, AabbTreeFrameDetails* details) {
    return runGrowingToNeed([&] { return impl_->settings.nodePairCapacity; }, [&] {
        return runDetectorFrame(
            *impl_->ctx, impl_->frames, "aabb-tree", pcs,
            [&](VkCommandBuffer cmd, uint64_t frame) { return record(cmd, scene, pcs, frame); },
            [&](uint64_t frame, FrameResults& out) { return results(frame, out, details); });
    });
}

Result<FrameResults> AabbTreeDetector::run(const Scene& scene, AabbTreeFrameDetails* details) {
    return runGrowingToNeed([&] { return impl_->settings.nodePairCapacity; }, [&] {
        return runGpuDriven(
            *impl_->context, {"aabb-tree", "AabbTreeSettings", impl_->settings}, impl_->frames, scene,
            [&](VkCommandBuffer cmd, uint64_t frame, const GpuCandidates& candidates) {
                return impl_->recordFrame(cmd, sceneImplOf(scene), {nullptr, &candidates}, frame);
            },
            [&](uint64_t frame, FrameResults& out) { return results(frame, out, details); });
    });
}

}  // namespace vkc
