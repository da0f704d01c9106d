// Iteration decision on the GPU (paper 3, section 5): the paper read the occlusion query of the
// last front-face peel on the CPU and started another iteration when it counted fragments. Here the
// query is copied into the stats buffer on the GPU and this pass writes the next iteration's
// indirect draws (instanceCount 1 or 0), so every iteration is recorded up front and the CPU never
// waits. One thread per scene object's draw; an iteration that did not run never enables the next
// (the first runs when the frame setup drew any object; each later one when every earlier
// iteration's last peel drew fragments), and an object not drawn this frame never gets an instance.
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

layout(push_constant) uniform Push { ConsistentPairsDecidePush push; };

void main() {
    uint draw = gl_GlobalInvocationID.x;
    if (draw >= push.drawCount) return;
    bool ran = view.drawnObjects != 0u;
    for (uint k = 0u; k < push.iteration; ++k) ran = ran && stats.peelSamples[k] != 0u;
    bool next = ran && stats.peelSamples[push.iteration] != 0u;
    uint command = kImageFrameCommandFirstDraw + ((push.iteration + 1u) * push.drawCount + draw) * kImageFrameCommandDrawUints;
    draws[command + 1u] = next && drawn[draw] == kImageFrameDrawn ? 1u : 0u;
    if (draw == 0u && next) stats.iterations += 1u;
}
