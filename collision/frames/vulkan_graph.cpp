// Graph execution on a VulkanContext; see vulkan_graph.h.
#include "collision/frames/vulkan_graph.h"

#include "vk/descriptors.h"

#include <vector>

namespace vkc {

VulkanGraphAllocator::~VulkanGraphAllocator() {
    for (auto& [handle, buffer] : buffers_) vkc::destroyBuffer(ctx_, buffer);
    for (auto& [handle, image] : images_) vkc::destroyImage(ctx_, image);
    for (auto& [handle, pool] : queryPools_) destroyQueryPool(ctx_, pool);
}

Result<GraphBuffer> VulkanGraphAllocator::createBuffer(const char* name, const GraphBufferDesc& desc,
                                                       VkBufferUsageFlags usage) {
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

Result<VkQueryPool> VulkanGraphAllocator::createTimestampPool(const char* name, uint32_t queries) {
    auto pool = createQueryPool(ctx_, VK_QUERY_TYPE_TIMESTAMP, queries, name);
    if (!pool) return pool.status();
    queryPools_.emplace(pool->pool, pool.value());
    return pool->pool;
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

void VulkanGraphAllocator::destroyTimestampPool(VkQueryPool pool) {
    auto it = queryPools_.find(pool);
    if (it == queryPools_.end()) return;
    destroyQueryPool(ctx_, it->second);
    queryPools_.erase(it);
}

Status VulkanGraphAllocator::flush(VkBuffer buffer) {
    auto it = buffers_.find(buffer);
    return it == buffers_.end() ? Status::success() : flushBuffer(ctx_, it->second);
}

VkBuffer GraphDescriptors::buffer(BufferHandle buffer) const {
    return boundThisFrame(buffer) ? graph_.buffer(buffer) : placeholder_;
}

bool GraphDescriptors::boundThisFrame(BufferHandle buffer) const {
    return graph_.buffer(buffer) != VK_NULL_HANDLE &&
           (graph_.bufferUsage(buffer) & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) != 0;
}

void GraphDescriptors::storageBuffer(VkDescriptorSet set, uint32_t binding, BufferHandle handle, VkDescriptorType type,
                                     VkDeviceSize range) const {
    writeBufferDescriptor(ctx_, set, binding, type, buffer(handle), 0, boundThisFrame(handle) ? range : VK_WHOLE_SIZE);
}

void GraphDescriptors::storageImage(VkDescriptorSet set, uint32_t binding, ImageHandle image) const {
    if (graph_.imageView(image) != VK_NULL_HANDLE) writeStorageImageDescriptor(ctx_, set, binding, graph_.imageView(image));
}

Result<ExecuteContext> graphExecuteContext(const VulkanContext& ctx, const Graph& graph, PersistentResources& slot) {
    ExecuteContext context;
    context.device = &ctx.vkd;
    if (ctx.hasDebugUtils) {
        context.beginLabel = ctx.vki.vkCmdBeginDebugUtilsLabelEXT;
        context.endLabel = ctx.vki.vkCmdEndDebugUtilsLabelEXT;
    }
    // Devices whose queue cannot time (timestampValidBits 0) simply report no GPU timings.
    if (ctx.timestampValidBits != 0 && graph.timestampQueryCount() != 0) {
        auto pool = slot.timestampPool(graph.timestampQueryCount());
        if (!pool) return pool.status();
        context.timestampPool = pool.value();
    }
    return context;
}

Status readPassTimings(const VulkanContext& ctx, const Graph& graph, PersistentResources& slot,
                       std::map<std::string, double>& out) {
    if (ctx.timestampValidBits == 0 || graph.timestampQueryCount() == 0) return Status::success();
    auto pool = slot.timestampPool(graph.timestampQueryCount());
    if (!pool) return pool.status();
    const QueryPool timestamps{pool.value(), VK_QUERY_TYPE_TIMESTAMP, graph.timestampQueryCount()};
    std::vector<uint64_t> ticks(graph.timestampQueryCount());
    VKC_TRY(readQueries(ctx, timestamps, 0, uint32_t(ticks.size()), ticks, QueryWait::No));
    for (const PassTiming& timing : graph.passTimings(ticks, ctx.timestampPeriod))
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
