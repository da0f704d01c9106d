// The consistent-pairs method for the harness; see consistent_pairs_method.h.
#include "tools/cli/consistent_pairs_method.h"

namespace vkc::tools {

Result<FrameResults> runConsistentPairsFrame(ConsistentPairsDetector& detector, const Scene& scene,
                                             const BroadphaseResults& pcs, ConsistentPairsFrameDetails* details) {
    // run() already adds the warning for a truncated PCS.
    return detector.run(scene, pcs, details);
}

}  // namespace vkc::tools
