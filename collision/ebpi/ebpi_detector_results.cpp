// vkc::EbpiDetector, results: decodes a frame's ring slot (per-view plan results, the ray
// counters, per (pair, direction) volume sums, the gradient sums) into FrameResults and
// EbpiFrameDetails. A pair's volume is the mean of its three directions' estimates, each within
// its direction's achieved EBPI bound plus the rounding of its fixed-point and float arithmetic.
#include "collision/ebpi/ebpi_detector_impl.h"
#include "collision/ebpi/ebpi_stage_timings.h"

#include "collision/ebpi/ebpi_view_images.h"
#include "collision/ebpi/ebpi_volume_cpu.h"
#include "collision/frames/format_number.h"
#include "collision/frames/frame_warnings.h"
#include "collision/ebpi/ebpi_ray_plan.h"
#include "shaders_glsl/shared/ebpi_view_fit.h"

#include <cmath>
#include <cstring>

namespace vkc {

namespace {

template <typename T>
std::vector<T> region(const ReadbackLayout& layout, const char* base, uint32_t index, size_t count) {
    std::vector<T> out(count);
    if (count != 0) std::memcpy(out.data(), layout.bytes(base, index), count * sizeof(T));
    return out;
}


// What the GPU's setup could not test (only a broadphase's pairs get that far: a host's are
// refused by record()): the frame is truncated, with a warning naming the limit.
void reportUntested(const gpu::EbpiSetupStateGpu& setup, const EbpiSettings& settings, FrameResults& out) {
    const UntestedPairs pairs = {setup.listedPairs, setup.listCapacity, setup.openPairs, setup.firstOpenA,
                                 setup.firstOpenB, setup.overlappingPairs, setup.activePairs};
    if (reportUntestedPairs("ebpi", "pairs with overlapping boxes", "EbpiSettings", settings.maxPairs, pairs, out) ||
        setup.gradientDropped == 0)
        return;
    out.warnings.push_back("ebpi: the pairs' objects have more vertices than EbpiSettings::maxGradientVertices (" +
                           std::to_string(settings.maxGradientVertices) + "): the last " +
                           std::to_string(setup.gradientDropped) + " pairs (by object index) not tested");
    out.truncated = true;
}

}  // namespace

Status EbpiDetectorImpl::readResults(uint64_t frame, FrameResults& out, EbpiFrameDetails* details) {
    VulkanContext& c = *ctx;
    auto bytes = readRingSlot(c, frames.ring, frame);
    if (!bytes) return bytes.status();
    const EbpiSlot& slot = slots[frame % slots.size()];
    const double tolerance = slot.tolerance;  // the frame's, not a later setTolerance's or growth's
    const uint32_t maxRays = slot.maxRays, hitCapacity = slot.hitCapacity;
    const char* base = static_cast<const char*>(bytes.value());
    const ReadbackLayout& layout = frames.readback;
    // The pairs the GPU's setup placed in the frame's slots (ebpi_pair_setup.h).
    gpu::EbpiSetupStateGpu setup{};
    std::vector<gpu::EbpiSlotGpu> pairSlots;
    std::vector<gpu::EbpiVolumePairGpu> volumePairs;
    if (slot.pairSlots != 0) {
        setup = region<gpu::EbpiSetupStateGpu>(layout, base, kEbpiReadbackSetup, 1)[0];
        setup.activePairs = std::min(setup.activePairs, slot.pairSlots);
        pairSlots.resize(setup.activePairs);
        if (setup.activePairs != 0)
            std::memcpy(pairSlots.data(), layout.bytes(base, kEbpiReadbackSetup) + sizeof(gpu::EbpiSetupStateGpu),
                        pairSlots.size() * sizeof(gpu::EbpiSlotGpu));
        volumePairs = region<gpu::EbpiVolumePairGpu>(layout, base, kEbpiReadbackVolumePairs, setup.activePairs);
    }
    const size_t pairCount = pairSlots.size();
    const auto viewResults = region<gpu::EbpiRayViewResultGpu>(layout, base, kEbpiReadbackViewResults, pairCount * 3);
    const auto counters = region<gpu::EbpiRayCountersGpu>(layout, base, kEbpiReadbackCounters, 1)[0];
    const auto chosenAxes = region<double>(layout, base, kEbpiReadbackAxes, pairCount * 9);
    const auto fittedViews = region<gpu::EbpiViewGpu>(layout, base, kEbpiReadbackViews, pairCount * 3);
    const auto fittedRayViews = region<gpu::EbpiRayViewGpu>(layout, base, kEbpiReadbackRayViews, pairCount * 3);
    EbpiVolumeFixed fixed;
    fixed.sums = region<gpu::EbpiPairVolumeGpu>(layout, base, kEbpiReadbackSums, pairCount * gpu::kEbpiVolumeAxes);
    fixed.gradientWords = region<uint32_t>(layout, base, kEbpiReadbackGradients, size_t(slot.gradientSlots) * 3 * 2);

    out = FrameResults{};
    EbpiFrameDetails d;
    d.totalRays = pairCount == 0 ? 0 : counters.totalRays;
    d.raysTruncated = pairCount != 0 && counters.truncated != 0;
    // The transient edges' candidates: past either capacity some crossings were never tested.
    bool crossingsIncomplete = false;
    if (pairCount != 0 && !settings.omitTransientEdges) {
        const auto traversal = region<gpu::AabbTraversalStateGpu>(layout, base, kEbpiReadbackTraversal, 1)[0];
        d.trianglePairs = traversal.trianglePairCount;
        d.nodePairsNeeded = traversal.nodePairOverflow;
        if (traversal.trianglePairCount > settings.trianglePairCapacity)
            out.warnings.push_back("ebpi: the tested pairs have " + std::to_string(traversal.trianglePairCount) +
                                   " triangle pairs with overlapping boxes, more than EbpiSettings::trianglePairCapacity (" +
                                   std::to_string(settings.trianglePairCapacity) +
                                   "): where the surfaces cross is not known for every pair, all truncated");
        if (traversal.nodePairOverflow != 0)
            out.warnings.push_back("ebpi: the transient edges' aabb-tree traversal needs " +
                                   std::to_string(traversal.nodePairOverflow) +
                                   " node pairs, more than EbpiSettings::nodePairCapacity (" +
                                   std::to_string(settings.nodePairCapacity) + "): every pair truncated");
        crossingsIncomplete = traversal.trianglePairCount > settings.trianglePairCapacity || traversal.nodePairOverflow != 0;
    }
    reportUntested(setup, settings, out);
    if (d.raysTruncated)
        out.warnings.push_back("ebpi: the frame needs " + std::to_string(counters.totalRays) +
                               " rays, more than EbpiSettings::maxRays (" + std::to_string(maxRays) +
                               "): pairs whose rays did not fit in what the pairs before them left are "
                               "truncated (raise maxRays or the tolerance)");
    for (uint32_t p = 0; p < pairCount; ++p) {
        const gpu::EbpiSlotGpu& r = pairSlots[p];
        const gpu::EbpiVolumePairGpu& pairVolume = volumePairs[p];
        const EbpiPairVolume v = ebpiPairVolume(fixed, p, pairVolume);
        EbpiPairDetails pd;
        pd.a = r.a;
        pd.b = r.b;
        pd.transientEdgesCovered = !settings.omitTransientEdges;
        if (settings.omitTransientEdges)
            out.warnings.push_back("ebpi: pair " + pairName(r.a, r.b) + ": the bound leaves out the creases where the "
                                   "surfaces cross (transient edges): EbpiSettings::omitTransientEdges");
        std::array<glm::dvec3, 3> axes;
        std::array<EbpiWindow, 3> windows;
        bool imageOverflow = false, boundUncountable = false;
        double floatBound = 0.0;  // the largest view's: the hits' float depths and the rays' float ends
        glm::dmat3 chosen;
        for (uint32_t k = 0; k < 9; ++k) chosen[k / 3][k % 3] = chosenAxes[p * 9 + k];
        previousAxes[{r.a, r.b}] = {chosen, frame};
        for (uint32_t axis = 0; axis < 3; ++axis) {
            const gpu::EbpiRayViewResultGpu& view = viewResults[p * 3 + axis];
            const gpu::EbpiViewGpu& fitted = fittedViews[p * 3 + axis];
            const gpu::EbpiRayViewGpu& fittedRays = fittedRayViews[p * 3 + axis];
            windows[axis] = {{fitted.originX, fitted.originY}, {fitted.pixelX, fitted.pixelY}, fitted.width, fitted.height};
            const double viewFloatBound = gpu::ebpiFloatRoundingBound(
                {fitted.originX, fitted.originY, fitted.pixelX, fittedRays.zMin, fittedRays.zMax, fitted.width, fitted.height},
                hitCapacity);
            floatBound = std::max(floatBound, viewFloatBound);
            axes[axis] = chosen[axis];
            pd.directions[axis] = axes[axis];
            pd.volumePerDirection[axis] = v.volume[axis];
            const double achieved = view.boundQuanta * tolerance * gpu::kEbpiRayQuantumFraction;
            pd.boundPerDirection[axis] = achieved + v.roundingBound[axis] + viewFloatBound;
            pd.rays += view.rays;
            pd.oddRays += v.oddRays[axis];
            pd.truncatedRays += v.truncatedRays[axis];
            pd.boundNotMet = pd.boundNotMet || (view.flags & gpu::kEbpiRayFlagBoundNotMet) != 0;
            imageOverflow = imageOverflow || (view.flags & gpu::kEbpiRayFlagImageOverflow) != 0;
            boundUncountable = boundUncountable || std::isinf(achieved);
            // A view of a pair whose rays did not fit maxRays was never cast.
            if (uint64_t(view.firstRay) + view.rays > maxRays) pd.truncated = true;
        }
        pd.volume = (v.volume[0] + v.volume[1] + v.volume[2]) / 3.0;
        pd.volumeErrorBound = (pd.boundPerDirection[0] + pd.boundPerDirection[1] + pd.boundPerDirection[2]) / 3.0;
        // The float hits and ray ends alone may round by more than the tolerance allows.
        pd.floatRoundingBound = floatBound;
        const bool belowFloat = floatBound >= tolerance;
        pd.truncated = pd.truncated || pd.boundNotMet || boundUncountable || imageOverflow || v.overflow ||
                       pd.oddRays != 0 || pd.truncatedRays != 0 || belowFloat || crossingsIncomplete;
        if (settings.keepImages) {
            const auto* pixels = reinterpret_cast<const gpu::EbpiPixelGpu*>(layout.bytes(base, kEbpiReadbackPixels));
            const auto* tiles = reinterpret_cast<const gpu::EbpiRayTileGpu*>(layout.bytes(base, kEbpiReadbackTiles));
            // Each view has room for resolution x resolution pixels and their pyramid; the GPU's
            // window fills its start.
            const uint32_t pixelStride = settings.resolution * settings.resolution;
            const uint32_t tileStride = ebpiPyramidTiles(settings.resolution, settings.resolution);
            for (uint32_t axis = 0; axis < 3; ++axis) {
                const EbpiWindow& window = windows[axis];
                const uint32_t view = 3 * p + axis;
                pd.images[axis] = ebpiViewImage(window, {pixels + view * pixelStride, window.width * window.height},
                                                {tiles + view * tileStride, ebpiPyramidTiles(window.width, window.height)});
            }
        }
        for (const EbpiVertexGradient& g :
             ebpiVertexGradients(fixed, pairVolume.firstSlotA, r.verticesA, pairVolume.gradientScale, axes))
            pd.gradientA.push_back({g.vertex, g.gradient});
        for (const EbpiVertexGradient& g :
             ebpiVertexGradients(fixed, pairVolume.firstSlotB, r.verticesB, pairVolume.gradientScale, axes))
            pd.gradientB.push_back({g.vertex, g.gradient});

        if (pd.truncated) {
            std::string why;
            if (pd.boundNotMet) why += " even split " + std::to_string(settings.maxSplit) + " x " +
                                       std::to_string(settings.maxSplit) + " in every pixel its bound misses the tolerance;";
            if (pd.truncatedRays != 0) why += " " + std::to_string(pd.truncatedRays) +
                                              " rays met more surfaces than EbpiSettings::hitCapacity;";
            if (pd.oddRays != 0) why += " " + std::to_string(pd.oddRays) + " rays crossed a surface an odd number of times;";
            if (boundUncountable) why += " a tile's bound is more than 256 times the tolerance;";
            if (imageOverflow || v.overflow) why += " a fixed-point sum overflowed;";
            if (crossingsIncomplete) why += " the frame's triangle pairs or node pairs overflowed their capacity;";
            if (belowFloat) why += " EbpiSettings::tolerance " + formatNumber(tolerance) +
                                   " is below what float coordinates resolve for it (" + formatNumber(floatBound) + ");";
            if (why.empty()) why = " its rays did not fit EbpiSettings::maxRays;";
            why.pop_back();
            out.warnings.push_back("ebpi: pair " + pairName(r.a, r.b) + " is truncated, its volume bound does not hold:" + why);
        }
        if (pd.volume > 0.0 || pd.truncated) {
            PairResult pr;
            pr.a = r.a;
            pr.b = r.b;
            pr.truncated = pd.truncated;
            if (!pd.truncated) {
                pr.volume = pd.volume;
                pr.volumeErrorBound = pd.volumeErrorBound;
                out.colliding = true;
            }
            out.pairs.push_back(std::move(pr));
        }
        out.truncated = out.truncated || pd.truncated;
        d.pairs.push_back(std::move(pd));
    }
    // The degenerate meshes of the pairs the frame tested (as the GPU chose them).
    std::vector<ObjectPair> tested;
    for (const gpu::EbpiSlotGpu& pair : pairSlots) tested.push_back({pair.a, pair.b});
    appendFrameWarnings(frames, frame, tested, out.warnings);
    VKC_TRY(readFrameTimings(c, frames, frame, *slot.graph, out.gpuTimingsMs));
    d.stageTimingsMs = ebpiStageTimings(out.gpuTimingsMs);
    growRays(d, out);
    if (details) *details = std::move(d);
    return Status::success();
}

void EbpiDetectorImpl::growRays(const EbpiFrameDetails& frame, FrameResults& out) {
    uint64_t rays = settings.maxRays, hits = settings.hitCapacity;
    if (frame.raysTruncated) rays = std::max(rays, frame.totalRays + frame.totalRays / 8);
    for (const EbpiPairDetails& pair : frame.pairs)
        if (pair.truncatedRays != 0) hits = std::max<uint64_t>(hits, 2ull * settings.hitCapacity);
    if (rays == settings.maxRays && hits == settings.hitCapacity) return;
    const VkDeviceSize bindingLimit = storageBindingLimit(*ctx);
    const uint64_t chunk = std::min<uint64_t>(rays, bindingLimit / (hits * sizeof(gpu::EbpiHitGpu)));
    const uint64_t bytes = ebpiRayBytes(rays, hits, chunk);
    if (chunk == 0 || rays * hits > gpu::kEbpiVolumeMaxContributions || rays * sizeof(gpu::EbpiRayGpu) > bindingLimit ||
        bytes > settings.rayMemoryBudget) {
        out.warnings.push_back("ebpi: the next frames cannot grow to " + std::to_string(rays) + " rays of " +
                               std::to_string(hits) + " hit slots: " + std::to_string(bytes) +
                               " bytes, past EbpiSettings::rayMemoryBudget (" + std::to_string(settings.rayMemoryBudget) +
                               "), one storage-buffer binding or 2^26 hit slots");
        return;
    }
    settings.maxRays = uint32_t(rays);
    settings.hitCapacity = uint32_t(hits);
    hitChunkRays = uint32_t(chunk);
}

}  // namespace vkc
