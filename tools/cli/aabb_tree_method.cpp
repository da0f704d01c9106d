// The aabb-tree method for the harness; see aabb_tree_method.h.
#include "tools/cli/aabb_tree_method.h"

#include <string>

namespace vkc::tools {

Result<FrameResults> runAabbTreeFrame(AabbTreeDetector& detector, const Scene& scene, const BroadphaseResults& pcs,
                                      bool keepList, AabbTreeFrameStats* stats) {
    if (keepList && !detector.settings().keepTrianglePairList)
        return makeError(ErrorCode::InvalidArgument,
                         "aabb-tree: --list needs a detector created with AabbTreeSettings::keepTrianglePairList");
    auto results = detector.run(scene, pcs.pairs, stats);
    if (!results) return results.status();
    FrameResults out = std::move(results.value());
    if (!keepList)
        for (PairResult& pair : out.pairs) pair.trianglePairList.clear();
    if (pcs.truncated)
        out.warnings.push_back("aabb-tree: the broadphase kept " + std::to_string(pcs.pairs.size()) + " of " +
                               std::to_string(pcs.pairCount) +
                               " potentially colliding pairs (BroadphaseSettings::pairCapacity): pairs may be missing");
    return out;
}

}  // namespace vkc::tools
