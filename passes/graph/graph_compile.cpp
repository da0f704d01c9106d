// Graph::compile: walks passes in declaration order, tracking per resource the last write, where
// it is already visible, the reads since, and the current image layout; derives one
// synchronization2 barrier per (pass, resource) that needs one, then the final barriers that hand
// imported resources back in the state the host asked for. Also derives transient usage flags.
#include "passes/graph/graph.h"

#include <set>
#include <utility>

namespace vkc {
namespace {

struct StageAccess {
    VkPipelineStageFlags2 stages;
    VkAccessFlags2 access;
};

// What the walk knows about one resource between passes.
struct Track {
    VkPipelineStageFlags2 writeStages = 0;  // last write (+ stages of layout transitions since)
    VkAccessFlags2 writeAccess = 0;         // write bits of the last write
    bool writeAvailable = false;            // a barrier since the last write already flushed it
    std::vector<StageAccess> visible;       // (stage, access) pairs the last write is visible to
    VkPipelineStageFlags2 readStages = 0;   // reads since the last write, for write-after-read
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
    bool hasContents = false;               // imported, or written by an earlier pass
};

Track importedTrack(const SyncState& initial) {
    Track track;
    track.hasContents = true;
    track.layout = initial.layout;
    const VkAccessFlags2 writes = writeAccessBits(initial.access);
    if (writes != 0) {
        track.writeStages = initial.stages;
        track.writeAccess = writes;
    } else {
        // A host read (or execution-only use) still has to finish before anything overwrites it.
        track.readStages = initial.stages;
    }
    return track;
}

// The state a frame leaves a slot resource in, for the slot's next frame: everything it did, and
// its last write still to be flushed (conservative; the next frame's first access waits for it).
SyncState lastUseOf(const Track& track) {
    SyncState state;
    state.stages = track.writeStages | track.readStages;
    state.access = track.writeAccess;
    state.layout = track.layout;
    return state;
}

bool isVisible(const Track& track, VkPipelineStageFlags2 stages, VkAccessFlags2 access) {
    for (const StageAccess& entry : track.visible)
        if ((stages & ~entry.stages) == 0 && (access & ~entry.access) == 0) return true;
    return false;
}

// Applies one access to `track`; returns true and fills `barrier` when one is needed first.
// `layout` is UNDEFINED for buffers, which never transition.
bool applyAccess(Track& track, VkPipelineStageFlags2 stages, VkAccessFlags2 access, VkImageLayout layout,
                 bool isWrite, bool isImage, GraphBarrier& barrier) {
    const bool transition = isImage && layout != track.layout;
    barrier.dstStages = stages;
    barrier.dstAccess = access;
    barrier.oldLayout = isImage ? track.layout : VK_IMAGE_LAYOUT_UNDEFINED;
    barrier.newLayout = isImage ? layout : VK_IMAGE_LAYOUT_UNDEFINED;

    if (isWrite || transition) {
        // Writes and layout transitions (which write the image) wait for everything before them:
        // the last write (RAW/WAW) and every read since (WAR). When an earlier barrier already made
        // the last write available, and that barrier's destination stages are among the reads we
        // now wait on (so the dependency chains), an execution dependency is enough.
        const bool needed = track.writeStages != 0 || track.readStages != 0 || transition;
        if (needed) {
            barrier.srcStages = track.writeStages | track.readStages;
            const bool chained = track.writeAvailable && track.readStages != 0;
            barrier.srcAccess = chained ? VK_ACCESS_2_NONE : track.writeAccess;
        }
        if (isWrite) {
            track.writeStages = stages;
            track.writeAccess = writeAccessBits(access);
            track.writeAvailable = false;
            track.visible.clear();
            track.readStages = 0;
        } else {
            // A transition is a write the next accesses must be ordered after: chain through `stages`.
            track.writeStages |= stages;
            track.writeAvailable = true;
            track.visible.assign(1, StageAccess{stages, access});
            track.readStages = stages;
        }
        track.layout = isImage ? layout : VK_IMAGE_LAYOUT_UNDEFINED;
        track.hasContents = true;
        return needed;
    }

    // Read, same layout: only a write not yet visible to this stage and access needs a barrier;
    // read after read needs none. The barrier flushes the write again rather than relying on an
    // earlier flush, so it need not wait for unrelated readers in between.
    track.readStages |= stages;
    if (track.writeStages == 0 || isVisible(track, stages, access)) return false;
    barrier.srcStages = track.writeStages;
    barrier.srcAccess = track.writeAccess;
    track.visible.push_back(StageAccess{stages, access});
    track.writeAvailable = true;
    return true;
}

}  // namespace

Status Graph::compile(GraphResourceAllocator* allocator) { return compileWith(allocator, nullptr); }

Status Graph::compile(PersistentResources& slot) { return compileWith(nullptr, &slot); }

Status Graph::compileWith(GraphResourceAllocator* allocator, PersistentResources* slot) {
    compiled_ = false;
    finalBarriers_.clear();
    if (!declarationError_.ok()) return declarationError_;

    // A created resource starts where the slot's previous frame left it: buffers keep their
    // contents when persistent (or the host writes them), images are discarded (UNDEFINED).
    auto createdTrack = [&](bool isImage, const std::string& name, bool keepsContents) {
        Track track = slot ? importedTrack(slot->lastUse(isImage, name)) : Track{};
        track.hasContents = keepsContents;
        track.layout = VK_IMAGE_LAYOUT_UNDEFINED;
        return track;
    };
    std::vector<Track> bufferTracks(buffers_.size()), imageTracks(images_.size());
    for (size_t i = 0; i < buffers_.size(); ++i) {
        const BufferResource& buffer = buffers_[i];
        bufferTracks[i] = buffer.imported ? importedTrack(buffer.import.initial)
                                          : createdTrack(false, buffer.name, buffer.persistent || buffer.desc.hostWrite);
        buffers_[i].usage = buffer.imported ? 0 : buffer.desc.extraUsage;
    }
    for (size_t i = 0; i < images_.size(); ++i) {
        if (images_[i].imported) imageTracks[i] = importedTrack(images_[i].import.initial);
        else imageTracks[i] = createdTrack(true, images_[i].name, false);
        images_[i].usage = images_[i].imported ? 0 : images_[i].desc.extraUsage;
    }
    std::vector<bool> bufferUsed(buffers_.size(), false), imageUsed(images_.size(), false);

    for (Pass& pass : passes_) {
        pass.barriers.clear();
        for (const PassAccess& use : pass.accesses) {
            Track& track = use.isImage ? imageTracks[use.resource] : bufferTracks[use.resource];
            if (use.readsContents && !track.hasContents)
                return makeError(ErrorCode::InvalidArgument,
                                 "pass '" + pass.name + "' reads transient " + describeResource(use.isImage, use.resource) +
                                     " before any pass writes it");
            for (uint32_t kind = 0; kind < kAccessKindCount; ++kind) {
                if ((use.kinds & (1u << kind)) == 0) continue;
                const AccessInfo& info = accessInfo(Access(kind));
                if (use.isImage) images_[use.resource].usage |= info.imageUsage;
                else buffers_[use.resource].usage |= info.bufferUsage;
            }
            (use.isImage ? imageUsed : bufferUsed)[use.resource] = true;

            GraphBarrier barrier;
            barrier.isImage = use.isImage;
            barrier.resource = use.resource;
            if (applyAccess(track, use.stages, use.access, use.layout, use.isWrite, use.isImage, barrier))
                pass.barriers.push_back(barrier);
        }
    }

    // Hand imported resources back as declared: buffers first, then images, in import order.
    auto finish = [&](bool isImage, uint32_t index, const std::optional<SyncState>& final) {
        if (!final) return;
        Track& track = isImage ? imageTracks[index] : bufferTracks[index];
        GraphBarrier barrier;
        barrier.isImage = isImage;
        barrier.resource = index;
        const bool isWrite = writeAccessBits(final->access) != 0;
        const VkImageLayout layout = isImage ? final->layout : VK_IMAGE_LAYOUT_UNDEFINED;
        if (applyAccess(track, final->stages, final->access, layout, isWrite, isImage, barrier))
            finalBarriers_.push_back(barrier);
    };
    for (uint32_t i = 0; i < buffers_.size(); ++i)
        if (buffers_[i].imported) finish(false, i, buffers_[i].import.final);
    for (uint32_t i = 0; i < images_.size(); ++i)
        if (images_[i].imported) finish(true, i, images_[i].import.final);

    VKC_TRY(createResources(allocator, slot, bufferUsed, imageUsed));
    if (slot) {
        for (uint32_t i = 0; i < buffers_.size(); ++i)
            if (!buffers_[i].imported) slot->setLastUse(false, buffers_[i].name, lastUseOf(bufferTracks[i]));
        for (uint32_t i = 0; i < images_.size(); ++i)
            if (!images_[i].imported) slot->setLastUse(true, images_[i].name, lastUseOf(imageTracks[i]));
    }
    compiled_ = true;
    return Status::success();
}

// Created resources come last, once every access has contributed its usage flags. One no pass
// touches is not created (its handle resolves to VK_NULL_HANDLE).
Status Graph::createResources(GraphResourceAllocator* allocator, PersistentResources* slot,
                              const std::vector<bool>& bufferUsed, const std::vector<bool>& imageUsed) {
    auto failed = [](const char* what, const std::string& name, const Status& status) {
        return makeError(status.code, std::string("creating ") + what + " '" + name + "': " + status.message,
                         status.vkResult);
    };
    if (slot) {
        // The slot keys its objects by name: two resources of one graph must not share one.
        std::set<std::pair<bool, std::string>> names;
        for (const BufferResource& resource : buffers_)
            if (!resource.imported && !names.emplace(false, resource.name).second)
                return makeError(ErrorCode::InvalidArgument, "two created buffers are named '" + resource.name + "'");
        for (const ImageResource& resource : images_)
            if (!resource.imported && !names.emplace(true, resource.name).second)
                return makeError(ErrorCode::InvalidArgument, "two created images are named '" + resource.name + "'");
    }
    for (uint32_t i = 0; i < buffers_.size(); ++i) {
        BufferResource& resource = buffers_[i];
        if (resource.imported || !bufferUsed[i]) continue;
        if (slot) {
            auto use = slot->buffer(resource.name, resource.desc, resource.usage);
            if (!use) return failed("buffer", resource.name, use.status());
            resource.buffer = use->buffer.buffer;
            resource.mapped = use->buffer.mapped;
            resource.created = use->created;
        } else if (allocator && resource.buffer == VK_NULL_HANDLE) {
            auto created = allocator->createBuffer(resource.name.c_str(), resource.desc, resource.usage);
            if (!created) return failed("transient buffer", resource.name, created.status());
            resource.buffer = created->buffer;
            resource.mapped = created->mapped;
            resource.created = true;
        }
    }
    for (uint32_t i = 0; i < images_.size(); ++i) {
        ImageResource& resource = images_[i];
        if (resource.imported || !imageUsed[i]) continue;
        if (slot) {
            auto use = slot->image(resource.name, resource.desc, resource.usage);
            if (!use) return failed("image", resource.name, use.status());
            resource.object = use->image;
        } else if (allocator && resource.object.image == VK_NULL_HANDLE) {
            auto created = allocator->createImage(resource.name.c_str(), resource.desc, resource.usage);
            if (!created) return failed("transient image", resource.name, created.status());
            resource.object = created.value();
        }
    }
    return Status::success();
}

}  // namespace vkc
