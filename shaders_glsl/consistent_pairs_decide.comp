// Iteration decision on the GPU (paper 3, section 5): the paper read the occlusion query of the
// last front-face peel on the CPU and started another iteration when it counted fragments. Here the
// query is copied into the stats buffer on the GPU and this pass writes one iteration's indirect
// draws (instanceCount 1 or 0) and its own commands (the peels' clear draw, the image passes'
// dispatch: none when it does not run), so every iteration is recorded up front, the CPU never
// waits and a skipped iteration costs neither clears nor copies. One thread per scene object's
// draw. The first iteration runs when the frame setup drew any object; each later one when every
// earlier iteration's last peel drew fragments; an object not drawn this frame never gets an
// instance.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/consistent_pairs.h"
#include "shared/image_frame.h"

layout(local_size_x = kConsistentPairsDecideGroupSize) in;

layout(set = 0, binding = kConsistentPairsBindingDecideStats, std430) buffer Stats { ConsistentPairsStatsGpu stats; };
// VkDrawIndexedIndirectCommand, 5 uints: indexCount, instanceCount, firstIndex, vertexOffset, firstInstance.
layout(set = 0, binding = kConsistentPairsBindingDraws, std430) buffer Draws { uint draws[]; };
layout(set = 0, binding = kConsistentPairsBindingDecideView, std430) readonly buffer View { ImageFrameGpu view; };
layout(set = 0, binding = kConsistentPairsBindingDecideDrawn, std430) readonly buffer Drawn { uint drawn[]; };
layout(set = 0, binding = kConsistentPairsBindingIterations, std430) writeonly buffer Iterations {
    ConsistentPairsIterationGpu iterations[];
};

layout(push_constant) uniform Push { ConsistentPairsDecidePush push; };

void main() {
    uint draw = gl_GlobalInvocationID.x;
    bool runs = view.drawnObjects != 0u;
    for (uint k = 0u; k < push.iteration; ++k) runs = runs && stats.peelSamples[k] != 0u;
    if (draw == 0u) {
        uint groups = runs ? push.imageGroups : 0u;
        iterations[push.iteration] = ConsistentPairsIterationGpu(3u, runs ? 1u : 0u, 0u, 0u, groups, groups, 1u, 0u);
        if (runs) stats.iterations += 1u;
    }
    if (draw >= push.drawCount) return;
    uint command = kImageFrameCommandFirstDraw + (push.iteration * push.drawCount + draw) * kImageFrameCommandDrawUints;
    draws[command + 1u] = runs && drawn[draw] == kImageFrameDrawn ? 1u : 0u;
}
