// Query pools and their reads.
#include "vk/query_pool.h"

#include "vk/debug.h"

#include <bit>
#include <string>

namespace vkc {

Result<QueryPool> createQueryPool(VulkanContext& ctx, VkQueryType type, uint32_t count, const char* name,
                                  VkQueryPipelineStatisticFlags statistics) {
    std::string poolName = name ? name : "unnamed query pool";
    if (count == 0) return makeError(ErrorCode::InvalidArgument, "query pool '" + poolName + "' has no queries");
    if (type == VK_QUERY_TYPE_TIMESTAMP && ctx.timestampValidBits == 0)
        return makeError(ErrorCode::MissingFeature,
                         "timestamps (query pool '" + poolName + "'): the queue family has timestampValidBits = 0");
    if (type == VK_QUERY_TYPE_PIPELINE_STATISTICS && !ctx.hasPipelineStatistics)
        return makeError(ErrorCode::MissingFeature, "pipelineStatisticsQuery (query pool '" + poolName + "')");
    QueryPool pool;
    pool.type = type;
    pool.count = count;
    pool.valuesPerQuery = type == VK_QUERY_TYPE_PIPELINE_STATISTICS ? std::popcount(statistics) : 1;
    VkQueryPoolCreateInfo info = {VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = type;
    info.queryCount = count;
    info.pipelineStatistics = statistics;
    VKC_TRY(checkVk(ctx.vkd.vkCreateQueryPool(ctx.device, &info, ctx.allocationCallbacks, &pool.pool),
                    ("vkCreateQueryPool(" + poolName + ")").c_str()));
    setObjectName(ctx, VK_OBJECT_TYPE_QUERY_POOL, pool.pool, poolName.c_str());
    return pool;
}

void destroyQueryPool(VulkanContext& ctx, QueryPool& pool) {
    if (pool.pool) ctx.vkd.vkDestroyQueryPool(ctx.device, pool.pool, ctx.allocationCallbacks);
    pool = QueryPool{};
}

void resetQueries(const VulkanContext& ctx, VkCommandBuffer cmd, const QueryPool& pool, uint32_t first, uint32_t count) {
    ctx.vkd.vkCmdResetQueryPool(cmd, pool.pool, first, count ? count : pool.count - first);
}

Status readQueries(const VulkanContext& ctx, const QueryPool& pool, uint32_t first, uint32_t count,
                   std::span<uint64_t> out, QueryWait wait) {
    if (first + count > pool.count || out.size() < size_t(count) * pool.valuesPerQuery)
        return makeError(ErrorCode::InvalidArgument, "readQueries: " + std::to_string(count) + " queries from " +
                                                         std::to_string(first) + " do not fit the pool (" +
                                                         std::to_string(pool.count) + ") or the output span");
    VkQueryResultFlags flags = VK_QUERY_RESULT_64_BIT | (wait == QueryWait::Yes ? VK_QUERY_RESULT_WAIT_BIT : 0);
    VkDeviceSize stride = sizeof(uint64_t) * pool.valuesPerQuery;
    VkResult result = ctx.vkd.vkGetQueryPoolResults(ctx.device, pool.pool, first, count, size_t(count) * stride,
                                                    out.data(), stride, flags);
    if (result == VK_NOT_READY)
        return makeError(ErrorCode::NotReady, "query results not available yet", result);
    return checkVk(result, "vkGetQueryPoolResults");
}

void beginTimestamp(const VulkanContext& ctx, VkCommandBuffer cmd, const QueryPool& pool, uint32_t pair) {
    ctx.vkd.vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, pool.pool, 2 * pair);
}

void endTimestamp(const VulkanContext& ctx, VkCommandBuffer cmd, const QueryPool& pool, uint32_t pair) {
    ctx.vkd.vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, pool.pool, 2 * pair + 1);
}

double timestampsToMs(const VulkanContext& ctx, uint64_t begin, uint64_t end) {
    uint64_t mask = ctx.timestampValidBits >= 64 ? ~0ull : (1ull << ctx.timestampValidBits) - 1;
    uint64_t ticks = ((end & mask) - (begin & mask)) & mask;  // survives one wrap of the counter
    return double(ticks) * double(ctx.timestampPeriod) * 1e-6;
}

void beginOcclusion(const VulkanContext& ctx, VkCommandBuffer cmd, const QueryPool& pool, uint32_t index) {
    ctx.vkd.vkCmdBeginQuery(cmd, pool.pool, index, VK_QUERY_CONTROL_PRECISE_BIT);
}

void beginStatistics(const VulkanContext& ctx, VkCommandBuffer cmd, const QueryPool& pool, uint32_t index) {
    ctx.vkd.vkCmdBeginQuery(cmd, pool.pool, index, 0);
}

void endQuery(const VulkanContext& ctx, VkCommandBuffer cmd, const QueryPool& pool, uint32_t index) {
    ctx.vkd.vkCmdEndQuery(cmd, pool.pool, index);
}

}  // namespace vkc
