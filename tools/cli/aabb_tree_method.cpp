// The aabb-tree method for the harness; see aabb_tree_method.h.
#include "tools/cli/aabb_tree_method.h"

#include <algorithm>
#include <bit>
#include <string>

namespace vkc::tools {

namespace {

// The capacity a list needs after `needed` entries did not fit in `capacity`: at least double.
uint32_t grownCapacity(uint32_t capacity, uint64_t needed) {
    return uint32_t(std::min<uint64_t>(kMaxAabbCapacity, std::bit_ceil(std::max<uint64_t>(2ull * capacity, needed))));
}

}  // namespace

Result<FrameResults> runAabbTreeFrame(Context& context, std::optional<AabbTreeDetector>& detector, const Scene& scene,
                                      const BroadphaseResults& pcs, bool keepList, AabbTreeFrameDetails* details) {
    if (keepList && !detector->settings().keepTrianglePairList)
        return makeError(ErrorCode::InvalidArgument,
                         "aabb-tree: --list needs a detector created with AabbTreeSettings::keepTrianglePairList");
    AabbTreeFrameDetails frame;
    auto results = detector->run(scene, pcs, &frame);
    if (!results) return results.status();
    // A full list keeps its counts exact and says so; the harness wants complete answers, so it
    // grows the lists the way the warning tells a host to, and runs the frame again.
    for (;;) {
        const AabbTreeSettings& current = detector->settings();
        AabbTreeSettings grown = current;
        if (frame.nodePairOverflow && current.nodePairCapacity < kMaxAabbCapacity)
            grown.nodePairCapacity = grownCapacity(current.nodePairCapacity, frame.nodePairsNeeded);
        if (keepList && frame.trianglePairCount > current.trianglePairCapacity &&
            current.trianglePairCapacity < kMaxAabbCapacity)
            grown.trianglePairCapacity = grownCapacity(current.trianglePairCapacity, frame.trianglePairCount);
        if (grown.nodePairCapacity == current.nodePairCapacity &&
            grown.trianglePairCapacity == current.trianglePairCapacity)
            break;
        detector.reset();  // frees the smaller lists before the larger ones are made
        auto larger = AabbTreeDetector::create(context, grown);
        if (!larger) return larger.status();
        detector = std::move(larger.value());
        results = detector->run(scene, pcs, &frame);
        if (!results) return results.status();
    }
    if (details) *details = frame;
    FrameResults out = std::move(results.value());
    if (!keepList)
        for (PairResult& pair : out.pairs) pair.trianglePairList.clear();
    return out;
}

}  // namespace vkc::tools
