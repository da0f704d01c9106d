// Stencil method, identification for one view (paper 1, section 5) with one occlusion query per
// scene object instead of colour-buffer reads (6.1); an object in no candidate pair draws no
// instance, so its queries count 0. Writes id image A (penetrating object + 1, edge depth)
// where an object's edges pass stencil > bias (5.1), id image B (penetrated object + 1) where the
// object's own two-sided recount reaches bias + 1 (5.2; the identifying draw decrements it back).
// Invariant: B holds one penetrated id per pixel (the last object containing that edge point).
#include "passes/stencil/stencil_passes.h"

#include <volk.h>

#include <algorithm>

namespace vkc {

void addStencilIdentifyPasses(Graph& graph, const StencilPassInputs& in, uint32_t view, StencilGraphState& state) {
    const uint32_t objects = in.objectCount;
    const uint32_t queryBase = view * stencilQueriesPerView(objects);
    const StencilGraphState drawState = state;

    PassBuilder penetrating = graph.addPass("stencil-penetrating");
    readStencilGeometry(penetrating, in, state);
    penetrating.read(state.depthStencil, Access::DepthStencilReadOnly);
    state.penetratingImage = penetrating.write(state.penetratingImage, Access::ColorAttachment);
    const ImageHandle ds = state.depthStencil, idA = state.penetratingImage;
    penetrating.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        beginStencilRendering(cmd, r, in, {ds, true, VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_LOAD_OP_LOAD, idA});
        const Pipeline& pipeline = *in.pipelines.penetrating;
        bindStencilDrawPipeline(cmd, r, in, pipeline);
        for (uint32_t i = 0; i < objects; ++i) {
            r.device().vkCmdBeginQuery(cmd, in.occlusion, queryBase + 2 + i, VK_QUERY_CONTROL_PRECISE_BIT);
            drawStencilObject(cmd, r, in, drawState, pipeline, view, i, true);
            r.device().vkCmdEndQuery(cmd, in.occlusion, queryBase + 2 + i);
        }
        r.device().vkCmdEndRendering(cmd);
    });

    PassBuilder penetrated = graph.addPass("stencil-penetrated");
    readStencilGeometry(penetrated, in, state);
    state.depthStencil = penetrated.write(state.depthStencil, Access::DepthStencilAttachment);
    state.penetratedImage = penetrated.write(state.penetratedImage, Access::ColorAttachment);
    const ImageHandle ds2 = state.depthStencil, idB = state.penetratedImage;
    penetrated.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        // Depth (the edge points) is kept; the stencil restarts at the bias for the recounts.
        beginStencilRendering(cmd, r, in, {ds2, false, VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_LOAD_OP_CLEAR, idB});
        VkClearAttachment reset = {VK_IMAGE_ASPECT_STENCIL_BIT, 0, {}};
        reset.clearValue.depthStencil = {1.0f, gpu::kStencilBias};
        VkClearRect all = {{{0, 0}, {in.resolution, in.resolution}}, 0, 1};
        for (uint32_t i = 0; i < objects; ++i) {
            bindStencilDrawPipeline(cmd, r, in, *in.pipelines.recount);
            drawStencilObject(cmd, r, in, drawState, *in.pipelines.recount, view, i, false);
            bindStencilDrawPipeline(cmd, r, in, *in.pipelines.penetratedId);
            r.device().vkCmdBeginQuery(cmd, in.occlusion, queryBase + 2 + objects + i, VK_QUERY_CONTROL_PRECISE_BIT);
            drawStencilObject(cmd, r, in, drawState, *in.pipelines.penetratedId, view, i, false);
            r.device().vkCmdEndQuery(cmd, in.occlusion, queryBase + 2 + objects + i);
            // The identifying draw restored the stencil (stencil == 1 -> 0, as the paper does); a
            // clear of the stencil aspect also undoes other counts, left by open meshes.
            if (i + 1 < objects && std::binary_search(in.openObjects.begin(), in.openObjects.end(), i))
                r.device().vkCmdClearAttachments(cmd, 1, &reset, 1, &all);
        }
        r.device().vkCmdEndRendering(cmd);
    });
}

}  // namespace vkc
