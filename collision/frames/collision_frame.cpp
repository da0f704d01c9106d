// vkc::CollisionFrame: the broadphase and the chosen GPU-driven detectors behind one completion
// signal. The host's submit signals only the frame's own timeline semaphore; the members' own
// completion signals are taken at record() (their bookkeeping) and given from the host once the
// frame's value shows the GPU finished (on the next record() or results()), which is when each
// member's results() and slot reuse see their frame completed.
#include "vkcollide/collision_frame.h"

#include "vk/context.h"
#include "vk/timeline_semaphore.h"

#include <vector>

namespace vkc {

struct CollisionFrameImpl {
    VulkanContext* ctx = nullptr;
    CollisionFrameSettings settings;
    VkSemaphore timeline = VK_NULL_HANDLE;
    std::optional<Broadphase> broadphase;
    std::optional<AabbTreeDetector> aabbTree;
    std::optional<EbpiDetector> ebpi;
    std::optional<StencilDetector> stencil;
    std::optional<ConsistentPairsDetector> consistentPairs;
    std::optional<LdiDetector> ldi;
    struct Slot {
        uint64_t releaseAt = 0;  // the frame's timeline value from which its members' signals are given
        bool released = true;    // they were
        std::vector<VkSemaphoreSubmitInfo> memberSignals;
    };
    std::vector<Slot> slots;

    ~CollisionFrameImpl() {
        if (ctx && timeline != VK_NULL_HANDLE) ctx->vkd.vkDestroySemaphore(ctx->device, timeline, ctx->allocationCallbacks);
    }

    // Gives the members' signals of every slot whose frame the GPU finished.
    Status release() {
        auto value = timelineValue(*ctx, timeline);
        if (!value) return value.status();
        for (Slot& slot : slots) {
            if (slot.released || slot.releaseAt > value.value()) continue;
            for (const VkSemaphoreSubmitInfo& signal : slot.memberSignals)
                VKC_TRY(signalTimelineFromHost(*ctx, signal.semaphore, signal.value));
            slot.released = true;
        }
        return Status::success();
    }
};

namespace {

// A chosen method's detector, in step with the frame's framesInFlight.
template <class Detector, class Settings>
Status createMember(Context& context, uint32_t framesInFlight, std::optional<Settings>& settings,
                    std::optional<Detector>& out) {
    if (!settings) return Status::success();
    settings->framesInFlight = framesInFlight;
    auto detector = Detector::create(context, *settings);
    if (!detector) return detector.status();
    out.emplace(std::move(detector.value()));
    return Status::success();
}

// A chosen method's frame from the broadphase's pairs on the GPU, its signal kept.
template <class Detector>
Status recordMember(std::optional<Detector>& detector, VkCommandBuffer cmd, const Scene& scene,
                    const Broadphase& broadphase, uint64_t frame, std::vector<VkSemaphoreSubmitInfo>& signals) {
    if (!detector) return Status::success();
    VKC_TRY(detector->record(cmd, scene, broadphase, frame));
    signals.push_back(detector->completionSignal(frame));
    return Status::success();
}

}  // namespace

CollisionFrame::CollisionFrame(std::unique_ptr<CollisionFrameImpl> impl) : impl_(std::move(impl)) {}
CollisionFrame::CollisionFrame(CollisionFrame&&) noexcept = default;
CollisionFrame& CollisionFrame::operator=(CollisionFrame&&) noexcept = default;
CollisionFrame::~CollisionFrame() = default;

Result<CollisionFrame> CollisionFrame::create(Context& context, const CollisionFrameSettings& settings) {
    if (!context.valid()) return makeError(ErrorCode::InvalidArgument, "CollisionFrame::create: context is not valid");
    auto impl = std::make_unique<CollisionFrameImpl>();
    impl->ctx = &vulkanOf(context);
    impl->settings = settings;
    CollisionFrameSettings& s = impl->settings;
    if (s.framesInFlight == 0) s.framesInFlight = 2;
    s.broadphase.framesInFlight = s.framesInFlight;
    auto broadphase = Broadphase::create(context, s.broadphase);
    if (!broadphase) return broadphase.status();
    impl->broadphase.emplace(std::move(broadphase.value()));
    VKC_TRY(createMember(context, s.framesInFlight, s.aabbTree, impl->aabbTree));
    VKC_TRY(createMember(context, s.framesInFlight, s.ebpi, impl->ebpi));
    VKC_TRY(createMember(context, s.framesInFlight, s.stencil, impl->stencil));
    VKC_TRY(createMember(context, s.framesInFlight, s.consistentPairs, impl->consistentPairs));
    VKC_TRY(createMember(context, s.framesInFlight, s.ldi, impl->ldi));
    auto timeline = createTimelineSemaphore(*impl->ctx, "collision frame timeline");
    if (!timeline) return timeline.status();
    impl->timeline = timeline.value();
    impl->slots.resize(s.framesInFlight);
    return CollisionFrame(std::move(impl));
}

Status CollisionFrame::record(VkCommandBuffer cmd, const Scene& scene, uint64_t frame) {
    CollisionFrameImpl& f = *impl_;
    VKC_TRY(f.release());
    std::vector<VkSemaphoreSubmitInfo> signals;
    auto recordAll = [&]() -> Status {
        VKC_TRY(f.broadphase->record(cmd, scene, frame));
        signals.push_back(f.broadphase->completionSignal(frame));
        VKC_TRY(recordMember(f.aabbTree, cmd, scene, *f.broadphase, frame, signals));
        VKC_TRY(recordMember(f.ebpi, cmd, scene, *f.broadphase, frame, signals));
        VKC_TRY(recordMember(f.stencil, cmd, scene, *f.broadphase, frame, signals));
        VKC_TRY(recordMember(f.consistentPairs, cmd, scene, *f.broadphase, frame, signals));
        return recordMember(f.ldi, cmd, scene, *f.broadphase, frame, signals);
    };
    Status recorded = recordAll();
    // A frame that failed is never submitted: the signals its members handed out are given once
    // every earlier frame has finished (a timeline value now would pass over one still in flight),
    // so that their slots do not wait for it forever.
    if (!signals.empty()) f.slots[frame % f.slots.size()] = {recorded.ok() ? frame + 1 : frame, false, std::move(signals)};
    return recorded;
}

VkSemaphoreSubmitInfo CollisionFrame::completionSignal(uint64_t frame) {
    VkSemaphoreSubmitInfo info = {VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    info.semaphore = impl_->timeline;
    info.value = frame + 1;
    info.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;  // after every pass of every member
    return info;
}

Status CollisionFrame::results(uint64_t frame, CollisionFrameResults& out) {
    CollisionFrameImpl& f = *impl_;
    auto value = timelineValue(*f.ctx, f.timeline);
    if (!value) return value.status();
    if (value.value() < frame + 1)
        return makeError(ErrorCode::NotReady, "collision frame " + std::to_string(frame) + " still in flight");
    VKC_TRY(f.release());
    CollisionFrameResults read;
    VKC_TRY(f.broadphase->results(frame, read.broadphase));
    if (f.aabbTree) VKC_TRY(f.aabbTree->results(frame, read.aabbTree.emplace()));
    if (f.ebpi) VKC_TRY(f.ebpi->results(frame, read.ebpi.emplace()));
    if (f.stencil) VKC_TRY(f.stencil->results(frame, read.stencil.emplace()));
    if (f.consistentPairs) VKC_TRY(f.consistentPairs->results(frame, read.consistentPairs.emplace()));
    if (f.ldi) VKC_TRY(f.ldi->results(frame, read.ldi.emplace()));
    out = std::move(read);
    return Status::success();
}

const CollisionFrameSettings& CollisionFrame::settings() const { return impl_->settings; }

}  // namespace vkc
