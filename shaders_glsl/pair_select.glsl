// The first maxPairs accepted candidate pairs in (a, b) order: the steps' bindings and bodies
// (shared/pair_selection.h says what each does), a pair_select_<step>.comp each, so that a
// dispatch touches only the buffers its step does. Which pairs a full frame tests so depends
// neither on the order of the candidate list (the broadphase's has none inside an object's group)
// nor on how the GPU schedules the threads. Grids of candidates and objects are walked
// grid-stride: a list may hold more entries than one dispatch has threads.
#include "shared/broadphase.h"  // PairListHeader
#include "shared/pair_selection.h"

layout(local_size_x = kPairSelectGroupSize) in;

layout(set = 0, binding = kPairSelectBindingCandidates, std430) readonly buffer Candidates {
    PairListHeader candidateHeader;
    uvec2 candidates[];
};
layout(set = 0, binding = kPairSelectBindingVerdicts, std430) readonly buffer Verdicts { uint verdicts[]; };
layout(set = 0, binding = kPairSelectBindingStarts, std430) buffer Starts { uint starts[]; };
layout(set = 0, binding = kPairSelectBindingRanks, std430) buffer Ranks { uint ranks[]; };
layout(set = 0, binding = kPairSelectBindingState, std430) buffer State { PairSelectionStateGpu state; };
layout(set = 0, binding = kPairSelectBindingSelected, std430) buffer Selected { uvec2 selected[]; };

layout(push_constant) uniform Push { PairSelectionPush push; };

uint storedCandidates() {
    return min(candidateHeader.count, min(candidateHeader.capacity, push.candidateCapacity));
}

uint gridStride() { return gl_NumWorkGroups.x * kPairSelectGroupSize; }

// How many accepted pairs object a starts (the scan left each object's start; the last one's end
// is the accepted total).
uint acceptedOf(uint a) {
    uint end = a + 1u < push.objectCount ? starts[a + 1u] : state.accepted;
    return end - starts[a];
}

// Counts: one atomic per subgroup and counter (every lane takes part, past the list with zeros).
void countStep() {
    uint stored = storedCandidates();
    for (uint base = gl_WorkGroupID.x * kPairSelectGroupSize; base < stored; base += gridStride()) {
        uint i = base + gl_LocalInvocationID.x;
        uint verdict = i < stored ? verdicts[i] : kPairRejected;
        uint accepted = subgroupAdd(verdict == kPairAccepted ? 1u : 0u);
        uint open = subgroupAdd(verdict == kPairOpen ? 1u : 0u);
        if (subgroupElect()) {
            if (accepted != 0u) atomicAdd(state.accepted, accepted);
            if (open != 0u) atomicAdd(state.open, open);
        }
        if (verdict == kPairAccepted) atomicAdd(starts[candidates[i].x], 1u);
        if (verdict == kPairOpen) atomicMin(state.firstOpenA, candidates[i].x);
    }
}

void cutStep() {
    for (uint a = gl_GlobalInvocationID.x; a < push.objectCount; a += gridStride()) {
        uint start = starts[a];
        if (start < push.maxPairs && start + acceptedOf(a) > push.maxPairs) {  // one object at most
            state.cutObject = a;
            state.cutTaken = push.maxPairs - start;
        }
    }
}

void groupStep() {
    uint stored = storedCandidates();
    for (uint i = gl_GlobalInvocationID.x; i < stored; i += gridStride()) {
        uint verdict = verdicts[i];
        if (verdict == kPairRejected) continue;
        uvec2 pair = candidates[i];
        if (verdict == kPairOpen && pair.x == state.firstOpenA) atomicMin(state.firstOpenB, pair.y);
        if (verdict == kPairAccepted && pair.x == state.cutObject) ranks[pair.y] = 1u;  // each partner once
    }
}

void pickStep() {
    uint stored = storedCandidates();
    for (uint i = gl_GlobalInvocationID.x; i < stored; i += gridStride()) {
        if (verdicts[i] != kPairAccepted) continue;
        uvec2 pair = candidates[i];
        if (starts[pair.x] >= push.maxPairs) continue;                                 // after the cut
        if (pair.x == state.cutObject && ranks[pair.y] >= state.cutTaken) continue;  // straddling, too late
        selected[atomicAdd(state.selected, 1u)] = pair;
    }
}

// A selected pair's rank is how many selected pairs come before it (they are distinct).
void sortStep() {
    uint count = state.selected;
    for (uint s = gl_GlobalInvocationID.x; s < count; s += gridStride()) {
        uvec2 pair = selected[s];
        uint rank = 0u;
        for (uint t = 0u; t < count; ++t) {
            uvec2 other = selected[t];
            if (other.x < pair.x || (other.x == pair.x && other.y < pair.y)) ++rank;
        }
        selected[push.maxPairs + rank] = pair;
    }
}
