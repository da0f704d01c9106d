// What a method reads back per frame, declared once: regions of a read-back ring slot, each the
// head of one graph buffer, or the results of a range of queries, copied there by the frame's one
// read-back pass. The layout sizes the ring slot and gives every region its offset, so the pass
// that copies and the decoder that reads the mapped slot cannot disagree: the decoder asks for a
// typed span of a region. Query results come through the GPU's copy too: results() reads memory
// and never asks the driver (vkGetQueryPoolResults may block even for available queries).
#pragma once

#include "passes/graph/graph.h"

#include <cassert>
#include <cstring>
#include <span>
#include <vector>

namespace vkc {

class ReadbackLayout {
public:
    // Appends a region of at most `maxBytes` (16-byte aligned offsets); returns its index.
    uint32_t add(VkDeviceSize maxBytes);
    VkDeviceSize offset(uint32_t region) const { return regions_[region].offset; }
    VkDeviceSize maxBytes(uint32_t region) const { return regions_[region].maxBytes; }
    VkDeviceSize slotBytes() const;  // the ring slot size: every region at its largest

    // `count` values of type T at the start of `region` in a mapped slot (`slot` = its first byte).
    template <class T>
    std::span<const T> span(const void* slot, uint32_t region, size_t count) const {
        assert(count * sizeof(T) <= maxBytes(region));
        return {reinterpret_cast<const T*>(static_cast<const char*>(slot) + offset(region)), count};
    }
    // The first byte of `region` in a mapped slot.
    const char* bytes(const void* slot, uint32_t region) const {
        return static_cast<const char*>(slot) + offset(region);
    }
    // One T at the start of `region` (copied: the slot need not be aligned for T).
    template <class T>
    T value(const void* slot, uint32_t region) const {
        assert(sizeof(T) <= maxBytes(region));
        T out;
        std::memcpy(&out, static_cast<const char*>(slot) + offset(region), sizeof(T));
        return out;
    }

private:
    struct Region {
        VkDeviceSize offset = 0;
        VkDeviceSize maxBytes = 0;
    };
    std::vector<Region> regions_;
};

// One region's copy in a frame: the first `bytes` of `source` (at most the region's maxBytes).
struct ReadbackCopy {
    uint32_t region = 0;
    BufferHandle source;
    VkDeviceSize bytes = 0;
};

// One region's copy of queries [first, first + count) of `pool`: one uint64_t each, in query order
// (at most the region's maxBytes). Every query of the range must be written earlier in the frame:
// the copy waits on the GPU until each is available.
struct ReadbackQueries {
    uint32_t region = 0;
    VkQueryPool pool = VK_NULL_HANDLE;
    uint32_t first = 0;
    uint32_t count = 0;
};

// The frame's read-back pass `name`: copies each region into `slot` (the frame's imported ring
// slot). A copy of 0 bytes (0 queries) declares and records nothing, so its source need not exist
// this frame.
void addReadbackPass(Graph& graph, const char* name, const ReadbackLayout& layout, BufferHandle slot,
                     std::span<const ReadbackCopy> copies, std::span<const ReadbackQueries> queries = {});

}  // namespace vkc
