// The example's GPU-driven methods; see gpu_driven_method.h.
#include "tools/examples/gpu_driven_method.h"

#include "vkcollide/aabb_tree.h"
#include "vkcollide/ebpi.h"

namespace vkc::example {

namespace {

template <class Detector>
GpuDrivenMethod wrap(Detector detector) {
    auto owned = std::make_shared<Detector>(std::move(detector));
    GpuDrivenMethod method;
    method.record = [owned](VkCommandBuffer cmd, const Scene& scene, const Broadphase& broadphase, uint64_t frame) {
        return owned->record(cmd, scene, broadphase, frame);
    };
    method.completionSignal = [owned](uint64_t frame) { return owned->completionSignal(frame); };
    method.results = [owned](uint64_t frame, FrameResults& out) { return owned->results(frame, out); };
    method.detector = owned;
    return method;
}

}  // namespace

bool gpuDrivenFeatures(const std::string& method, FeatureSets& sets) {
    if (method == "aabb-tree") sets = kFeatureSetAabbTree;
    else if (method == "ebpi") sets = kFeatureSetEbpi;  // its compute backend: any Vulkan 1.2 device
    else return false;
    return true;
}

Result<GpuDrivenMethod> createGpuDrivenMethod(Context& context, const std::string& method, uint32_t framesInFlight,
                                              double tolerance) {
    if (method == "aabb-tree") {
        AabbTreeSettings settings;
        settings.framesInFlight = framesInFlight;
        auto detector = AabbTreeDetector::create(context, settings);
        if (!detector) return detector.status();
        return wrap(std::move(detector.value()));
    }
    EbpiSettings settings;
    settings.framesInFlight = framesInFlight;
    settings.tolerance = tolerance;
    auto detector = EbpiDetector::create(context, settings);
    if (!detector) return detector.status();
    return wrap(std::move(detector.value()));
}

}  // namespace vkc::example
