// Method ldi (paper 2) timings in the style of the paper's Tables 1 and 2, per shared-mesh pair of
// the meshes README at 256^2 and 512^2 (the paper used 128^2): stages 1+2 (VoI and both LDIs by
// depth peeling: every ldi pass up to ldi-sort) and stage 3a (intersection volume) / 3b (vertex in
// volume: both objects' vertices) from GPU timestamps, per LdiDetector::run (record, submit, wait,
// read back). Table 2: 100,000 random points in one object's box against its LDI (classifyPoints).
// Counters: layers (n_max of A and B), volume and its error against the README, the stated bound,
// inside vertices (points), stage timings in ms, the layer cap. BM_LdiLayerCap: stages 1+2 and 3a
// at caps of 8, 32, 64 and the pair's own n_max (issue 14: the cost must follow n_max). Pairs whose meshes are not closed solids are skipped with the reason.
#include "tools/bench/bench_context.h"
#include "tools/bench/detector_cache.h"
#include "tools/bench/gpu_timings.h"
#include "tools/bench/pair_scene.h"
#include "tools/bench/skip_on_error.h"
#include "vkcollide/ldi.h"

#include <benchmark/benchmark.h>
#include <glm/gtc/matrix_transform.hpp>

#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <string>

namespace vkc::bench {
namespace {

// Stage 1+2: every pass of the frame up to and including the sort (the VoI is computed on the CPU
// at record time, the broadphase is not timed).
bool isVolume(const std::string& pass) { return pass == "ldi-volume" || pass == "ldi-volume-sum"; }
bool isPoints(const std::string& pass) { return pass == "ldi-points"; }
bool isGeneration(const std::string& pass) { return !isVolume(pass) && !isPoints(pass) && pass != "ldi-readback"; }

// Both benchmark families report the same counters (one CSV header): ms are per iteration.
struct Counters {
    double layersA, layersB, truncated, volume, relError, relBound, inside, stage12Ms, stage3aMs, stage3bMs, layerCap;
};

void setCounters(benchmark::State& state, const Counters& c) {
    state.counters["layers_a"] = c.layersA;
    state.counters["layers_b"] = c.layersB;
    state.counters["truncated"] = c.truncated;
    state.counters["volume"] = c.volume;
    state.counters["rel_error"] = c.relError;
    state.counters["rel_bound"] = c.relBound;
    state.counters["inside"] = c.inside;
    state.counters["stage12_ms"] = perIteration(c.stage12Ms);
    state.counters["stage3a_ms"] = perIteration(c.stage3aMs);
    state.counters["stage3b_ms"] = perIteration(c.stage3bMs);
    state.counters["layer_cap"] = c.layerCap;
}

// One context (pair_scene.h) and a detector per resolution and layer cap (detector_cache.h) for the
// process; pairs are loaded on first use and warmed up once (lavapipe compiles pipeline variants at
// first draw).
constexpr uint32_t kTableLayerCap = 32;
LdiDetector* detectorAt(uint32_t resolution, std::string& error, uint32_t layerCap = kTableLayerCap) {
    PairBench& s = pairBench();
    // Made after the context, so destroyed before it.
    static std::map<uint32_t, std::map<uint32_t, std::unique_ptr<LdiDetector>>> detectors;  // by cap, resolution
    if (!s.error.empty()) {
        error = "no Vulkan device: " + s.error;
        return nullptr;
    }
    LdiSettings settings;
    settings.resolution = resolution;
    settings.layerCap = layerCap;
    settings.maxPairs = 1;
    settings.framesInFlight = 1;
    return cachedDetector(detectors[layerCap], s.context, settings, error);
}

struct Prepared {
    LdiDetector* detector = nullptr;
    PairScene* pair = nullptr;  // null when the case is skipped
};

// The detector at `resolution` and `layerCap` and the pair's case; when either cannot be had, the
// benchmark is skipped with the reason.
Prepared prepare(benchmark::State& state, const SharedMeshPair& pair, uint32_t resolution,
                 uint32_t layerCap = kTableLayerCap) {
    std::string error;
    Prepared prepared;
    prepared.detector = detectorAt(resolution, error, layerCap);
    if (prepared.detector) prepared.pair = cachedPairScene(pairBench().context, pairBench().cases, pair, error);
    if (!prepared.pair) state.SkipWithError(error.c_str());
    return prepared;
}

// LdiDetector::run on the prepared pair, warmed up once, then timed; the counters of its last run.
void timePairRuns(benchmark::State& state, const Prepared& prepared, const SharedMeshPair& pair, uint32_t layerCap) {
    LdiDetector& detector = *prepared.detector;
    const PairScene& scene = *prepared.pair;
    if (skippedOnError(state, detector.run(*scene.scene, scene.pcs))) return;  // warm-up
    GpuTimings timings;
    LdiFrameDetails details;
    size_t insideVertices = 0;
    for (auto _ : state) {
        auto results = detector.run(*scene.scene, scene.pcs, &details);
        if (skippedOnError(state, results)) return;
        timings.add(results->gpuTimingsMs);
        insideVertices = results->pairs.empty() ? 0 : results->pairs[0].insideVertices.size();
    }
    if (details.pairs.size() != 1) return state.SkipWithError("the pair's boxes do not overlap");
    const LdiPairDetails& d = details.pairs[0];
    setCounters(state, {double(d.layersA), double(d.layersB), double(d.truncated), d.volume,
                        std::abs(d.volume - pair.referenceVolume) / pair.referenceVolume,
                        d.volumeErrorBound / pair.referenceVolume, double(insideVertices),
                        timings.totalMs(isGeneration), timings.totalMs(isVolume), timings.totalMs(isPoints),
                        double(layerCap)});
}

void BM_LdiPair(benchmark::State& state, const SharedMeshPair& pair, uint32_t resolution) {
    const Prepared prepared = prepare(state, pair, resolution);
    if (prepared.pair) timePairRuns(state, prepared, pair, kTableLayerCap);
}

// Issue 14: the cost must follow the layers the scene has, not the cap. The pair at 256^2 with a
// layer cap of `layerCap`, or (0) of the pair's own n_max, found by a run at the table's cap of 32.
void BM_LdiLayerCap(benchmark::State& state, const SharedMeshPair& pair, uint32_t layerCap) {
    constexpr uint32_t kResolution = 256;
    if (layerCap == 0) {
        const Prepared widest = prepare(state, pair, kResolution);
        if (!widest.pair) return;
        LdiFrameDetails details;
        if (skippedOnError(state, widest.detector->run(*widest.pair->scene, widest.pair->pcs, &details))) return;
        if (details.pairs.size() != 1) return state.SkipWithError("the pair's boxes do not overlap");
        layerCap = std::max({1u, details.pairs[0].layersA, details.pairs[0].layersB});
    }
    const Prepared prepared = prepare(state, pair, kResolution, layerCap);
    if (prepared.pair) timePairRuns(state, prepared, pair, layerCap);
}

// Table 2: the LDI of object A over its own box, 100,000 random points in that box tested.
void BM_LdiPoints(benchmark::State& state, const SharedMeshPair& pair, uint32_t resolution) {
    const auto [detector, prepared] = prepare(state, pair, resolution);
    if (!prepared) return;
    const Aabb box = prepared->pcs.worldBounds[0];
    std::mt19937 rng(17);
    std::vector<glm::vec3> points(100000);
    for (glm::vec3& p : points)
        for (int k = 0; k < 3; ++k) p[k] = std::uniform_real_distribution<float>(box.min[k], box.max[k])(rng);
    if (skippedOnError(state, detector->classifyPoints(*prepared->scene, 0, points))) return;  // warm-up
    GpuTimings timings;
    LdiPointResults last;
    for (auto _ : state) {
        auto results = detector->classifyPoints(*prepared->scene, 0, points);
        if (skippedOnError(state, results)) return;
        timings.add(results->gpuTimingsMs);
        last = std::move(results.value());
    }
    setCounters(state, {double(last.layers), 0, double(last.layersTruncated), 0, 0, 0, double(last.insideCount),
                        timings.totalMs(isGeneration), 0, timings.totalMs(isPoints), double(kTableLayerCap)});
}

}  // namespace
}  // namespace vkc::bench

int main(int argc, char** argv) {
    for (const vkc::bench::SharedMeshPair& pair : vkc::bench::sharedMeshPairs()) {
        if (pair.large) continue;
        for (uint32_t layerCap : {0u, 8u, 32u, 64u}) {
            const std::string name = "BM_LdiLayerCap/" + std::string(pair.name) + "/" +
                                     (layerCap == 0 ? std::string("n_max") : std::to_string(layerCap));
            benchmark::RegisterBenchmark(name.c_str(), vkc::bench::BM_LdiLayerCap, pair, layerCap)
                ->Unit(benchmark::kMillisecond);
        }
        for (uint32_t resolution : {256u, 512u}) {
            const std::string suffix = std::string(pair.name) + "/" + std::to_string(resolution);
            benchmark::RegisterBenchmark(("BM_LdiPair/" + suffix).c_str(), vkc::bench::BM_LdiPair, pair, resolution)
                ->Unit(benchmark::kMillisecond);
            benchmark::RegisterBenchmark(("BM_LdiPoints/" + suffix).c_str(), vkc::bench::BM_LdiPoints, pair, resolution)
                ->Unit(benchmark::kMillisecond);
        }
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
