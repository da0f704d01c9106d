// `--method aabb-tree` for the harness: one blocking frame of AabbTreeDetector over the broadphase's
// potentially colliding set (paper 4), as FrameResults for the report.
#pragma once

#include "vkcollide/aabb_tree.h"
#include "vkcollide/context.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/results.h"
#include "vkcollide/scene.h"

#include <optional>

namespace vkc::tools {

// The largest triangle-pair list capacity the harness grows to (a list this long is 128 MiB,
// lavapipe's largest storage binding). The node-pair lists the detector grows itself.
inline constexpr uint32_t kMaxAabbCapacity = 1u << 23;

// Pairs with exact triangle-pair counts (and, with `keepList`, the lists) for the pairs of `pcs`.
// The detector must have been created with keepTrianglePairList when `keepList` is set
// (InvalidArgument otherwise). When the triangle-pair list overflows, `detector` is replaced by one
// with a longer list and the frame runs again (up to kMaxAabbCapacity); what still does not fit, and a
// truncated PCS, are warnings in the results. `details` (optional) receives the GPU's per-level
// counters of the last run (what the paper read with occlusion queries).
Result<FrameResults> runAabbTreeFrame(Context& context, std::optional<AabbTreeDetector>& detector, const Scene& scene,
                                      const BroadphaseResults& pcs, bool keepList,
                                      AabbTreeFrameDetails* details = nullptr);

}  // namespace vkc::tools
