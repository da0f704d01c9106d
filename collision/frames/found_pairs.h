// Decoding the lists a frame copies into its ring slot (stencil and consistent-pairs methods):
// each a StencilListHeader (exact count, capacity) then its entries; and the compacted pair list
// (passes/shared/pair_compact_pass.h) as FrameResults::pairs.
#pragma once

#include "shaders_glsl/shared/stencil.h"
#include "vkcollide/results.h"

#include <map>
#include <utility>
#include <vector>

namespace vkc {

struct ReadbackList {
    uint32_t count = 0;       // exact, may exceed the capacity
    uint32_t stored = 0;      // entries present: min(count, capacity)
    bool truncated = false;   // count > capacity
    const char* entries = nullptr;
};

// The list at `at` in a mapped ring slot, of `capacity` entries.
ReadbackList readbackList(const char* at, uint32_t capacity);

// The GPU's pairs as FrameResults::pairs, sorted by (a, b).
struct FoundPairs {
    std::vector<gpu::StencilPairGpu> sorted;                 // parallel to the pairs added
    std::map<std::pair<uint32_t, uint32_t>, size_t> index;  // (a, b), a < b -> position in the pairs

    // The pair of objects a and b (either order), or nullptr when the GPU did not report it.
    PairResult* find(std::vector<PairResult>& pairs, uint32_t a, uint32_t b) const;
};

// Appends one PairResult per listed pair to `pairs`, each `truncated` as given (its points are).
FoundPairs addFoundPairs(const ReadbackList& list, bool truncated, std::vector<PairResult>& pairs);

}  // namespace vkc
