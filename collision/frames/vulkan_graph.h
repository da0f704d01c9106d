// How a method runs its render graph on a VulkanContext: the allocator that creates the graph's
// resources with vk/ memory, the ExecuteContext with the device table, debug-utils labels (when
// enabled) and the frame slot's timestamps, and the pass timings read from the GPU's copy of them.
#pragma once

#include "passes/graph/graph.h"
#include "vk/buffer.h"
#include "vk/image.h"
#include "vk/context.h"
#include "vk/query_pool.h"
#include "vk/readback_ring.h"

#include <cstring>
#include <map>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace vkc {

// Creates graph resources on `ctx`: device-local, or host-visible upload memory for hostWrite
// buffers; images with a view of every layer. Owns nothing until PersistentResources says.
class VulkanGraphAllocator : public GraphResourceAllocator {
public:
    explicit VulkanGraphAllocator(VulkanContext& ctx) : ctx_(ctx) {}
    ~VulkanGraphAllocator() override;  // whatever was not destroyed yet
    Result<GraphBuffer> createBuffer(const char* name, const GraphBufferDesc& desc, VkBufferUsageFlags usage) override;
    Result<GraphImage> createImage(const char* name, const GraphImageDesc& desc, VkImageUsageFlags usage) override;
    // A timestamp pool and its results buffer, in read-back memory like the ring.
    Result<GraphTimestamps> createTimestamps(const char* name, uint32_t queries) override;
    void destroyBuffer(const GraphBuffer& buffer) override;
    void destroyImage(const GraphImage& image) override;
    void destroyTimestamps(const GraphTimestamps& timestamps) override;
    // Makes the host's writes to a hostWrite buffer visible to the device (non-coherent memory).
    Status flush(VkBuffer buffer);
    // Makes the device's writes to a timestamp results buffer visible to the host (non-coherent memory).
    Status invalidateTimestamps(const GraphTimestamps& timestamps);

private:
    VulkanContext& ctx_;
    std::unordered_map<VkBuffer, Buffer> buffers_;
    std::unordered_map<VkImage, Image> images_;
    struct Timestamps {
        QueryPool pool;
        Buffer results;
    };
    std::unordered_map<VkQueryPool, Timestamps> timestamps_;
};

// Copies `data` into the hostWrite buffer `buffer` of the compiled `graph` and flushes it; nothing
// when no pass of the frame touches the buffer (the graph did not create it).
template <class T>
Status fillHostBuffer(VulkanGraphAllocator& allocator, const Graph& graph, BufferHandle buffer, std::span<const T> data) {
    if (graph.buffer(buffer) == VK_NULL_HANDLE) return Status::success();
    if (!data.empty()) std::memcpy(graph.mapped(buffer), data.data(), data.size_bytes());
    return allocator.flush(graph.buffer(buffer));
}

// Points a frame's descriptor sets at the compiled graph's resources (the slot is idle, so its sets
// may be rewritten). A buffer no pass of this frame declares as a storage buffer (not created, or
// only cleared and copied) gets `placeholder` (16 bytes, never read), and an image no pass touches
// keeps its binding: no pass that would read them through the set records this frame.
class GraphDescriptors {
public:
    GraphDescriptors(const VulkanContext& ctx, const Graph& graph, VkBuffer placeholder)
        : ctx_(ctx), graph_(graph), placeholder_(placeholder) {}
    void storageBuffer(VkDescriptorSet set, uint32_t binding, BufferHandle buffer,
                       VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VkDeviceSize range = VK_WHOLE_SIZE) const;
    void storageImage(VkDescriptorSet set, uint32_t binding, ImageHandle image) const;
    VkBuffer buffer(BufferHandle buffer) const;  // the placeholder when not bound this frame

private:
    bool boundThisFrame(BufferHandle buffer) const;
    const VulkanContext& ctx_;
    const Graph& graph_;
    VkBuffer placeholder_;
};

// `graph` on `ctx`; with `gpuTimings` (and a queue that can time) `slot`'s timestamps, sized to the
// graph's passes, which execute() copies into host memory on the GPU after the last pass.
Result<ExecuteContext> graphExecuteContext(const VulkanContext& ctx, const Graph& graph, PersistentResources& slot,
                                           bool gpuTimings);

// Adds the per-pass GPU milliseconds of `graph`'s frame, by pass name, from `slot`'s copy of its
// timestamps: plain memory, never a call into the driver. Call once the frame's signal arrived;
// adds nothing when the frame recorded no timestamps.
Status readPassTimings(const VulkanContext& ctx, VulkanGraphAllocator& allocator, const Graph& graph,
                       const PersistentResources& slot, std::map<std::string, double>& out);

// Mesh vertex buffers (ours or the host's, read in place): any earlier command may have written
// them, so the graph waits for all writes.
std::vector<BufferHandle> importVertexBuffers(Graph& graph, std::span<const VkBuffer> buffers);

// `frame`'s slot of a read-back ring; the graph's final barrier makes the slot host-visible.
BufferHandle importReadbackSlot(Graph& graph, std::string name, const ReadbackRing& ring, uint64_t frame);

}  // namespace vkc
