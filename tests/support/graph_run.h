// Runs a compiled graph once on the test's device: one command buffer, the passes' debug labels,
// no timestamps, submit and wait. For the tests that drive passes without a detector.
#pragma once

#include "passes/graph/graph.h"
#include "vk/commands.h"
#include "vk/context.h"

namespace vkc::test {

inline Status runGraphOnce(VulkanContext& ctx, const Graph& graph, const char* name) {
    ExecuteContext context;
    context.device = &ctx.vkd;
    context.beginLabel = ctx.vki.vkCmdBeginDebugUtilsLabelEXT;
    context.endLabel = ctx.vki.vkCmdEndDebugUtilsLabelEXT;
    Status executed = Status::success();
    VKC_TRY(submitAndWait(ctx, [&](VkCommandBuffer cmd) { executed = graph.execute(cmd, context); }, name));
    return executed;
}

}  // namespace vkc::test
