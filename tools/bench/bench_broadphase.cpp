// GPU broadphase (Broadphase::run: record, submit, wait, read back) against its CPU reference
// (worldBounds + overlappingPairs), on random generated-solid scenes of 16..4096 objects at constant
// density and on one sphere pair at subdivisions 3..7 (vertex scaling). Every benchmark reports the
// same counters, so --benchmark_out_format=csv gets one column set (its reporter requires that).
#include "collision/broadphase/broadphase_reference.h"
#include "tools/bench/broadphase_setup.h"
#include "tools/bench/gpu_timings.h"
#include "tools/bench/random_solid_scene.h"
#include "tools/bench/skip_on_error.h"
#include "vkcollide/broadphase.h"

#include <benchmark/benchmark.h>

#include <limits>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace vkc::bench {
namespace {

enum class SceneKind { RandomSolids, SpherePair };

SolidScene makeScene(SceneKind kind, int64_t arg) {
    return kind == SceneKind::RandomSolids ? randomSolidScene(uint32_t(arg), 1234u + uint32_t(arg))
                                           : spherePairScene(uint32_t(arg));
}

constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

// One column set for every benchmark; gpuMs is NaN where nothing ran on the GPU.
void setCounters(benchmark::State& state, const SolidScene& solids, uint32_t pairCount, double gpuMsTotal) {
    state.counters["objects"] = double(solids.objectCount());
    state.counters["triangles"] = double(solids.triangleCount());
    state.counters["vertices"] = double(solids.vertexCount());
    state.counters["pairs"] = double(pairCount);
    state.counters["gpu_ms"] = perIteration(gpuMsTotal);
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(solids.objectCount()));
}

// A scene uploaded and run once (warm-up), kept across the repeated calls Google Benchmark makes
// while it picks an iteration count, so uploads are paid once per case.
struct GpuCase {
    SolidScene solids;
    std::unique_ptr<Scene> scene;
    uint32_t pairCount = 0;
};

// The setup's broadphase is null (with `error` set) when there is no device.
struct GpuSetup : BroadphaseSetup {
    std::map<std::pair<SceneKind, int64_t>, std::unique_ptr<GpuCase>> cases;
};

GpuSetup& gpuSetup() {
    static GpuSetup setup = [] {
        GpuSetup created;
        createContextAndBroadphase(created);
        return created;
    }();
    return setup;
}

// Null with `error` set when the case cannot run or its warm-up result is wrong.
GpuCase* gpuCase(SceneKind kind, int64_t arg, std::string& error) {
    GpuSetup& setup = gpuSetup();
    auto& cached = setup.cases[{kind, arg}];
    if (cached) return cached.get();
    if (!setup.broadphase) {
        error = "no Vulkan device: " + setup.error;
        return nullptr;
    }
    auto created = std::make_unique<GpuCase>();
    created->solids = makeScene(kind, arg);
    auto scene = toScene(setup.context, created->solids);
    if (!scene) {
        error = scene.status().describe();
        return nullptr;
    }
    created->scene = std::make_unique<Scene>(std::move(scene.value()));
    auto warmUp = setup.broadphase->run(*created->scene);
    if (!warmUp) {
        error = warmUp.status().describe();
        return nullptr;
    }
    if (warmUp->truncated) {
        error = "pair capacity too small for this scene";
        return nullptr;
    }
    // Guard against timing a broken path: the GPU pairs must be the reference rule on the GPU's boxes.
    if (overlappingPairs(warmUp->worldBounds, 0.0f) != warmUp->pairs) {
        error = "GPU pairs differ from overlappingPairs on the GPU's own bounds";
        return nullptr;
    }
    created->pairCount = warmUp->pairCount;
    cached = std::move(created);
    return cached.get();
}

void BM_BroadphaseGpu(benchmark::State& state, SceneKind kind) {
    std::string error;
    GpuCase* prepared = gpuCase(kind, state.range(0), error);
    if (prepared == nullptr) {
        state.SkipWithError(error.c_str());
        return;
    }
    GpuCase& gpu = *prepared;
    Broadphase& broadphase = *gpuSetup().broadphase;
    GpuTimings timings;
    for (auto _ : state) {
        auto results = broadphase.run(*gpu.scene);
        if (skippedOnError(state, results)) break;
        timings.add(results->gpuTimingsMs);
    }
    setCounters(state, gpu.solids, gpu.pairCount, timings.totalMs());
}

void BM_BroadphaseCpu(benchmark::State& state, SceneKind kind) {
    const SolidScene solids = makeScene(kind, state.range(0));
    std::vector<Aabb> bounds(solids.objectCount());
    size_t pairCount = 0;
    for (auto _ : state) {
        for (size_t i = 0; i < solids.objectCount(); ++i)
            bounds[i] = worldBounds(solids.meshes[solids.objectMesh[i]], solids.objectToWorld[i]);
        const std::vector<ObjectPair> pairs = overlappingPairs(bounds, 0.0f);
        pairCount = pairs.size();
        benchmark::DoNotOptimize(pairs.data());
    }
    setCounters(state, solids, uint32_t(pairCount), kNotMeasured);
}

// Wall time (UseRealTime): the GPU path waits on the device (lavapipe's own threads on a CPU-only
// machine), so the calling thread's CPU time would understate it.
BENCHMARK_CAPTURE(BM_BroadphaseGpu, random_solids, SceneKind::RandomSolids)
    ->ArgName("objects")->RangeMultiplier(4)->Range(16, 4096)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BroadphaseCpu, random_solids, SceneKind::RandomSolids)
    ->ArgName("objects")->RangeMultiplier(4)->Range(16, 4096)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BroadphaseGpu, sphere_pair, SceneKind::SpherePair)
    ->ArgName("subdivisions")->DenseRange(3, 7)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BroadphaseCpu, sphere_pair, SceneKind::SpherePair)
    ->ArgName("subdivisions")->DenseRange(3, 7)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace vkc::bench

BENCHMARK_MAIN();
