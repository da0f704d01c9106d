// Graph::execute: records a compiled graph into the caller's command buffer. Per pass: debug
// label begin (when VK_EXT_debug_utils functions are given), the pass's barriers in one
// vkCmdPipelineBarrier2, a start timestamp, the record callback, an end timestamp, label end;
// then the final barriers, and the GPU's copy of the timestamps for the host when asked for.
// Only the device table passed in is called, never volk's globals.
#include "passes/graph/graph.h"
#include "vk/image.h"

#include <volk.h>

namespace vkc {
namespace {

// Aspect for barriers when the description leaves it 0: from the format.
VkImageAspectFlags aspectOf(const GraphImageDesc& desc) {
    return desc.aspect != 0 ? desc.aspect : formatAspect(desc.format);
}

// One barrier on the first `bytes` of `buffer`, from (ALL_TRANSFER, TRANSFER_WRITE) to `dstStages`/`dstAccess`.
void transferWriteBarrier(const VolkDeviceTable& device, VkCommandBuffer cmd, VkBuffer buffer, VkDeviceSize bytes,
                          VkPipelineStageFlags2 dstStages, VkAccessFlags2 dstAccess) {
    VkBufferMemoryBarrier2 barrier{};
    barrier.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2;
    barrier.srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;
    barrier.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    barrier.dstStageMask = dstStages;
    barrier.dstAccessMask = dstAccess;
    barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.buffer = buffer;
    barrier.size = bytes;
    VkDependencyInfo dependency{};
    dependency.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO;
    dependency.bufferMemoryBarrierCount = 1;
    dependency.pBufferMemoryBarriers = &barrier;
    device.vkCmdPipelineBarrier2(cmd, &dependency);
}

// The pass timestamps into the host-visible results buffer, on the GPU: WAIT makes the copy wait
// for each query there, in order after its write; the host never calls vkGetQueryPoolResults (which
// blocks for tens of ms inside a call that reports the results ready on lavapipe). The first
// barrier orders the copy after the slot's previous frame's copy into the same buffer, the second
// makes the values host-readable by the time the submit signals.
void copyTimestampsForHost(const VolkDeviceTable& device, VkCommandBuffer cmd, const ExecuteContext& context,
                           uint32_t queries) {
    const VkDeviceSize bytes = VkDeviceSize(queries) * sizeof(uint64_t);
    transferWriteBarrier(device, cmd, context.timestampResults, bytes, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                         VK_ACCESS_2_TRANSFER_WRITE_BIT);
    device.vkCmdCopyQueryPoolResults(cmd, context.timestampPool, context.firstQuery, queries, context.timestampResults,
                                     0, sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    transferWriteBarrier(device, cmd, context.timestampResults, bytes, VK_PIPELINE_STAGE_2_HOST_BIT,
                         VK_ACCESS_2_HOST_READ_BIT);
}

}  // namespace

Status Graph::execute(VkCommandBuffer cmd, const ExecuteContext& context) const {
    if (!compiled_) return makeError(ErrorCode::InvalidArgument, "render graph executed before a successful compile()");
    const VolkDeviceTable* device = context.device;
    if (device == nullptr || device->vkCmdPipelineBarrier2 == nullptr)
        return makeError(ErrorCode::InvalidArgument,
                         "ExecuteContext needs a device table with vkCmdPipelineBarrier2 (Vulkan 1.3 or synchronization2)");
    const bool timestamps = context.timestampPool != VK_NULL_HANDLE;
    if (timestamps && (device->vkCmdWriteTimestamp2 == nullptr ||
                       (context.resetQueries && device->vkCmdResetQueryPool == nullptr)))
        return makeError(ErrorCode::InvalidArgument,
                         "ExecuteContext has a timestamp pool but no vkCmdWriteTimestamp2/vkCmdResetQueryPool");
    const bool copyTimestamps = timestamps && context.timestampResults != VK_NULL_HANDLE && !passes_.empty();
    if (copyTimestamps && device->vkCmdCopyQueryPoolResults == nullptr)
        return makeError(ErrorCode::InvalidArgument,
                         "ExecuteContext has a timestamp results buffer but no vkCmdCopyQueryPoolResults");
    const bool labels = context.beginLabel != nullptr && context.endLabel != nullptr;

    // Scratch arrays reused across passes: one allocation per execute, not per pass.
    std::vector<VkBufferMemoryBarrier2> bufferBarriers;
    std::vector<VkImageMemoryBarrier2> imageBarriers;
    auto recordBarriers = [&](std::span<const GraphBarrier> barriers) {
        if (barriers.empty()) return;
        bufferBarriers.clear();
        imageBarriers.clear();
        for (const GraphBarrier& barrier : barriers) {
            if (barrier.isImage) {
                const ImageResource& image = images_[barrier.resource];
                VkImageMemoryBarrier2 vk{};
                vk.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2;
                vk.srcStageMask = barrier.srcStages;
                vk.srcAccessMask = barrier.srcAccess;
                vk.dstStageMask = barrier.dstStages;
                vk.dstAccessMask = barrier.dstAccess;
                vk.oldLayout = barrier.oldLayout;
                vk.newLayout = barrier.newLayout;
                vk.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
                vk.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
                vk.image = image.object.image;
                vk.subresourceRange = {aspectOf(image.desc), 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};
                imageBarriers.push_back(vk);
            } else {
                const BufferResource& buffer = buffers_[barrier.resource];
                VkBufferMemoryBarrier2 vk{};
                vk.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2;
                vk.srcStageMask = barrier.srcStages;
                vk.srcAccessMask = barrier.srcAccess;
                vk.dstStageMask = barrier.dstStages;
                vk.dstAccessMask = barrier.dstAccess;
                vk.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
                vk.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
                vk.buffer = buffer.buffer;
                vk.offset = buffer.imported ? buffer.import.offset : 0;
                vk.size = buffer.imported ? buffer.import.size : VK_WHOLE_SIZE;
                bufferBarriers.push_back(vk);
            }
        }
        VkDependencyInfo dependency{};
        dependency.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO;
        dependency.bufferMemoryBarrierCount = uint32_t(bufferBarriers.size());
        dependency.pBufferMemoryBarriers = bufferBarriers.data();
        dependency.imageMemoryBarrierCount = uint32_t(imageBarriers.size());
        dependency.pImageMemoryBarriers = imageBarriers.data();
        device->vkCmdPipelineBarrier2(cmd, &dependency);
    };

    if (timestamps && context.resetQueries && !passes_.empty())
        device->vkCmdResetQueryPool(cmd, context.timestampPool, context.firstQuery, timestampQueryCount());

    const PassResources resources(*this, device);
    for (uint32_t p = 0; p < passes_.size(); ++p) {
        const Pass& pass = passes_[p];
        // The label encloses the barriers too, so a capture shows each pass's waits under its name.
        if (labels) {
            VkDebugUtilsLabelEXT label{};
            label.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT;
            label.pLabelName = pass.name.c_str();
            context.beginLabel(cmd, &label);
        }
        recordBarriers(pass.barriers);
        // ALL_COMMANDS: the start is written once earlier work drains, so a pass is not charged
        // for its predecessors' tail; the end once this pass's own work has finished.
        if (timestamps)
            device->vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, context.timestampPool,
                                         context.firstQuery + 2 * p);
        if (pass.record) pass.record(cmd, resources);
        if (timestamps)
            device->vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, context.timestampPool,
                                         context.firstQuery + 2 * p + 1);
        if (labels) context.endLabel(cmd);
    }
    recordBarriers(finalBarriers_);
    if (copyTimestamps) copyTimestampsForHost(*device, cmd, context, timestampQueryCount());
    return Status::success();
}

}  // namespace vkc
