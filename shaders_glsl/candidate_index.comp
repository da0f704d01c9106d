// Fills the candidates' hash slots (candidate_flags.glsl) before the image passes look pairs up:
// one thread per stored candidate claims the first empty slot from its hash on. The slots were
// cleared by the frame's setup; at most half of them are taken, so every probe ends.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/broadphase.h"  // PairListHeader
#include "shared/stencil.h"

layout(local_size_x = kStencilCompactGroupSize) in;

layout(set = 0, binding = kStencilBindingCandidates, std430) readonly buffer Candidates {
    PairListHeader candidateHeader;
    uvec2 candidates[];
};
layout(set = 0, binding = kStencilBindingCandidateSlots, std430) buffer CandidateSlots { uint candidateSlots[]; };

layout(push_constant) uniform Push { StencilCompactPush push; };

#include "candidate_hash.glsl"

void main() {
    uint index = gl_GlobalInvocationID.x;
    uint stored = min(candidateHeader.count, min(candidateHeader.capacity, push.candidateCapacity));
    if (index >= stored) return;
    uint slot = candidateHash(candidates[index]) & push.candidateSlotMask;
    while (atomicCompSwap(candidateSlots[slot], 0u, index + 1u) != 0u) slot = (slot + 1u) & push.candidateSlotMask;
}
