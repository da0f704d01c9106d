// Method consistent-pairs (paper 3, Jang, Jeong & Han) timings in the paper's two settings:
// Table 1, 50 and 100 objects of about 3k triangles moving in a cube (six shared meshes averaging
// 2,990 triangles, seeded random rigid poses at constant density), per frame; and Fig. 14, time
// against the view's resolution (256 to 1024 pixels per side) for the 50-object scene. The PCS
// comes from one broadphase run per case (untimed); each iteration is ConsistentPairsDetector::run
// (record, submit, wait, read back), timed in wall-clock time (the CPU mostly waits). Counters:
// objects, triangles, pairs, iterations (that the GPU ran), points, gpu_ms (sum of the method's
// pass timestamps) and gpu_<pass>_ms per pass label. BM_ConsistentPairs/iterations (issue 14):
// the same frame with maxIterations at the default 8 and at exactly the iterations the scene needs,
// whose costs must differ by less than 20%.
#include "tools/bench/broadphase_setup.h"
#include "tools/bench/candidate_scene.h"
#include "tools/bench/detector_cache.h"
#include "tools/bench/shared_mesh_pairs.h"
#include "tools/io/mesh_loader.h"
#include "vkcollide/consistent_pairs.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <utility>

namespace vkc::bench {
namespace {

// 3674 + 3714 + 3796 + 4160 + 1280 + 1300 triangles: 2,987 on average, the paper's "3K polygons".
constexpr const char* kMeshes[] = {"bunny_npm.obj", "couplingdown.off", "ballA.off",
                                   "knot.off",      "sphere_ico4.stl",  "pinion_gear.off"};
constexpr float kMeshSize = 1.5f;  // world units: the longest side of each mesh's box

// `count` objects cycling through the shared meshes (scaled to kMeshSize) at seeded random poses
// in a cube whose volume grows with the count.
Result<SolidScene> sharedMeshScene(uint32_t count, uint32_t seed) {
    SolidScene scene;
    for (const char* file : kMeshes) {
        auto mesh = io::loadMesh(sharedMeshDir() / file);
        if (!mesh) return mesh.status();
        MeshData data = std::move(mesh.value());
        glm::vec3 lo(INFINITY), hi(-INFINITY);
        for (const glm::vec3& p : data.positions) {
            lo = glm::min(lo, p);
            hi = glm::max(hi, p);
        }
        const float scale = kMeshSize / std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
        for (glm::vec3& p : data.positions) p = (p - (lo + hi) * 0.5f) * scale;
        scene.meshes.push_back(std::move(data));
    }
    placeAtRandom(scene, count, seed);
    return scene;
}

// One detector per resolution (detector_cache.h) beside the context; each case is warmed up once.
struct Setup : BroadphaseSetup {
    // By maxIterations (0: the default), then resolution.
    std::map<uint32_t, std::map<uint32_t, std::unique_ptr<ConsistentPairsDetector>>> detectors;
    std::map<uint32_t, std::unique_ptr<CandidateScene>> cases;              // by object count
};

Setup& setup() {
    static Setup created = [] {
        Setup s;
        createContextAndBroadphase(s);
        return s;
    }();
    return created;
}

ConsistentPairsDetector* detectorAt(uint32_t resolution, uint32_t maxIterations, std::string& error) {
    ConsistentPairsSettings settings;
    settings.resolution = resolution;
    settings.maxIterations = maxIterations;
    settings.pointCapacity = 1u << 20;  // so that no case is truncated
    return cachedDetector(setup().detectors[maxIterations], setup().context, settings, error);
}

CandidateScene* prepare(uint32_t objects, ConsistentPairsDetector& detector, std::string& error) {
    Setup& s = setup();
    auto& cached = s.cases[objects];
    if (!cached) {
        auto solids = sharedMeshScene(objects, 2006u + objects);
        if (!solids) {
            error = solids.status().describe();
            return nullptr;
        }
        auto created = prepareCandidateScene(s.context, *s.broadphase, std::move(solids.value()));
        if (!created) {
            error = created.status().describe();
            return nullptr;
        }
        cached = std::move(created.value());
    }
    auto warmUp = detector.run(*cached->scene, cached->pcs);
    if (!warmUp) {
        error = warmUp.status().describe();
        return nullptr;
    }
    return cached.get();
}

// The iterations a default detector runs on the case: what the scene needs.
uint32_t iterationsNeeded(uint32_t objects, uint32_t resolution, std::string& error) {
    ConsistentPairsDetector* detector = detectorAt(resolution, 0, error);
    CandidateScene* prepared = detector ? prepare(objects, *detector, error) : nullptr;
    if (!prepared) return 0;
    ConsistentPairsFrameDetails details;
    auto ran = detector->run(*prepared->scene, prepared->pcs, &details);
    if (!ran) {
        error = ran.status().describe();
        return 0;
    }
    return details.iterationsRun;
}

// Args: objects, resolution, and with BM_ConsistentPairs/iterations maxIterations (0: exactly the
// iterations needed; otherwise the setting, 0 being the default).
void BM_ConsistentPairs(benchmark::State& state) {
    std::string error;
    if (!setup().broadphase) {
        state.SkipWithError(("no Vulkan device: " + setup().error).c_str());
        return;
    }
    const uint32_t objects = uint32_t(state.range(0)), resolution = uint32_t(state.range(1));
    uint32_t maxIterations = state.range(2);
    if (state.range(2) == 0 && !(maxIterations = iterationsNeeded(objects, resolution, error))) {
        state.SkipWithError(error.c_str());
        return;
    }
    ConsistentPairsDetector* detector = detectorAt(resolution, maxIterations, error);
    CandidateScene* prepared = detector ? prepare(objects, *detector, error) : nullptr;
    if (!prepared) {
        state.SkipWithError(error.c_str());
        return;
    }
    state.counters["max_iterations"] = double(maxIterations);
    ConsistentPairsFrameDetails details;
    GpuTimings timings;
    auto runFrame = [&] { return detector->run(*prepared->scene, prepared->pcs, &details); };
    if (!timeFrames(state, *prepared, runFrame, timings)) return;
    state.counters["iterations"] = double(details.iterationsRun);
    state.counters["points"] = double(details.pointCount);
    timings.setPassCounters(state);
}

// Table 1: 50 and 100 objects, at the method's default resolution.
BENCHMARK(BM_ConsistentPairs)->Name("BM_ConsistentPairs/table1")
    ->ArgNames({"objects", "resolution", "max_iterations"})
    ->Args({50, 1024, 8})->Args({100, 1024, 8})
    ->UseRealTime()->Unit(benchmark::kMillisecond);
// Fig. 14: time against resolution.
BENCHMARK(BM_ConsistentPairs)->Name("BM_ConsistentPairs/resolution")
    ->ArgNames({"objects", "resolution", "max_iterations"})
    ->Args({50, 256, 8})->Args({50, 512, 8})->Args({50, 768, 8})->Args({50, 1024, 8})
    ->UseRealTime()->Unit(benchmark::kMillisecond);
// Issue 14: 8 allowed iterations against exactly the iterations needed (max_iterations 0).
BENCHMARK(BM_ConsistentPairs)->Name("BM_ConsistentPairs/iterations")
    ->ArgNames({"objects", "resolution", "max_iterations"})
    ->Args({50, 256, 0})->Args({50, 256, 8})->Args({50, 1024, 0})->Args({50, 1024, 8})
    ->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace vkc::bench

BENCHMARK_MAIN();
