// The frame's candidate pairs as a hash table, (a, b) -> the candidate's index in the list, so
// that an object pair seen in an image flags its candidate: two bits per candidate (bit 0: seen
// with a first, i.e. a penetrating or in front of b; bit 1: with b first). Memory and clears follow
// the candidates; a bit per ordered object pair took objectCount^2 bits (512 MiB at 65,535
// objects) and capped the objects at 65,535. Open addressing with linear probing over a power of
// two of slots at least twice the candidates' capacity; a slot holds index + 1, 0 is empty
// (candidate_index.comp fills them). The includer declares `candidates` (uvec2[], a < b),
// `candidateSlots` (uint[]) and `pairFlags` (uint[]).

#include "candidate_hash.glsl"

const uint kNoCandidate = 0xffffffffu;  // a pair seen in an image that is no candidate

// The candidate (a, b), a < b, or kNoCandidate.
uint findCandidate(uvec2 pair, uint slotMask) {
    uint slot = candidateHash(pair) & slotMask;
    for (uint probe = 0u; probe <= slotMask; ++probe) {
        uint entry = candidateSlots[slot];
        if (entry == 0u) return kNoCandidate;
        if (candidates[entry - 1u] == pair) return entry - 1u;
        slot = (slot + 1u) & slotMask;
    }
    return kNoCandidate;
}

// Flags the candidate of objects `first` and `second` as seen with `first` first; a pair that is
// no candidate is left out, as the compaction reports candidates only.
void flagCandidate(uint first, uint second, uint slotMask) {
    uint index = findCandidate(uvec2(min(first, second), max(first, second)), slotMask);
    if (index == kNoCandidate) return;
    uint bit = 2u * index + (first < second ? 0u : 1u);
    if ((pairFlags[bit >> 5u] & (1u << (bit & 31u))) == 0u) atomicOr(pairFlags[bit >> 5u], 1u << (bit & 31u));
}
