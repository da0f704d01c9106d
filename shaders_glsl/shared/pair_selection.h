// Layout shared by pair_select*.comp and passes/shared/pair_selection_passes.cpp: of a frame's
// candidate pairs (a < b, any order, each once) with a verdict each, the first maxPairs accepted
// pairs in (a, b) order, over many workgroups, so that the cost follows the candidates and not
// one workgroup's walk of them:
//   count  (a thread per candidate): the counts, the accepted pairs per first object, the
//          smallest first object of an open pair;
//   (the per-object counts scanned: where each object's accepted pairs start in (a, b) order)
//   cut    (a thread per object): the object whose accepted pairs straddle maxPairs, if any, and
//          how many of them are taken;
//   group  (a thread per candidate): the straddling object's accepted partners flagged, the
//          smallest second object of the first open pairs;
//   (the flags scanned: each partner's rank among them)
//   pick   (a thread per candidate): the selected pairs appended, unordered;
//   sort   (a thread per selected pair): each put at its rank.
#ifndef VKC_SHARED_PAIR_SELECTION_H
#define VKC_SHARED_PAIR_SELECTION_H

#include "glsl_cpp.h"

VKC_NAMESPACE_BEGIN

VKC_CONSTANT(uint, kPairSelectGroupSize, 256u)

// A candidate's verdict, written by the method's own test of it.
VKC_CONSTANT(uint, kPairRejected, 0u)
VKC_CONSTANT(uint, kPairAccepted, 1u)
VKC_CONSTANT(uint, kPairOpen, 2u)  // an object is not a closed solid: not tested, reported

VKC_CONSTANT(uint, kPairSelectNone, 4294967295u)  // no object (cut, first open pair)

VKC_CONSTANT(uint, kPairSelectBindingCandidates, 0u)  // PairListHeader + uvec2 (broadphase.h), read
VKC_CONSTANT(uint, kPairSelectBindingVerdicts, 1u)    // uint per stored candidate, read
VKC_CONSTANT(uint, kPairSelectBindingStarts, 2u)      // uint per object: counts, then (scanned) starts
VKC_CONSTANT(uint, kPairSelectBindingRanks, 3u)       // uint per object: partner flags, then ranks
VKC_CONSTANT(uint, kPairSelectBindingState, 4u)       // PairSelectionStateGpu
VKC_CONSTANT(uint, kPairSelectBindingSelected, 5u)    // uvec2[2 * maxPairs]: unordered, then sorted

struct PairSelectionStateGpu {
    uint accepted;    // accepted candidates (all of them, selected or not)
    uint open;        // open candidates
    uint firstOpenA;  // the smallest open pair (kPairSelectNone: none)
    uint firstOpenB;
    uint cutObject;   // whose accepted pairs straddle maxPairs (kPairSelectNone: none do)
    uint cutTaken;    // how many of them are selected
    uint selected;    // min(accepted, maxPairs) once picked
    uint unused;
};

struct PairSelectionPush {
    uint candidateCapacity;  // entries the candidate list holds at most (also bounds its header)
    uint objectCount;
    uint maxPairs;
    uint unused;
};

VKC_NAMESPACE_END

#endif
