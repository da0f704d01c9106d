// Pass labels -> Table 1 stages; see ebpi_stage_timings.h.
#include "collision/ebpi/ebpi_stage_timings.h"

#include "collision/ebpi/ebpi_detector_impl.h"

#include "passes/aabb_tree/aabb_tree_passes.h"
#include "passes/ebpi/ebpi_direction_passes.h"
#include "passes/ebpi/ebpi_image_passes.h"
#include "passes/ebpi/ebpi_ray_passes.h"
#include "passes/ebpi/ebpi_setup_pass.h"
#include "passes/ebpi/ebpi_trace_passes.h"
#include "passes/ebpi/ebpi_volume_passes.h"

#include <cassert>

namespace vkc {

namespace {

struct StageOf {
    const char* pass;
    double EbpiStageTimings::*stage;
};

// The detector's passes (ebpi_detector_frame.cpp); the pyramid's are labelled per level.
constexpr StageOf kStages[] = {
    {kEbpiPairVerdictsPassName, &EbpiStageTimings::directions},
    {kEbpiPairSetupPassName, &EbpiStageTimings::directions},
    {kEbpiHistogramClearPassName, &EbpiStageTimings::directions},
    {kEbpiNormalHistogramPassName, &EbpiStageTimings::directions},
    {kEbpiDirectionsPassName, &EbpiStageTimings::directions},
    {kEbpiImageClearPassName, &EbpiStageTimings::image},   {kEbpiDepthExtentPassName, &EbpiStageTimings::image},
    {kEbpiEdgeTermsPassName, &EbpiStageTimings::image},    {kEbpiTransientTermsPassName, &EbpiStageTimings::image},
    {kEbpiRayOptionsPassName, &EbpiStageTimings::rays},
    {kEbpiRayAllocatePassName, &EbpiStageTimings::rays},   {kEbpiRayScanPassName, &EbpiStageTimings::rays},
    {kEbpiRayGeneratePassName, &EbpiStageTimings::rays},   {kEbpiTraceBoxesPassName, &EbpiStageTimings::bvh},
    {kEbpiTraceBlasPassName, &EbpiStageTimings::bvh},      {kEbpiTraceTlasPassName, &EbpiStageTimings::bvh},
    {kEbpiTraceClearPassName, &EbpiStageTimings::casting}, {kEbpiTraceLaunchPassName, &EbpiStageTimings::casting},
    {kEbpiTracePassName, &EbpiStageTimings::casting},      {kEbpiTraceSortPassName, &EbpiStageTimings::casting},
    {kEbpiVolumeClearPassName, &EbpiStageTimings::volume}, {kEbpiVolumePassName, &EbpiStageTimings::volume},
    {kEbpiReadbackPassName, &EbpiStageTimings::readback},
    // The transient edges' candidates (aabb_traversal_frame.h) are part of building the EBPI.
    {kAabbUploadPassName, &EbpiStageTimings::image},       {kAabbRefitPassName, &EbpiStageTimings::image},
    {kAabbClearPassName, &EbpiStageTimings::image},        {kAabbPairsPassName, &EbpiStageTimings::image},
    {kAabbIndirectPassName, &EbpiStageTimings::image},     {kAabbTraversePassName, &EbpiStageTimings::image},
};

}  // namespace

EbpiStageTimings ebpiStageTimings(const std::map<std::string, double>& passMs) {
    EbpiStageTimings out;
    for (const auto& [pass, ms] : passMs) {
        if (pass.rfind(kEbpiPyramidPassName, 0) == 0) {
            out.rays += ms;
            continue;
        }
        if (pass.rfind(kEbpiPairSelectPassPrefix, 0) == 0) {  // the set-up's, as ebpi-pair-setup
            out.directions += ms;
            continue;
        }
        bool known = false;
        for (const StageOf& s : kStages)
            if (pass == s.pass) {
                out.*s.stage += ms;
                known = true;
            }
        assert(known && "a pass of EbpiDetector without a Table 1 stage");
        (void)known;
    }
    return out;
}

}  // namespace vkc
