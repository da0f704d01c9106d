// Method stencil (paper 1, CInDeR) timings against object count (boxes of 12 triangles at constant
// density: paper Fig. 9) and against triangle count (two overlapping icospheres at subdivisions
// 1..6: Fig. 10). Both should grow linearly. The PCS comes from one broadphase run per case
// (untimed); each iteration is StencilDetector::run (record, submit, wait, read back) at 256^2
// with three views. Counters: objects, triangles, pairs, gpu_ms (sum of the stencil passes'
// timestamps); --benchmark_out_format=csv writes one column set.
#include "collision/scene/generated_solids.h"
#include "tools/bench/broadphase_setup.h"
#include "tools/bench/candidate_scene.h"
#include "vkcollide/stencil.h"

#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>
#include <utility>

namespace vkc::bench {
namespace {

enum class Family { Boxes, SpherePair };

// `count` unit boxes (12 triangles, as in the paper's Fig. 9) at seeded random poses, density constant.
SolidScene boxScene(uint32_t count, uint32_t seed) {
    SolidScene scene;
    scene.meshes.push_back(solids::box({1.0f, 1.0f, 1.0f}));
    placeAtRandom(scene, count, seed);
    return scene;
}

SolidScene makeScene(Family family, int64_t arg) {
    return family == Family::Boxes ? boxScene(uint32_t(arg), 4321u + uint32_t(arg)) : spherePairScene(uint32_t(arg));
}

// One detector for the process, like the context: lavapipe compiles pipelines at first draw,
// which must not land in a timed loop (each case is warmed up once).
struct Setup : BroadphaseSetup {
    std::unique_ptr<StencilDetector> detector;
    std::map<std::pair<Family, int64_t>, std::unique_ptr<CandidateScene>> cases;
};

Setup& setup() {
    static Setup created = [] {
        Setup s;
        if (!createContextAndBroadphase(s)) return s;
        StencilSettings settings;
        settings.resolution = 256;  // the paper's off-screen surface
        auto detector = StencilDetector::create(s.context, settings);
        if (!detector) {
            s.error = detector.status().describe();
            return s;
        }
        s.detector = std::make_unique<StencilDetector>(std::move(detector.value()));
        return s;
    }();
    return created;
}

CandidateScene* prepare(Family family, int64_t arg, std::string& error) {
    Setup& s = setup();
    auto& cached = s.cases[{family, arg}];
    if (cached) return cached.get();
    if (!s.detector) {
        error = "no Vulkan device: " + s.error;
        return nullptr;
    }
    auto created = prepareCandidateScene(s.context, *s.broadphase, makeScene(family, arg));
    if (!created) {
        error = created.status().describe();
        return nullptr;
    }
    auto warmUp = s.detector->run(*created.value()->scene, created.value()->pcs);
    if (!warmUp) {
        error = warmUp.status().describe();
        return nullptr;
    }
    cached = std::move(created.value());
    return cached.get();
}

void BM_Stencil(benchmark::State& state, Family family) {
    std::string error;
    CandidateScene* prepared = prepare(family, state.range(0), error);
    if (!prepared) {
        state.SkipWithError(error.c_str());
        return;
    }
    StencilDetector& detector = *setup().detector;
    GpuTimings timings;
    timeFrames(state, *prepared, [&] { return detector.run(*prepared->scene, prepared->pcs); }, timings);
}

BENCHMARK_CAPTURE(BM_Stencil, objects, Family::Boxes)
    ->Arg(16)->Arg(32)->Arg(64)->Arg(128)->Arg(256)->Arg(512)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Stencil, triangles, Family::SpherePair)
    ->DenseRange(1, 6)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace vkc::bench

BENCHMARK_MAIN();
