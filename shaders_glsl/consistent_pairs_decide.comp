// Iteration decision on the GPU (paper 3, section 5): the paper read the occlusion query of the
// last front-face peel on the CPU and started another iteration when it counted fragments. Here the
// query is copied into the stats buffer on the GPU and this pass writes the next iteration's
// indirect draws (instanceCount 1 or 0), so every iteration is recorded up front and the CPU never
// waits. One thread per draw; an iteration that did not run never enables the next.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/consistent_pairs.h"

layout(local_size_x = kConsistentPairsDecideGroupSize) in;

layout(set = 0, binding = kConsistentPairsBindingDecideStats, std430) buffer Stats { ConsistentPairsStatsGpu stats; };
// VkDrawIndexedIndirectCommand, 5 uints: indexCount, instanceCount, firstIndex, vertexOffset, firstInstance.
layout(set = 0, binding = kConsistentPairsBindingDraws, std430) buffer Draws { uint draws[]; };

layout(push_constant) uniform Push { ConsistentPairsDecidePush push; };

void main() {
    uint draw = gl_GlobalInvocationID.x;
    if (draw >= push.drawCount) return;
    bool ran = draws[push.iteration * push.drawCount * 5u + 1u] != 0u;
    bool next = ran && stats.peelSamples[push.iteration] != 0u;
    draws[((push.iteration + 1u) * push.drawCount + draw) * 5u + 1u] = next ? 1u : 0u;
    if (draw == 0u && next) stats.iterations += 1u;
}
