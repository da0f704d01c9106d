// Stencil method, counting for one view (paper 1, sections 4.1 and 6.1). Reads: geometry (objects,
// normals, vertices, topology as index buffer). Writes: depth = nearest offset edge point; stencil =
// bias + front - back faces in front of it; 2 occlusion queries (any count > 0, any < 0).
// Pass 1 draws edges (LINE_LIST, depth LESS + write); then ONE two-sided stencil draw per object
// replaces the paper's passes 2-3 (see the count pass). Invariant: the method never reads the
// stencil back; only keepImages copies it out (for the harness's images).
#include "passes/stencil/stencil_passes.h"

#include "passes/shared/depth_stencil_rendering.h"
#include "passes/shared/stencil_copy_pass.h"

#include <volk.h>

namespace vkc {

void beginStencilRendering(VkCommandBuffer cmd, const PassResources& r, const StencilPassInputs& in,
                           const StencilRenderTargets& targets) {
    DepthStencilRendering rendering;
    rendering.depthStencil = targets.depthStencil;
    rendering.readOnly = targets.readOnlyDepthStencil;
    rendering.depthLoad = targets.depthLoad;
    rendering.stencilLoad = targets.stencilLoad;
    rendering.clear = {1.0f, gpu::kStencilBias};
    rendering.storeOpNone = in.storeOpNone;
    rendering.color = targets.color;
    rendering.area = {{0, 0}, {in.resolution, in.resolution}};
    beginDepthStencilRendering(cmd, r, rendering);
}

void bindStencilDrawPipeline(VkCommandBuffer cmd, const PassResources& r, const StencilPassInputs& in,
                             const Pipeline& pipeline) {
    r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.pipeline);
    r.device().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.layout, 0, 1, &in.drawSet, 0,
                                       nullptr);
    r.device().vkCmdBindIndexBuffer(cmd, r.buffer(in.topology), r.bufferOffset(in.topology), VK_INDEX_TYPE_UINT32);
}

void pushStencilDraw(VkCommandBuffer cmd, const PassResources& r, const StencilPassInputs& in, const Pipeline& pipeline,
                     uint32_t view) {
    const gpu::StencilDrawPush push = {view, in.edgeOffsetPixels, 0u, 0u};
    r.device().vkCmdPushConstants(cmd, pipeline.layout, pipeline.stages, 0, sizeof(push), &push);
}

void drawStencilObject(VkCommandBuffer cmd, const PassResources& r, const StencilPassInputs& in,
                       const StencilGraphState& state, uint32_t object, bool edges) {
    const VkDeviceSize command = imageFrameDrawOffset(edges ? 0 : 1, object, in.objectCount);
    r.device().vkCmdDrawIndexedIndirect(cmd, r.buffer(state.commands), r.bufferOffset(state.commands) + command, 1,
                                         sizeof(VkDrawIndexedIndirectCommand));
}

void drawStencilObjects(VkCommandBuffer cmd, const PassResources& r, const StencilPassInputs& in,
                        const StencilGraphState& state, const Pipeline& pipeline, uint32_t view, bool edges) {
    pushStencilDraw(cmd, r, in, pipeline, view);
    const VkDeviceSize first = imageFrameDrawOffset(edges ? 0 : 1, 0, in.objectCount);
    r.device().vkCmdDrawIndexedIndirect(cmd, r.buffer(state.commands), r.bufferOffset(state.commands) + first,
                                         in.objectCount, sizeof(VkDrawIndexedIndirectCommand));
}

void readStencilGeometry(PassBuilder& pass, const StencilPassInputs& in, const StencilGraphState& state) {
    pass.read(in.topology, Access::VertexRead);
    pass.read(in.objects, Access::VertexShaderRead);
    pass.read(state.normals, Access::VertexShaderRead);
    pass.read(state.frame, Access::VertexShaderRead);
    pass.read(state.commands, Access::IndirectRead);
    for (BufferHandle vertices : in.meshVertices) pass.read(vertices, Access::VertexShaderRead);
}

void addStencilCountPasses(Graph& graph, const StencilPassInputs& in, uint32_t view, StencilGraphState& state) {
    const uint32_t queryBase = view * kStencilQueriesPerView;

    // Pass 1: edge depths. Clearing here (depth 1, stencil = bias) starts the view afresh.
    PassBuilder edges = graph.addPass("stencil-edges");
    readStencilGeometry(edges, in, state);
    state.depthStencil = edges.write(state.depthStencil, Access::DepthStencilAttachment);
    const ImageHandle edgeTarget = state.depthStencil;
    const StencilGraphState drawState = state;
    edges.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        beginStencilRendering(cmd, r, in, {edgeTarget, false, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_LOAD_OP_CLEAR, {}});
        bindStencilDrawPipeline(cmd, r, in, *in.pipelines.edgeDepth);
        drawStencilObjects(cmd, r, in, drawState, *in.pipelines.edgeDepth, view, true);
        r.device().vkCmdEndRendering(cmd);
    });

    // Passes 2-3 as one two-sided stencil draw per object: front faces increment-wrap, back faces
    // decrement-wrap, depth LESS, no depth write. Two-sided stencil is core Vulkan; the 2003 hardware
    // needed two passes over the geometry (back-face culled increment, front-face culled decrement).
    PassBuilder count = graph.addPass("stencil-count");
    readStencilGeometry(count, in, state);
    state.depthStencil = count.write(state.depthStencil, Access::DepthStencilAttachment);
    const ImageHandle countTarget = state.depthStencil;
    count.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        beginStencilRendering(cmd, r, in, {countTarget, false, VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_LOAD_OP_LOAD, {}});
        bindStencilDrawPipeline(cmd, r, in, *in.pipelines.count);
        drawStencilObjects(cmd, r, in, drawState, *in.pipelines.count, view, false);
        r.device().vkCmdEndRendering(cmd);
    });

    // Section 6.1: the boolean from an occlusion query over a stencil-test draw, no image read.
    // (The paper scanned the stencil buffer on the CPU, or queried per object.)
    PassBuilder boolean = graph.addPass("stencil-boolean");
    boolean.read(state.depthStencil, Access::DepthStencilReadOnly);
    const ImageHandle booleanTarget = state.depthStencil;
    boolean.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        beginStencilRendering(cmd, r, in, {booleanTarget, true, VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_LOAD_OP_LOAD, {}});
        const Pipeline* tests[2] = {in.pipelines.positive, in.pipelines.negative};
        for (uint32_t k = 0; k < 2; ++k) {
            r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, tests[k]->pipeline);
            r.device().vkCmdBeginQuery(cmd, in.occlusion, queryBase + k, VK_QUERY_CONTROL_PRECISE_BIT);
            r.device().vkCmdDraw(cmd, 3, 1, 0, 0);
            r.device().vkCmdEndQuery(cmd, in.occlusion, queryBase + k);
        }
        r.device().vkCmdEndRendering(cmd);
    });

    // keepImages: the view's counts, before the identifying passes change them (5.2).
    if (in.counts.valid())
        state.counts = addStencilCopyPass(graph, "stencil-count-copy", state.depthStencil, state.counts,
                                          stencilCountsBytes(view, in.resolution), {in.resolution, in.resolution});
}

}  // namespace vkc
