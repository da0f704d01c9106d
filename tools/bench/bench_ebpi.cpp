// Method ebpi (paper 5) timings in the style of the paper's Table 1, per shared-mesh pair of the
// meshes README and ray backend, at a volume tolerance of 1% of the README's exact volume: GPU
// time per stage (EbpiFrameDetails::stageTimingsMs) per EbpiDetector::run (record, submit, wait,
// read back).
// Counters: rays, achieved bound and error against the README (relative), truncated. The compute
// backend tests every triangle of both meshes per ray, so pairs past 20,000 triangles are skipped
// on it with the reason; large pairs (a million triangles) only with VKC_BENCH_LARGE_MESHES=1.
#include "tools/bench/bench_context.h"  // envIsOne
#include "tools/bench/gpu_timings.h"
#include "tools/bench/pair_scene.h"
#include "tools/bench/skip_on_error.h"
#include "vkcollide/ebpi.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>

namespace vkc::bench {
namespace {

constexpr double kRelativeTolerance = 1e-2;
constexpr size_t kComputeBackendTriangleLimit = 20000;

void BM_EbpiPair(benchmark::State& state, const SharedMeshPair& pair, EbpiRayBackendChoice backend) {
    PairBench& s = pairBench();
    std::string error = s.error.empty() ? "" : "no Vulkan device: " + s.error;
    PairScene* prepared = s.error.empty() ? cachedPairScene(s.context, s.cases, pair, error) : nullptr;
    if (!prepared) {
        state.SkipWithError(error.c_str());
        return;
    }
    const size_t triangles = (prepared->meshes.a.indices.size() + prepared->meshes.b.indices.size()) / 3;
    if (backend == EbpiRayBackendChoice::Compute && triangles > kComputeBackendTriangleLimit) {
        state.SkipWithError("the compute backend tests every triangle per ray: too slow past 20,000 triangles");
        return;
    }
    EbpiSettings settings;
    settings.tolerance = kRelativeTolerance * pair.referenceVolume;
    settings.rayBackend = backend;
    settings.resolution = 64;
    settings.maxSplit = 64;
    settings.maxRays = 1u << 19;
    settings.hitCapacity = 8;
    settings.maxPairs = 1;
    settings.maxGradientVertices = 1u << 22;
    settings.framesInFlight = 1;
    auto detector = EbpiDetector::create(s.context, settings);
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
    state.counters["triangles"] = double(triangles);
    state.counters["rays"] = double(d.rays);
    state.counters["truncated"] = d.truncated;
    state.counters["rel_error"] = std::abs(d.volume - pair.referenceVolume) / pair.referenceVolume;
    state.counters["rel_bound"] = d.volumeErrorBound / pair.referenceVolume;
    state.counters["image_ms"] = perIteration(stages.image);
    state.counters["rays_ms"] = perIteration(stages.rays);
    state.counters["bvh_ms"] = perIteration(stages.bvh);
    state.counters["casting_ms"] = perIteration(stages.casting);
    state.counters["volume_ms"] = perIteration(stages.volume);
    timings.setTotalCounter(state);
}

}  // namespace
}  // namespace vkc::bench

int main(int argc, char** argv) {
    using vkc::EbpiRayBackendChoice;
    const bool includeLarge = vkc::bench::envIsOne("VKC_BENCH_LARGE_MESHES");
    for (const vkc::bench::SharedMeshPair& pair : vkc::bench::sharedMeshPairs())
        for (EbpiRayBackendChoice backend : {EbpiRayBackendChoice::RayQuery, EbpiRayBackendChoice::RayTracingPipeline,
                                             EbpiRayBackendChoice::Compute}) {
            if (pair.large && !includeLarge) continue;
            const std::string label =
                std::string("BM_EbpiPair/") + pair.name + "/" + vkc::ebpiRayBackendName(backend);
            benchmark::RegisterBenchmark(label.c_str(), vkc::bench::BM_EbpiPair, pair, backend)
                ->Unit(benchmark::kMillisecond)
                ->Iterations(3);
        }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
