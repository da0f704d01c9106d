// Graph execution on a VulkanContext; see vulkan_graph.h.
#include "collision/frames/vulkan_graph.h"

#include "vk/descriptors.h"

#include <vector>

namespace vkc {

VulkanGraphAllocator::~VulkanGraphAllocator() {
    for (auto& [handle, buffer] : buffers_) vkc::destroyBuffer(ctx_, buffer);
    for (auto& [handle, image] : images_) vkc::destroyImage(ctx_, image);
    for (auto& [handle, timestamps] : timestamps_) {
        destroyQueryPool(ctx_, timestamps.pool);
        vkc::destroyBuffer(ctx_, timestamps.results);
    }
}

Result<GraphBuffer> VulkanGraphAllocator::createBuffer(const char* name, const GraphBufferDesc& desc,
                                                       VkBufferUsageFlags usage) {
    // Every storage buffer of a frame is bound whole: one larger than a binding reaches (meshes
    // too large for the device: their indices, trees, topology) is refused here, naming it, rather
    // than bound past the limit.
    const VkDeviceSize bindingLimit = storageBindingLimit(ctx_);
    if ((usage & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) && desc.size > bindingLimit)
        return makeError(ErrorCode::Unsupported,
                         std::to_string(desc.size) + " bytes, above the " +
                             std::to_string(bindingLimit) +
                             " bytes one storage-buffer binding reaches on this device (maxStorageBufferRange, at most "
                             "2^32 - 1): use fewer or smaller meshes, or lower the settings that size it");
    const MemoryUsage memory = desc.hostWrite ? MemoryUsage::Upload : MemoryUsage::DeviceLocal;
    auto buffer = vkc::createBuffer(ctx_, {desc.size, usage, memory, name});
    if (!buffer) return buffer.status();
    buffers_.emplace(buffer->buffer, buffer.value());
    return GraphBuffer{buffer->buffer, buffer->data};
}

Result<GraphImage> VulkanGraphAllocator::createImage(const char* name, const GraphImageDesc& desc,
                                                     VkImageUsageFlags usage) {
    auto image = vkc::createImage(ctx_, {desc.width, desc.height, desc.format, usage, desc.layers, name});
    if (!image) return image.status();
    images_.emplace(image->image, image.value());
    return GraphImage{image->image, image->view};
}

Result<GraphTimestamps> VulkanGraphAllocator::createTimestamps(const char* name, uint32_t queries) {
    auto pool = createQueryPool(ctx_, VK_QUERY_TYPE_TIMESTAMP, queries, name);
    if (!pool) return pool.status();
    const std::string resultsName = std::string(name) + " results";
    auto results = vkc::createBuffer(ctx_, {VkDeviceSize(queries) * sizeof(uint64_t), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                            MemoryUsage::Readback, resultsName.c_str()});
    if (!results) {
        destroyQueryPool(ctx_, pool.value());
        return results.status();
    }
    timestamps_.emplace(pool->pool, Timestamps{pool.value(), results.value()});
    return GraphTimestamps{pool->pool, results->buffer, results->data, queries};
}

void VulkanGraphAllocator::destroyBuffer(const GraphBuffer& buffer) {
    auto it = buffers_.find(buffer.buffer);
    if (it == buffers_.end()) return;
    vkc::destroyBuffer(ctx_, it->second);
    buffers_.erase(it);
}

void VulkanGraphAllocator::destroyImage(const GraphImage& image) {
    auto it = images_.find(image.image);
    if (it == images_.end()) return;
    vkc::destroyImage(ctx_, it->second);
    images_.erase(it);
}

void VulkanGraphAllocator::destroyTimestamps(const GraphTimestamps& timestamps) {
    auto it = timestamps_.find(timestamps.pool);
    if (it == timestamps_.end()) return;
    destroyQueryPool(ctx_, it->second.pool);
    vkc::destroyBuffer(ctx_, it->second.results);
    timestamps_.erase(it);
}

Status VulkanGraphAllocator::flush(VkBuffer buffer) {
    auto it = buffers_.find(buffer);
    return it == buffers_.end() ? Status::success() : flushBuffer(ctx_, it->second);
}

Status VulkanGraphAllocator::invalidateTimestamps(const GraphTimestamps& timestamps) {
    auto it = timestamps_.find(timestamps.pool);
    return it == timestamps_.end() ? Status::success() : invalidateBuffer(ctx_, it->second.results);
}

VkBuffer GraphDescriptors::buffer(BufferHandle buffer) const {
    return boundThisFrame(buffer) ? graph_.buffer(buffer) : placeholder_;
}

bool GraphDescriptors::boundThisFrame(BufferHandle buffer) const {
    return buffer.valid() && graph_.buffer(buffer) != VK_NULL_HANDLE &&
           (graph_.bufferUsage(buffer) & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) != 0;
}

void GraphDescriptors::storageBuffer(VkDescriptorSet set, uint32_t binding, BufferHandle handle, VkDescriptorType type,
                                     VkDeviceSize range) const {
    writeBufferDescriptor(ctx_, set, binding, type, buffer(handle), 0, boundThisFrame(handle) ? range : VK_WHOLE_SIZE);
}

void GraphDescriptors::storageImage(VkDescriptorSet set, uint32_t binding, ImageHandle image) const {
    if (graph_.imageView(image) != VK_NULL_HANDLE) writeStorageImageDescriptor(ctx_, set, binding, graph_.imageView(image));
}

Result<ExecuteContext> graphExecuteContext(const VulkanContext& ctx, const Graph& graph, PersistentResources& slot,
                                           bool gpuTimings) {
    ExecuteContext context;
    context.device = &ctx.vkd;
    if (ctx.hasDebugUtils) {
        context.beginLabel = ctx.vki.vkCmdBeginDebugUtilsLabelEXT;
        context.endLabel = ctx.vki.vkCmdEndDebugUtilsLabelEXT;
    }
    // Devices whose queue cannot time (timestampValidBits 0) simply report no GPU timings.
    if (gpuTimings && ctx.timestampValidBits != 0 && graph.timestampQueryCount() != 0) {
        auto timestamps = slot.timestamps(graph.timestampQueryCount());
        if (!timestamps) return timestamps.status();
        context.timestampPool = timestamps->pool;
        context.timestampResults = timestamps->results;
    }
    return context;
}

Status readPassTimings(const VulkanContext& ctx, VulkanGraphAllocator& allocator, const Graph& graph,
                       const PersistentResources& slot, std::map<std::string, double>& out) {
    const GraphTimestamps& timestamps = slot.currentTimestamps();
    // No pool (timings off, or a queue that cannot time) or one too small: this graph wrote none.
    if (timestamps.pool == VK_NULL_HANDLE || timestamps.queries < graph.timestampQueryCount()) return Status::success();
    VKC_TRY(allocator.invalidateTimestamps(timestamps));
    const std::span<const uint64_t> ticks(static_cast<const uint64_t*>(timestamps.mapped), graph.timestampQueryCount());
    for (const PassTiming& timing : graph.passTimings(ticks, ctx.timestampPeriod, ctx.timestampValidBits))
        out[timing.name] += timing.milliseconds;
    return Status::success();
}

std::vector<BufferHandle> importVertexBuffers(Graph& graph, std::span<const VkBuffer> buffers) {
    std::vector<BufferHandle> handles;
    for (VkBuffer buffer : buffers) {
        ImportedBuffer imported;
        imported.buffer = buffer;
        imported.initial = {VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT};
        handles.push_back(graph.importBuffer("mesh vertices", imported));
    }
    return handles;
}

BufferHandle importReadbackSlot(Graph& graph, std::string name, const ReadbackRing& ring, uint64_t frame) {
    RingSlot range = ringSlot(ring, frame);
    ImportedBuffer slot;
    slot.buffer = range.buffer;
    slot.offset = range.offset;
    slot.size = ring.slotStride;
    slot.initial = syncStateOf(Access::HostRead);
    slot.final = syncStateOf(Access::HostRead);
    return graph.importBuffer(std::move(name), slot);
}

}  // namespace vkc
