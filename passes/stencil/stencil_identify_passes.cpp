// Stencil method, identification for one view (paper 1, section 5). Writes id image A
// (penetrating object + 1, edge depth) where an object's edges pass stencil > bias (5.1: one
// multi-draw of every object, the object being the draw's instance), id image B (penetrated object
// + 1) where the object's own two-sided recount reaches bias + 1 (5.2; the identifying draw
// decrements it back). The recount is the one per-object step: two draws per object, recorded as
// pipeline switch + indirect draw (the view's push and the sets stay bound); which objects
// penetrate or are penetrated the scan reads from A and B (6.1 used occlusion queries per object).
// An object in no candidate pair draws no instance.
// Invariant: B holds one penetrated id per pixel (the last object containing that edge point).
#include "passes/stencil/stencil_passes.h"

#include <volk.h>

#include <algorithm>

namespace vkc {

void addStencilIdentifyPasses(Graph& graph, const StencilPassInputs& in, uint32_t view, StencilGraphState& state) {
    const uint32_t objects = in.objectCount;
    const StencilGraphState drawState = state;

    PassBuilder penetrating = graph.addPass("stencil-penetrating");
    readStencilGeometry(penetrating, in, state);
    penetrating.read(state.depthStencil, Access::DepthStencilReadOnly);
    state.penetratingImage = penetrating.write(state.penetratingImage, Access::ColorAttachment);
    const ImageHandle ds = state.depthStencil, idA = state.penetratingImage;
    penetrating.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        beginStencilRendering(cmd, r, in, {ds, true, VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_LOAD_OP_LOAD, idA});
        bindStencilDrawPipeline(cmd, r, in, *in.pipelines.penetrating);
        drawStencilObjects(cmd, r, in, drawState, *in.pipelines.penetrating, view, true);
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
        const Pipeline& recount = *in.pipelines.recount;
        const Pipeline& identify = *in.pipelines.penetratedId;
        bindStencilDrawPipeline(cmd, r, in, recount);
        pushStencilDraw(cmd, r, in, recount, view);
        for (uint32_t i = 0; i < objects; ++i) {
            if (i != 0) r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, recount.pipeline);
            drawStencilObject(cmd, r, in, drawState, i, false);
            r.device().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, identify.pipeline);
            drawStencilObject(cmd, r, in, drawState, i, false);
            // The identifying draw restored the stencil (stencil == 1 -> 0, as the paper does); a
            // clear of the stencil aspect also undoes other counts, left by open meshes.
            if (i + 1 < objects && std::binary_search(in.openObjects.begin(), in.openObjects.end(), i))
                r.device().vkCmdClearAttachments(cmd, 1, &reset, 1, &all);
        }
        r.device().vkCmdEndRendering(cmd);
    });
}

}  // namespace vkc
