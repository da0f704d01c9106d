// Frames in batches; see frame_batches.h.
#include "tools/cli/frame_batches.h"

#include <algorithm>
#include <tuple>

namespace vkc::tools {

void appendBatch(FrameResults& frame, FrameResults&& batch) {
    frame.colliding = frame.colliding || batch.colliding;
    frame.truncated = frame.truncated || batch.truncated;
    for (PairResult& pair : batch.pairs) frame.pairs.push_back(std::move(pair));
    // A mesh in several batches is warned about by each (e.g. its degenerate triangles): once is enough.
    for (std::string& warning : batch.warnings)
        if (std::find(frame.warnings.begin(), frame.warnings.end(), warning) == frame.warnings.end())
            frame.warnings.push_back(std::move(warning));
    for (const auto& [pass, ms] : batch.gpuTimingsMs) frame.gpuTimingsMs[pass] += ms;
}

void sortPairs(FrameResults& frame) {
    std::sort(frame.pairs.begin(), frame.pairs.end(),
              [](const PairResult& x, const PairResult& y) { return std::tie(x.a, x.b) < std::tie(y.a, y.b); });
}

}  // namespace vkc::tools
