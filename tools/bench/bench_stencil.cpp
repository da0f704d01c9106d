// Method stencil (paper 1, CInDeR) timings against object count (boxes of 12 triangles at constant
// density: paper Fig. 9) and against triangle count (two overlapping icospheres at subdivisions
// 1..6: Fig. 10). Both should grow linearly. The PCS comes from one broadphase run per case
// (untimed); each iteration is StencilDetector::run (record, submit, wait, read back) at 256^2
// with three views. Counters: objects, triangles, pairs, gpu_ms (sum of the stencil passes'
// timestamps); --benchmark_out_format=csv writes one column set.
//
// Build (tools/bench/CMakeLists.txt, for the lead):
//   add_executable(bench_stencil bench_stencil.cpp random_solid_scene.cpp)
//   target_link_libraries(bench_stencil PRIVATE vkcollide benchmark::benchmark)
//   target_include_directories(bench_stencil PRIVATE ${PROJECT_SOURCE_DIR})
#include "collision/generated_solids.h"
#include "tools/bench/random_solid_scene.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/context.h"
#include "vkcollide/stencil.h"

#include <benchmark/benchmark.h>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>

namespace vkc::bench {
namespace {

enum class Family { Boxes, SpherePair };

// `count` unit boxes (12 triangles, as in the paper's Fig. 9) at seeded random poses, density constant.
SolidScene boxScene(uint32_t count, uint32_t seed) {
    SolidScene scene;
    scene.meshes.push_back(solids::box({1.0f, 1.0f, 1.0f}));
    const float side = std::cbrt(kVolumePerObject * float(count));
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> position(-side / 2, side / 2), unit(-1.0f, 1.0f);
    for (uint32_t i = 0; i < count; ++i) {
        glm::quat rotation = glm::normalize(glm::quat(unit(rng), unit(rng), unit(rng), unit(rng)));
        scene.objectMesh.push_back(0);
        scene.objectToWorld.push_back(glm::translate(glm::mat4(1.0f), {position(rng), position(rng), position(rng)}) *
                                      glm::mat4_cast(rotation));
    }
    return scene;
}

SolidScene makeScene(Family family, int64_t arg) {
    return family == Family::Boxes ? boxScene(uint32_t(arg), 4321u + uint32_t(arg)) : spherePairScene(uint32_t(arg));
}

void logToStderr(void*, LogLevel level, const char* message) {
    if (level >= LogLevel::Warning) std::fprintf(stderr, "%s\n", message);
}

struct Case {
    SolidScene solids;
    std::unique_ptr<Scene> scene;
    BroadphaseResults pcs;
};

// One context, broadphase and detector for the process: lavapipe compiles pipelines at first
// draw, which must not land in a timed loop (each case is warmed up once).
struct Setup {
    Context context;
    std::unique_ptr<Broadphase> broadphase;
    std::unique_ptr<StencilDetector> detector;
    std::map<std::pair<Family, int64_t>, std::unique_ptr<Case>> cases;  // destroyed before the context
    std::string error;
};

Setup& setup() {
    static Setup created = [] {
        Setup s;
        HeadlessDesc desc{};
        desc.log = logToStderr;
        auto context = createHeadlessContext(desc);
        if (!context) {
            s.error = context.status().describe();
            return s;
        }
        s.context = std::move(context.value());
        auto broadphase = Broadphase::create(s.context);
        StencilSettings settings;
        settings.resolution = 256;  // the paper's off-screen surface
        auto detector = StencilDetector::create(s.context, settings);
        if (!broadphase || !detector) {
            s.error = !broadphase ? broadphase.status().describe() : detector.status().describe();
            return s;
        }
        s.broadphase = std::make_unique<Broadphase>(std::move(broadphase.value()));
        s.detector = std::make_unique<StencilDetector>(std::move(detector.value()));
        return s;
    }();
    return created;
}

Case* prepare(Family family, int64_t arg, std::string& error) {
    Setup& s = setup();
    auto& cached = s.cases[{family, arg}];
    if (cached) return cached.get();
    if (!s.detector) {
        error = "no Vulkan device: " + s.error;
        return nullptr;
    }
    auto created = std::make_unique<Case>();
    created->solids = makeScene(family, arg);
    auto scene = toScene(s.context, created->solids);
    if (!scene) {
        error = scene.status().describe();
        return nullptr;
    }
    created->scene = std::make_unique<Scene>(std::move(scene.value()));
    auto pcs = s.broadphase->run(*created->scene);
    if (!pcs) {
        error = pcs.status().describe();
        return nullptr;
    }
    created->pcs = std::move(pcs.value());
    auto warmUp = s.detector->run(*created->scene, created->pcs);
    if (!warmUp) {
        error = warmUp.status().describe();
        return nullptr;
    }
    cached = std::move(created);
    return cached.get();
}

void BM_Stencil(benchmark::State& state, Family family) {
    std::string error;
    Case* prepared = prepare(family, state.range(0), error);
    if (!prepared) {
        state.SkipWithError(error.c_str());
        return;
    }
    StencilDetector& detector = *setup().detector;
    double gpuMs = 0.0;
    size_t pairs = 0;
    for (auto _ : state) {
        auto results = detector.run(*prepared->scene, prepared->pcs);
        if (!results) {
            state.SkipWithError(results.status().describe().c_str());
            break;
        }
        for (const auto& [pass, ms] : results->gpuTimingsMs) gpuMs += ms;
        pairs = results->pairs.size();
    }
    state.counters["objects"] = double(prepared->solids.objectCount());
    state.counters["triangles"] = double(prepared->solids.triangleCount());
    state.counters["pairs"] = double(pairs);
    state.counters["gpu_ms"] = benchmark::Counter(gpuMs, benchmark::Counter::kAvgIterations);
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
