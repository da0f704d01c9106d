// `--method aabb-tree` for the harness: one blocking frame of AabbTreeDetector over the broadphase's
// potentially colliding set (paper 4), as FrameResults for the report.
#pragma once

#include "vkcollide/aabb_tree.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/results.h"
#include "vkcollide/scene.h"

namespace vkc::tools {

// Pairs with exact triangle-pair counts (and, with `keepList`, the lists) for the pairs of `pcs`.
// The detector must have been created with keepTrianglePairList when `keepList` is set
// (InvalidArgument otherwise). A truncated PCS or a hit capacity is a warning in the results.
// `stats` (optional) receives the GPU's per-level counters (what the paper read with occlusion queries).
Result<FrameResults> runAabbTreeFrame(AabbTreeDetector& detector, const Scene& scene, const BroadphaseResults& pcs,
                                      bool keepList, AabbTreeFrameStats* stats = nullptr);

}  // namespace vkc::tools
