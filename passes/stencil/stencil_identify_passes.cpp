// Stencil method, identification for one view (paper 1, section 5) with one occlusion query per
// object instead of colour-buffer reads (6.1). Writes id image A (penetrating object + 1, edge depth)
// where an object's edges pass stencil > bias (5.1), id image B (penetrated object + 1) where the
// object's own two-sided recount reaches bias + 1 (5.2; the identifying draw decrements it back).
// Invariant: B holds one penetrated id per pixel (the last object containing that edge point).
#include "passes/stencil/stencil_passes.h"

#include <volk.h>

namespace vkc {

static void readGeometry(PassBuilder& pass, const StencilPassInputs& in, const StencilGraphState& state) {
    pass.read(in.topology, Access::VertexRead);
    pass.read(in.objects, Access::VertexShaderRead);
    pass.read(state.normals, Access::VertexShaderRead);
    for (BufferHandle vertices : in.meshVertices) pass.read(vertices, Access::VertexShaderRead);
}

void addStencilIdentifyPasses(Graph& graph, const StencilPassInputs& in, uint32_t view, StencilGraphState& state) {
    const uint32_t drawn = uint32_t(in.drawObjects.size());
    const uint32_t queryBase = view * stencilQueriesPerView(drawn);

    PassBuilder penetrating = graph.addPass("stencil-penetrating");
    readGeometry(penetrating, in, state);
    penetrating.read(state.depthStencil, Access::DepthStencilReadOnly);
    state.penetratingImage = penetrating.write(state.penetratingImage, Access::ColorAttachment);
    const ImageHandle ds = state.depthStencil, idA = state.penetratingImage;
    penetrating.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        beginStencilRendering(cmd, r, in, {ds, true, VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_LOAD_OP_LOAD, idA});
        const Pipeline& pipeline = *in.pipelines.penetrating;
        bindStencilDrawPipeline(cmd, r, in, pipeline);
        for (uint32_t i = 0; i < drawn; ++i) {
            r.device().vkCmdBeginQuery(cmd, in.occlusion, queryBase + 2 + i, VK_QUERY_CONTROL_PRECISE_BIT);
            drawStencilObject(cmd, r, in, pipeline, view, i, true);
            r.device().vkCmdEndQuery(cmd, in.occlusion, queryBase + 2 + i);
        }
        r.device().vkCmdEndRendering(cmd);
    });

    PassBuilder penetrated = graph.addPass("stencil-penetrated");
    readGeometry(penetrated, in, state);
    state.depthStencil = penetrated.write(state.depthStencil, Access::DepthStencilAttachment);
    state.penetratedImage = penetrated.write(state.penetratedImage, Access::ColorAttachment);
    const ImageHandle ds2 = state.depthStencil, idB = state.penetratedImage;
    penetrated.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        // Depth (the edge points) is kept; the stencil restarts at the bias for the recounts.
        beginStencilRendering(cmd, r, in, {ds2, false, VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_LOAD_OP_CLEAR, idB});
        VkClearAttachment reset = {VK_IMAGE_ASPECT_STENCIL_BIT, 0, {}};
        reset.clearValue.depthStencil = {1.0f, gpu::kStencilBias};
        VkClearRect all = {{{0, 0}, {in.resolution, in.resolution}}, 0, 1};
        for (uint32_t i = 0; i < drawn; ++i) {
            bindStencilDrawPipeline(cmd, r, in, *in.pipelines.recount);
            drawStencilObject(cmd, r, in, *in.pipelines.recount, view, i, false);
            bindStencilDrawPipeline(cmd, r, in, *in.pipelines.penetratedId);
            r.device().vkCmdBeginQuery(cmd, in.occlusion, queryBase + 2 + drawn + i, VK_QUERY_CONTROL_PRECISE_BIT);
            drawStencilObject(cmd, r, in, *in.pipelines.penetratedId, view, i, false);
            r.device().vkCmdEndQuery(cmd, in.occlusion, queryBase + 2 + drawn + i);
            // The identifying draw restored the stencil (stencil == 1 -> 0, as the paper does); a
            // clear of the stencil aspect also undoes other counts, left by open meshes.
            if (in.clearAfterRecount && i + 1 < drawn) r.device().vkCmdClearAttachments(cmd, 1, &reset, 1, &all);
        }
        r.device().vkCmdEndRendering(cmd);
    });
}

}  // namespace vkc
