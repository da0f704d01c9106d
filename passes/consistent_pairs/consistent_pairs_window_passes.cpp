// Consistent pairs, the passes over one iteration's window of front layers (paper 3, sections 4.2
// and 4.3). Reads: geometry, the front layers. Writes: the candidates' flags and the inconsistent
// fragment count (consistency, back faces; per pixel too with keepImages), the nearest back face
// of each window slot and its id (for back/back points), and the collision points with both
// triangles' normals (determination, all faces). None of them tests depth: each fragment compares
// itself with the stored layers.
// Invariant: a back face is judged by the iteration whose own layers hold its nearest front face.
#include "passes/consistent_pairs/consistent_pairs_passes.h"

#include <volk.h>

namespace vkc {

void addConsistentPairsWindowPasses(Graph& graph, const ConsistentPairsPassInputs& in, uint32_t iteration,
                                    ConsistentPairsGraphState& state) {
    const uint32_t base = consistentPairsWindowBase(in.layersPerIteration, iteration);

    // A dispatch with the iteration's workgroups (none when it does not run): no back face yet.
    PassBuilder clear = graph.addPass("consistent-pairs-clear-back");
    clear.read(state.iterationCommands, Access::IndirectRead);
    state.backDepth = clear.write(state.backDepth, Access::ComputeWrite);
    state.backId = clear.write(state.backId, Access::ComputeWrite);
    const BufferHandle commands = state.iterationCommands;
    clear.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        dispatchConsistentPairsImages(cmd, r, in, *in.pipelines.backClear, commands, iteration,
                                      {0u, in.resolution, in.layersPerIteration, 0u});
    });

    // Each draw pass renders with the last peel's depth image attached read-only (the pipelines do
    // not test it): a render area and sample count without a colour target.
    auto drawPass = [&](const char* name, const Pipeline* pipeline, auto declare) {
        PassBuilder pass = graph.addPass(name);
        readConsistentPairsGeometry(pass, in, state);
        pass.read(state.layers, Access::FragmentRead);
        pass.read(state.depth, Access::DepthStencilReadOnly);
        declare(pass);
        const ImageHandle depth = state.depth;
        const BufferHandle draws = state.draws;
        pass.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            beginConsistentPairsRendering(cmd, r, in, depth, true, {});
            drawConsistentPairsObjects(cmd, r, in, *pipeline, draws, iteration, base, false);
            r.device().vkCmdEndRendering(cmd);
        });
    };
    drawPass("consistent-pairs-consistency", in.pipelines.consistency, [&](PassBuilder& pass) {
        state.backDepth = pass.write(state.backDepth, Access::FragmentReadWrite);
        pass.read(in.candidates, Access::FragmentRead);
        pass.read(state.candidateSlots, Access::FragmentRead);
        state.pairFlags = pass.write(state.pairFlags, Access::FragmentReadWrite);
        state.stats = pass.write(state.stats, Access::FragmentReadWrite);
        if (in.inconsistentImage.valid())
            state.inconsistentImage = pass.write(state.inconsistentImage, Access::FragmentReadWrite);
    });
    drawPass("consistent-pairs-back-id", in.pipelines.backId, [&](PassBuilder& pass) {
        pass.read(state.backDepth, Access::FragmentRead);
        // Read-modify-write: texels no fragment writes keep the clear ("no back face").
        state.backId = pass.write(state.backId, Access::FragmentReadWrite);
    });
    drawPass("consistent-pairs-determination", in.pipelines.determination, [&](PassBuilder& pass) {
        pass.read(state.backDepth, Access::FragmentRead);
        pass.read(state.backId, Access::FragmentRead);
        state.points = pass.write(state.points, Access::FragmentReadWrite);
    });
}

}  // namespace vkc
