// A frame run in batches (a detector holds fewer pairs than the frame has): each batch's results
// appended to the frame's, warnings once each.
#pragma once

#include "vkcollide/broadphase.h"
#include "vkcollide/results.h"

#include <algorithm>

namespace vkc::tools {

void appendBatch(FrameResults& frame, FrameResults&& batch);

// Pairs sorted by (a, b), as FrameResults promises, once every batch is in.
void sortPairs(FrameResults& frame);

// The frame's candidates in batches of at most `batchSize` pairs (one empty batch when there are
// none), one after the other: `runBatch(batch)` runs one blocking frame and returns its results.
template <class RunBatch>
Result<FrameResults> runInBatches(const BroadphaseResults& pcs, size_t batchSize, RunBatch&& runBatch) {
    FrameResults frame;
    for (size_t first = 0; first == 0 || first < pcs.pairs.size(); first += batchSize) {
        BroadphaseResults batch;
        batch.worldBounds = pcs.worldBounds;
        batch.pairs.assign(pcs.pairs.begin() + first, pcs.pairs.begin() + std::min(pcs.pairs.size(), first + batchSize));
        batch.pairCount = uint32_t(batch.pairs.size());
        batch.truncated = first == 0 && pcs.truncated;  // run() warns about a truncated set once
        Result<FrameResults> results = runBatch(batch);
        if (!results) return results.status();
        appendBatch(frame, std::move(results.value()));
        if (pcs.pairs.empty()) break;
    }
    sortPairs(frame);
    return frame;
}

}  // namespace vkc::tools
