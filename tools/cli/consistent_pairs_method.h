// `--method consistent-pairs` for the harness: one blocking frame of ConsistentPairsDetector
// (paper 3, Jang, Jeong & Han) over the broadphase's potentially colliding set, as FrameResults
// for the report; the frame's iteration and occlusion-query details go through report_json.h.
#pragma once

#include "vkcollide/broadphase.h"
#include "vkcollide/consistent_pairs.h"
#include "vkcollide/results.h"
#include "vkcollide/scene.h"

namespace vkc::tools {

// Colliding pairs (inconsistent front/back pairs) with their collision points and the triangles'
// normals for the pairs of `pcs`. A truncated PCS, point list or iteration count is a warning in
// the results; a drawn open mesh is an InvalidMesh error naming the object.
// `details` (optional) receives iterations, fragments per peel and the point details.
Result<FrameResults> runConsistentPairsFrame(ConsistentPairsDetector& detector, const Scene& scene,
                                             const BroadphaseResults& pcs,
                                             ConsistentPairsFrameDetails* details = nullptr);

}  // namespace vkc::tools
