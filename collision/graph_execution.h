// How a method runs its render graph on a VulkanContext: the ExecuteContext with the device
// table, debug-utils labels (when enabled) and a timestamp query pool.
#pragma once

#include "passes/graph.h"
#include "vk/context.h"
#include "vk/query_pool.h"

#include <map>
#include <string>

namespace vkc {

ExecuteContext graphExecuteContext(const VulkanContext& ctx, const QueryPool& timestamps);

// Per-pass GPU milliseconds by pass name, from `timestamps` (non-blocking: NotReady while the
// queries are unavailable).
Status readPassTimings(const VulkanContext& ctx, const Graph& graph, const QueryPool& timestamps,
                       std::map<std::string, double>& out);

}  // namespace vkc
