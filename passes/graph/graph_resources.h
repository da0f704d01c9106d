// Resources of the render graph: typed, versioned handles, descriptions of transient resources,
// imported (host-owned) resources with the state the host leaves them in and wants back, and the
// allocator interface through which the graph creates transients without depending on vk/ memory
// code. A handle names one version of one resource; every write produces the next version.
#pragma once

#include "passes/graph/access_kind.h"
#include "vkcollide/status.h"

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <optional>

namespace vkc {

inline constexpr uint32_t kInvalidGraphIndex = UINT32_MAX;

// One version of a buffer in a graph. Default-constructed handles are invalid.
struct BufferHandle {
    uint32_t index = kInvalidGraphIndex;  // resource slot in the graph
    uint32_t version = 0;                 // 0 = contents before any pass wrote it
    bool valid() const { return index != kInvalidGraphIndex; }
    friend bool operator==(const BufferHandle&, const BufferHandle&) = default;
};

// One version of an image in a graph. Default-constructed handles are invalid.
struct ImageHandle {
    uint32_t index = kInvalidGraphIndex;
    uint32_t version = 0;
    bool valid() const { return index != kInvalidGraphIndex; }
    friend bool operator==(const ImageHandle&, const ImageHandle&) = default;
};

// A buffer the graph creates. Usage flags are derived from the accesses passes declare.
struct GraphBufferDesc {
    VkDeviceSize size = 0;                // bytes, > 0
    VkBufferUsageFlags extraUsage = 0;    // added to the derived usage (e.g. for a later host-side copy)
    // Mapped, host-visible memory the host fills between compile() and the submit (Graph::mapped):
    // its contents count as written before the first pass, and the submit makes them visible.
    bool hostWrite = false;
};

// An image the graph creates; zero means default where noted.
struct GraphImageDesc {
    uint32_t width = 0;                   // texels, > 0
    uint32_t height = 0;                  // texels, > 0
    VkFormat format = VK_FORMAT_UNDEFINED;
    uint32_t layers = 1;                  // array layers, >= 1
    uint32_t mipLevels = 1;               // >= 1
    VkImageAspectFlags aspect = 0;        // 0 = derived from the format (depth/stencil or colour)
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
    VkImageUsageFlags extraUsage = 0;     // added to the derived usage
};

// A host-owned buffer used in place (vertex buffers, a read-back ring slot). The graph never
// creates or destroys it; it only synchronises against `initial` and leaves it in `final`.
struct ImportedBuffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;              // bytes; barriers and PassResources cover [offset, offset+size)
    VkDeviceSize size = VK_WHOLE_SIZE;
    SyncState initial;                    // last use by the host before the graph (NONE = nothing pending)
    std::optional<SyncState> final;       // next use by the host after the graph; empty = no final barrier
};

// A host-owned image used in place. `initial.layout` is the layout the host leaves it in.
struct ImportedImage {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;    // optional; what PassResources::imageView returns
    GraphImageDesc desc;                  // extent/format/layers/aspect of the whole image
    SyncState initial;
    std::optional<SyncState> final;       // final->layout is the layout the host gets it back in
};

// A buffer the allocator created; `mapped` is non-null exactly for hostWrite buffers.
struct GraphBuffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    void* mapped = nullptr;
};

// An image the allocator created. The view covers the whole image (all layers/levels).
struct GraphImage {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
};

// One frame slot's pass timestamps: the query pool execute() writes, and the host-visible buffer it
// copies their 64-bit values into on the GPU after the last pass, so that the host reads them as
// plain memory once the frame's signal arrived instead of asking the driver for query results.
struct GraphTimestamps {
    VkQueryPool pool = VK_NULL_HANDLE;
    VkBuffer results = VK_NULL_HANDLE;  // `queries` uint64_t, in query order
    const void* mapped = nullptr;       // the results, mapped (invalidate before reading)
    uint32_t queries = 0;
};

// Creates (and destroys) the resources a graph creates, and timestamp queries, without the
// graph depending on vk/ memory code. Graph::compile(allocator) never destroys what it is given;
// FrameSlotResources (passes/frame_slot_resources.h) keeps them across frames and destroys them.
// `name` is for debug names and error messages.
class GraphResourceAllocator {
public:
    virtual ~GraphResourceAllocator() = default;
    virtual Result<GraphBuffer> createBuffer(const char* name, const GraphBufferDesc& desc, VkBufferUsageFlags usage) = 0;
    virtual Result<GraphImage> createImage(const char* name, const GraphImageDesc& desc, VkImageUsageFlags usage) = 0;
    virtual Result<GraphTimestamps> createTimestamps(const char* name, uint32_t queries) = 0;
    // Each is called once per object, after the last frame that used it has completed.
    virtual void destroyBuffer(const GraphBuffer& buffer) = 0;
    virtual void destroyImage(const GraphImage& image) = 0;
    virtual void destroyTimestamps(const GraphTimestamps& timestamps) = 0;
};

}  // namespace vkc
