// The resources one frame slot's graphs create, kept across the slot's frames (frame N and frame
// N + framesInFlight share a slot; the host reuses a slot only once its last frame completed).
// Graph::compile(PersistentResources&) asks here, by resource name, for each buffer and image it
// creates: the object of the slot's previous frame when it still fits (size, extent, format, usage
// flags derived from this frame's accesses), else a new one; and the state that frame's last access
// left it in, which compile() remembers here again for the next frame. It also holds the slot's
// timestamps (query pool and host-visible copy), sized to the graph's passes. Everything is
// destroyed with the object.
#pragma once

#include "passes/graph/graph_resources.h"

#include <map>
#include <string>

namespace vkc {

class PersistentResources {
public:
    // `slotIndex` suffixes every debug name ("pairs [frame slot 1]") so validation messages and
    // captures tell the slots apart. The allocator must outlive this object.
    PersistentResources(GraphResourceAllocator& allocator, uint32_t slotIndex);
    ~PersistentResources();
    PersistentResources(const PersistentResources&) = delete;
    PersistentResources& operator=(const PersistentResources&) = delete;

    // For Graph::compile. `created` tells whether the object is new this frame (contents undefined).
    struct BufferUse {
        GraphBuffer buffer;
        bool created = false;
    };
    struct ImageUse {
        GraphImage image;
        bool created = false;
    };
    Result<BufferUse> buffer(const std::string& name, const GraphBufferDesc& desc, VkBufferUsageFlags usage);
    Result<ImageUse> image(const std::string& name, const GraphImageDesc& desc, VkImageUsageFlags usage);
    // The state the named resource's last access in the slot's previous frame left it in (NONE
    // when the slot never had it), and the setter compile() calls for the next frame.
    SyncState lastUse(bool isImage, const std::string& name) const;
    void setLastUse(bool isImage, const std::string& name, const SyncState& state);

    // Timestamps for at least `queries` queries (grown when a graph has more passes).
    Result<GraphTimestamps> timestamps(uint32_t queries);
    // The timestamps the slot holds now; a null pool when no frame of the slot asked for any.
    const GraphTimestamps& currentTimestamps() const { return timestamps_; }

private:
    struct BufferEntry {
        GraphBuffer buffer;
        GraphBufferDesc desc;
        VkBufferUsageFlags usage = 0;
        SyncState lastUse;
    };
    struct ImageEntry {
        GraphImage image;
        GraphImageDesc desc;
        VkImageUsageFlags usage = 0;
        SyncState lastUse;
    };
    std::string named(const std::string& name) const { return name + suffix_; }

    GraphResourceAllocator& allocator_;
    std::string suffix_;
    std::map<std::string, BufferEntry> buffers_;
    std::map<std::string, ImageEntry> images_;
    GraphTimestamps timestamps_;
};

}  // namespace vkc
