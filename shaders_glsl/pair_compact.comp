// Compacts the pair-flag matrix into the unique list of colliding pairs (paper 1, section 5) on
// the GPU: one thread per potentially colliding pair (a < b) reads bits (a, b) and (b, a) and
// appends the pair once. Count exact past capacity. Replaces the paper's CPU colour-buffer parse.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/stencil.h"

layout(local_size_x = kStencilCompactGroupSize) in;

layout(set = 0, binding = kStencilBindingCandidates, std430) readonly buffer Candidates { uvec2 candidates[]; };
layout(set = 0, binding = kStencilBindingPairFlags, std430) readonly buffer PairFlags { uint pairFlags[]; };
layout(set = 0, binding = kStencilBindingPairs, std430) buffer Pairs {
    StencilListHeader pairHeader;
    StencilPairGpu pairs[];
};

layout(push_constant) uniform Push { StencilCompactPush push; };

bool flag(uint a, uint b) {
    uint bit = a * push.objectCount + b;
    return (pairFlags[bit >> 5u] & (1u << (bit & 31u))) != 0u;
}

void main() {
    uint index = gl_GlobalInvocationID.x;
    if (index >= push.candidateCount) return;
    uvec2 pair = candidates[index];
    uint flags = (flag(pair.x, pair.y) ? 1u : 0u) | (flag(pair.y, pair.x) ? 2u : 0u);
    if (flags == 0u) return;
    uint slot = atomicAdd(pairHeader.count, 1u);
    if (slot < push.pairCapacity) pairs[slot] = StencilPairGpu(pair.x, pair.y, flags, 0u);
}
