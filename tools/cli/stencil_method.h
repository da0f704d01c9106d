// `--method stencil` for the harness: one blocking frame of StencilDetector (paper 1, CInDeR)
// over the broadphase's potentially colliding set, as FrameResults for the report.
#pragma once

#include "vkcollide/broadphase.h"
#include "vkcollide/results.h"
#include "vkcollide/scene.h"
#include "vkcollide/stencil.h"

namespace vkc::tools {

// Colliding pairs with penetrating/penetrated objects and interfering edge points (world space)
// for the pairs of `pcs`; `colliding` is the occlusion-query boolean. Open meshes and negative
// stencil counts, a truncated PCS or point list are warnings in the results.
// `details` (optional) receives the occlusion-query counts and identified objects.
Result<FrameResults> runStencilFrame(StencilDetector& detector, const Scene& scene, const BroadphaseResults& pcs,
                                     StencilFrameDetails* details = nullptr);

}  // namespace vkc::tools
