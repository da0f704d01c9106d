// For the tests that drive passes without a detector: their graphs' host-written inputs and
// read-back outputs, and one run of a compiled graph on the test's device (one command buffer,
// the passes' debug labels, no timestamps, submit and wait).
#pragma once

#include "passes/graph/graph.h"
#include "vk/buffer.h"
#include "vk/commands.h"
#include "vk/context.h"

#include <algorithm>

namespace vkc::test {

// A buffer of `graph` the host writes before the run (at least 16 bytes).
inline BufferHandle hostInput(Graph& graph, const char* name, VkDeviceSize bytes) {
    return graph.createBuffer(name, GraphBufferDesc{std::max<VkDeviceSize>(bytes, 16), 0, true});
}

// The test's own `buffer` as a pass output, left ready for the copy that reads it back.
inline BufferHandle readBackOutput(Graph& graph, const char* name, const Buffer& buffer) {
    ImportedBuffer imported;
    imported.buffer = buffer.buffer;
    imported.final = syncStateOf(Access::TransferSrc);
    return graph.importBuffer(name, imported);
}

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
