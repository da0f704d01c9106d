// The aabb-tree method for the harness; see aabb_tree_method.h.
#include "tools/cli/aabb_tree_method.h"

#include "tools/cli/grow_to_need.h"

#include <string>

namespace vkc::tools {

namespace {

// A longer triangle-pair list for what the frame found; none when nothing was cut or the list is as
// long as the harness makes it. (The node-pair lists the detector's run() grows itself.)
std::optional<AabbTreeSettings> grownAabbTreeSettings(const AabbTreeSettings& current, const AabbTreeFrameDetails& frame) {
    if (!current.keepTrianglePairList || frame.trianglePairCount <= current.trianglePairCapacity) return std::nullopt;
    AabbTreeSettings grown = current;
    grown.trianglePairCapacity = capacityFor(frame.trianglePairCount, current.trianglePairCapacity, kMaxAabbCapacity);
    if (grown.trianglePairCapacity == current.trianglePairCapacity) return std::nullopt;
    return grown;
}

}  // namespace

Result<FrameResults> runAabbTreeFrame(Context& context, std::optional<AabbTreeDetector>& detector, const Scene& scene,
                                      const BroadphaseResults& pcs, bool keepList, AabbTreeFrameDetails* details) {
    if (keepList && !detector->settings().keepTrianglePairList)
        return makeError(ErrorCode::InvalidArgument,
                         "aabb-tree: --list needs a detector created with AabbTreeSettings::keepTrianglePairList");
    AabbTreeFrameDetails frame;
    auto results = runToNeed(
        context, detector, "aabb-tree", pcs, frame,
        [&](AabbTreeDetector& current, AabbTreeFrameDetails& out) { return current.run(scene, pcs, &out); }, grownAabbTreeSettings);
    if (!results) return results.status();
    if (details) *details = frame;
    FrameResults out = std::move(results.value());
    if (!keepList)
        for (PairResult& pair : out.pairs) pair.trianglePairList.clear();
    return out;
}

}  // namespace vkc::tools
