// `--method exact`: the CGAL oracle over every object pair of one frame, as FrameResults.
#pragma once

#include "tools/io/scene_file.h"
#include "vkcollide/results.h"

namespace vkc::tools {

// Pairs with exact triangle-pair counts (and lists when `keepTrianglePairs`), containment, and
// volumes for pairs of closed meshes.
Result<FrameResults> runExactFrame(const io::SceneDescription& scene, const io::SceneFrame& frame,
                                   bool keepTrianglePairs);

}  // namespace vkc::tools
