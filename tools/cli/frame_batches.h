// A frame run in batches (a detector holds fewer pairs than the frame has): each batch's results
// appended to the frame's, warnings once each.
#pragma once

#include "vkcollide/results.h"

namespace vkc::tools {

void appendBatch(FrameResults& frame, FrameResults&& batch);

// Pairs sorted by (a, b), as FrameResults promises, once every batch is in.
void sortPairs(FrameResults& frame);

}  // namespace vkc::tools
