// Query pools: timestamps (a begin/end pair per pass), precise occlusion (fragment counts, as
// the papers' occlusion queries) and pipeline statistics. Reads are non-blocking by default.
#pragma once

#include "vk/context.h"

#include <span>

namespace vkc {

struct QueryPool {
    VkQueryPool pool = VK_NULL_HANDLE;
    VkQueryType type = VK_QUERY_TYPE_TIMESTAMP;
    uint32_t count = 0;
    uint32_t valuesPerQuery = 1;  // pipeline statistics: one value per enabled statistic
};

// `statistics` only for VK_QUERY_TYPE_PIPELINE_STATISTICS (MissingFeature without the feature).
Result<QueryPool> createQueryPool(VulkanContext& ctx, VkQueryType type, uint32_t count, const char* name,
                                  VkQueryPipelineStatisticFlags statistics = 0);
void destroyQueryPool(VulkanContext& ctx, QueryPool& pool);

// Queries must be reset before each use; this records the reset (count 0: to the end).
void resetQueries(const VulkanContext& ctx, VkCommandBuffer cmd, const QueryPool& pool, uint32_t first = 0,
                  uint32_t count = 0);

enum class QueryWait { No, Yes };
// Copies `count` queries' values (count * valuesPerQuery uint64_t) into `out`. With QueryWait::No
// returns NotReady while any is unavailable; QueryWait::Yes blocks (tools and tests only).
Status readQueries(const VulkanContext& ctx, const QueryPool& pool, uint32_t first, uint32_t count,
                   std::span<uint64_t> out, QueryWait wait = QueryWait::No);

// Timestamp pair `pair` uses queries 2*pair (before everything later) and 2*pair+1 (after
// everything earlier has completed).
void beginTimestamp(const VulkanContext& ctx, VkCommandBuffer cmd, const QueryPool& pool, uint32_t pair);
void endTimestamp(const VulkanContext& ctx, VkCommandBuffer cmd, const QueryPool& pool, uint32_t pair);
// Milliseconds between two raw timestamps, honouring timestampValidBits (wrap) and timestampPeriod.
double timestampsToMs(const VulkanContext& ctx, uint64_t begin, uint64_t end);

// Occlusion queries are precise: they count samples, not just "any passed".
void beginOcclusion(const VulkanContext& ctx, VkCommandBuffer cmd, const QueryPool& pool, uint32_t index);
void endQuery(const VulkanContext& ctx, VkCommandBuffer cmd, const QueryPool& pool, uint32_t index);
void beginStatistics(const VulkanContext& ctx, VkCommandBuffer cmd, const QueryPool& pool, uint32_t index);

}  // namespace vkc
