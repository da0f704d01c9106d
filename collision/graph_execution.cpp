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

}  // namespace vkc
