// The stencil method for the harness; see stencil_method.h.
#include "tools/cli/stencil_method.h"

namespace vkc::tools {

Result<FrameResults> runStencilFrame(StencilDetector& detector, const Scene& scene, const BroadphaseResults& pcs,
                                     StencilFrameDetails* details) {
    // run() already adds the warning for a truncated PCS.
    return detector.run(scene, pcs, details);
}

}  // namespace vkc::tools
