// Graph execution on a VulkanContext; see graph_execution.h.
#include "collision/graph_execution.h"

#include <vector>

namespace vkc {

ExecuteContext graphExecuteContext(const VulkanContext& ctx, const QueryPool& timestamps) {
    ExecuteContext context;
    context.device = &ctx.vkd;
    if (ctx.hasDebugUtils) {
        context.beginLabel = ctx.vki.vkCmdBeginDebugUtilsLabelEXT;
        context.endLabel = ctx.vki.vkCmdEndDebugUtilsLabelEXT;
    }
    // Devices whose queue cannot time (timestampValidBits 0) simply report no GPU timings.
    if (ctx.timestampValidBits != 0) context.timestampPool = timestamps.pool;
    return context;
}

Status readPassTimings(const VulkanContext& ctx, const Graph& graph, const QueryPool& timestamps,
                       std::map<std::string, double>& out) {
    if (ctx.timestampValidBits == 0) return Status::success();
    std::vector<uint64_t> ticks(graph.timestampQueryCount());
    VKC_TRY(readQueries(ctx, timestamps, 0, uint32_t(ticks.size()), ticks, QueryWait::No));
    for (const PassTiming& timing : graph.passTimings(ticks, ctx.timestampPeriod))
        out[timing.name] += timing.milliseconds;
    return Status::success();
}

BufferHandle importPersistentBuffer(Graph& graph, std::string name, const Buffer& buffer, SyncState lastUse) {
    ImportedBuffer imported;
    imported.buffer = buffer.buffer;
    imported.size = buffer.size;
    imported.initial = lastUse;
    return graph.importBuffer(std::move(name), imported);
}

ImageHandle importPersistentImage(Graph& graph, std::string name, const Image& image, Access lastUse) {
    ImportedImage imported;
    imported.image = image.image;
    imported.view = image.view;
    imported.desc.width = image.extent.width;
    imported.desc.height = image.extent.height;
    imported.desc.format = image.format;
    imported.desc.aspect = image.aspect;
    // The next frame waits for the last use and discards the contents.
    imported.initial = syncStateOf(lastUse);
    imported.initial.access = writeAccessBits(imported.initial.access);
    imported.initial.layout = VK_IMAGE_LAYOUT_UNDEFINED;
    return graph.importImage(std::move(name), imported);
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
