// Compacts the candidates' flags (candidate_flags.glsl) into the unique list of colliding pairs
// (paper 1, section 5) on the GPU: one thread per potentially colliding pair (a < b) reads its two
// bits, (a, b) and (b, a), and appends the pair once; a candidate with neither bit goes to the unfound list (stencil reports
// those as undecided, paper 1 6.4). Counts exact past capacity. Replaces the paper's CPU
// colour-buffer parse. The candidates are in the broadphase's layout (header, then pairs), written
// by the broadphase on the GPU or uploaded by the host.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/broadphase.h"  // PairListHeader
#include "shared/stencil.h"

layout(local_size_x = kStencilCompactGroupSize) in;

layout(set = 0, binding = kStencilBindingCandidates, std430) readonly buffer Candidates {
    PairListHeader candidateHeader;
    uvec2 candidates[];
};
layout(set = 0, binding = kStencilBindingPairFlags, std430) readonly buffer PairFlags { uint pairFlags[]; };
layout(set = 0, binding = kStencilBindingPairs, std430) buffer Pairs {
    StencilListHeader pairHeader;
    StencilPairGpu pairs[];
};
layout(set = 0, binding = kStencilBindingUnfound, std430) buffer Unfound {
    StencilListHeader unfoundHeader;
    StencilPairGpu unfound[];
};

layout(push_constant) uniform Push { StencilCompactPush push; };

void main() {
    uint index = gl_GlobalInvocationID.x;
    uint stored = min(candidateHeader.count, min(candidateHeader.capacity, push.candidateCapacity));
    if (index >= stored) return;
    uvec2 pair = candidates[index];
    uint flags = (pairFlags[(2u * index) >> 5u] >> ((2u * index) & 31u)) & 3u;
    if (flags == 0u) {
        uint slot = atomicAdd(unfoundHeader.count, 1u);
        if (slot < push.unfoundCapacity) unfound[slot] = StencilPairGpu(pair.x, pair.y, 0u, 0u);
        return;
    }
    uint slot = atomicAdd(pairHeader.count, 1u);
    if (slot < push.pairCapacity) pairs[slot] = StencilPairGpu(pair.x, pair.y, flags, 0u);
}
