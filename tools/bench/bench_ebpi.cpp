// Method ebpi (paper 5) timings in the style of the paper's Table 1, per shared-mesh pair of the
// meshes README (and the dragon, no reference volume) and ray backend, at a volume tolerance of 1%
// of the README's exact volume (the dragon: of half its own volume): GPU time per stage
// (EbpiFrameDetails::stageTimingsMs) per EbpiDetector::run (record, submit, wait, read back).
// Counters: rays, achieved bound and error against the README (relative), truncated. Large pairs
// (a million triangles) only with VKC_BENCH_LARGE_MESHES=1.
// BM_EbpiVsLdi: ebpi against ldi at equal achieved error: ldi at 256^2 gives a volume
// and its volume_error_bound; ebpi (compute backend) at that bound as its tolerance gives its rays
// and time. Both errors are against the README's exact volume.
#include "tools/bench/bench_context.h"  // envIsOne
#include "tools/bench/gpu_timings.h"
#include "tools/bench/pair_scene.h"
#include "tools/bench/skip_on_error.h"
#include "vkcollide/ebpi.h"
#include "vkcollide/ldi.h"
#include "vkcollide/mesh_checks.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <string>

namespace vkc::bench {
namespace {

constexpr double kRelativeTolerance = 1e-2;

// The volume the tolerance is a fraction of: the README's, or half of A's own without one.
double toleranceVolume(const SharedMeshPair& pair, const PairScene& scene) {
    if (!std::isnan(pair.referenceVolume)) return pair.referenceVolume;
    return 0.5 * std::abs(checkMesh(scene.meshes.a).signedVolume);
}

EbpiSettings ebpiSettings(double tolerance, EbpiRayBackendChoice backend) {
    EbpiSettings settings;
    settings.tolerance = tolerance;
    settings.rayBackend = backend;
    settings.resolution = 64;
    settings.maxSplit = 64;
    settings.maxRays = 1u << 18;
    settings.hitCapacity = 16;  // gears and knots: a ray crosses many teeth or turns
    settings.maxPairs = 1;
    settings.maxGradientVertices = 1u << 22;
    settings.trianglePairCapacity = 1u << 22;  // the large pairs' leaf boxes meet in millions
    settings.nodePairCapacity = 1u << 22;
    settings.framesInFlight = 1;
    return settings;
}

// Both families' counters on every row, the other family's NaN: Google Benchmark's CSV reporter
// takes its columns from the first row and aborts on a later row with a counter it lacks.
void declareCounters(benchmark::State& state) {
    for (const char* name : {"triangles", "rays", "truncated", "rel_error", "rel_bound", "directions_ms", "image_ms",
                             "rays_ms", "bvh_ms", "casting_ms", "volume_ms", "gpu_ms", "ldi_rel_bound",
                             "ldi_rel_error", "ldi_ms", "ebpi_rel_bound", "ebpi_rel_error", "ebpi_rays",
                             "ebpi_truncated", "ebpi_ms"})
        state.counters[name] = std::nan("");
}

// The pair's scene, or null with the benchmark skipped and the reason.
PairScene* preparedPair(benchmark::State& state, const SharedMeshPair& pair) {
    PairBench& s = pairBench();
    std::string error = s.error.empty() ? "" : "no Vulkan device: " + s.error;
    PairScene* prepared = s.error.empty() ? cachedPairScene(s.context, s.cases, pair, error) : nullptr;
    if (!prepared) state.SkipWithError(error.c_str());
    return prepared;
}

double relativeError(const SharedMeshPair& pair, double volume) {
    return std::abs(volume - pair.referenceVolume) / pair.referenceVolume;  // NaN without a reference
}

void BM_EbpiPair(benchmark::State& state, const SharedMeshPair& pair, EbpiRayBackendChoice backend) {
    PairScene* prepared = preparedPair(state, pair);
    if (!prepared) return;
    const double volume = toleranceVolume(pair, *prepared);
    auto detector = EbpiDetector::create(pairBench().context, ebpiSettings(kRelativeTolerance * volume, backend));
    if (skippedOnError(state, detector)) return;
    EbpiFrameDetails details;
    if (skippedOnError(state, detector->run(*prepared->scene, prepared->pcs, &details))) return;  // warm-up
    GpuTimings timings;
    EbpiStageTimings stages;
    for (auto _ : state) {
        auto results = detector->run(*prepared->scene, prepared->pcs, &details);
        if (skippedOnError(state, results)) return;
        timings.add(results->gpuTimingsMs);
        stages += details.stageTimingsMs;
    }
    if (details.pairs.size() != 1) {
        state.SkipWithError("the pair's boxes do not overlap");
        return;
    }
    const EbpiPairDetails& d = details.pairs[0];
    const size_t triangles = (prepared->meshes.a.indices.size() + prepared->meshes.b.indices.size()) / 3;
    declareCounters(state);
    state.counters["triangles"] = double(triangles);
    state.counters["rays"] = double(d.rays);
    state.counters["truncated"] = d.truncated;
    state.counters["rel_error"] = relativeError(pair, d.volume);
    state.counters["rel_bound"] = d.volumeErrorBound / volume;
    state.counters["directions_ms"] = perIteration(stages.directions);
    state.counters["image_ms"] = perIteration(stages.image);
    state.counters["rays_ms"] = perIteration(stages.rays);
    state.counters["bvh_ms"] = perIteration(stages.bvh);
    state.counters["casting_ms"] = perIteration(stages.casting);
    state.counters["volume_ms"] = perIteration(stages.volume);
    timings.setTotalCounter(state);
}

// Wall milliseconds of one blocking run.
template <class Run>
double wallMs(Run&& run) {
    const auto start = std::chrono::steady_clock::now();
    run();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void BM_EbpiVsLdi(benchmark::State& state, const SharedMeshPair& pair) {
    PairScene* prepared = preparedPair(state, pair);
    if (!prepared) return;
    LdiSettings ldiSettings;
    ldiSettings.resolution = 256;  // the README's figures
    ldiSettings.layerCap = 32;
    ldiSettings.maxPairs = 1;
    ldiSettings.framesInFlight = 1;
    auto ldi = LdiDetector::create(pairBench().context, ldiSettings);
    if (skippedOnError(state, ldi)) return;
    LdiFrameDetails ldiDetails;
    if (skippedOnError(state, ldi->run(*prepared->scene, prepared->pcs, &ldiDetails))) return;  // warm-up
    if (ldiDetails.pairs.size() != 1 || ldiDetails.pairs[0].truncated) {
        state.SkipWithError("ldi gives no untruncated volume for the pair");
        return;
    }
    const LdiPairDetails ldiPair = ldiDetails.pairs[0];
    auto ebpi = EbpiDetector::create(pairBench().context,
                                     ebpiSettings(ldiPair.volumeErrorBound, EbpiRayBackendChoice::Compute));
    if (skippedOnError(state, ebpi)) return;
    EbpiFrameDetails ebpiDetails;
    if (skippedOnError(state, ebpi->run(*prepared->scene, prepared->pcs, &ebpiDetails))) return;  // warm-up
    double ldiMs = 0.0, ebpiMs = 0.0;
    for (auto _ : state) {
        ldiMs += wallMs([&] { (void)ldi->run(*prepared->scene, prepared->pcs, &ldiDetails); });
        ebpiMs += wallMs([&] { (void)ebpi->run(*prepared->scene, prepared->pcs, &ebpiDetails); });
    }
    if (ebpiDetails.pairs.size() != 1) {
        state.SkipWithError("the pair's boxes do not overlap");
        return;
    }
    const EbpiPairDetails& e = ebpiDetails.pairs[0];
    declareCounters(state);
    state.counters["ldi_rel_bound"] = ldiPair.volumeErrorBound / pair.referenceVolume;
    state.counters["ldi_rel_error"] = relativeError(pair, ldiPair.volume);
    state.counters["ldi_ms"] = perIteration(ldiMs);
    state.counters["ebpi_rel_bound"] = e.volumeErrorBound / pair.referenceVolume;
    state.counters["ebpi_rel_error"] = relativeError(pair, e.volume);
    state.counters["ebpi_rays"] = double(e.rays);
    state.counters["ebpi_truncated"] = e.truncated;
    state.counters["ebpi_ms"] = perIteration(ebpiMs);
}

}  // namespace
}  // namespace vkc::bench

int main(int argc, char** argv) {
    using vkc::EbpiRayBackendChoice;
    using vkc::bench::SharedMeshPair;
    const bool includeLarge = vkc::bench::envIsOne("VKC_BENCH_LARGE_MESHES");
    std::vector<const SharedMeshPair*> pairs;
    for (const SharedMeshPair& pair : vkc::bench::sharedMeshPairs()) pairs.push_back(&pair);
    pairs.insert(pairs.end() - 1, &vkc::bench::dragonPair());  // before the 1.38M armadillo
    // Only the backends the device has: a case that skips with an error carries no counters, and
    // the CSV reporter aborts on rows without the header's counters (NVIDIA has no ray queries).
    std::vector<EbpiRayBackendChoice> backends;
    if (const vkc::Context& context = vkc::bench::pairBench().context; context.valid()) {
        const vkc::ContextInfo info = vkc::contextInfo(context);
        if (info.rayQuery) backends.push_back(EbpiRayBackendChoice::RayQuery);
        if (info.rayTracingPipeline) backends.push_back(EbpiRayBackendChoice::RayTracingPipeline);
    }
    backends.push_back(EbpiRayBackendChoice::Compute);
    for (const SharedMeshPair* pair : pairs) {
        if (pair->large && !includeLarge) continue;
        for (EbpiRayBackendChoice backend : backends) {
            const std::string label = std::string("BM_EbpiPair/") + pair->name + "/" + vkc::ebpiRayBackendName(backend);
            benchmark::RegisterBenchmark(label.c_str(), vkc::bench::BM_EbpiPair, *pair, backend)
                ->Unit(benchmark::kMillisecond)
                ->Iterations(3);
        }
    }
    for (const SharedMeshPair* pair : pairs) {
        if (pair->large || std::isnan(pair->referenceVolume)) continue;  // ldi: at most 16 layers of a million triangles
        benchmark::RegisterBenchmark((std::string("BM_EbpiVsLdi/") + pair->name).c_str(), vkc::bench::BM_EbpiVsLdi,
                                     *pair)
            ->Unit(benchmark::kMillisecond)
            ->Iterations(3);
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
