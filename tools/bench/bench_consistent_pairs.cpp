// Method consistent-pairs (paper 3, Jang, Jeong & Han) timings in the paper's two settings:
// Table 1, 50 and 100 objects of about 3k triangles moving in a cube (six shared meshes averaging
// 2,990 triangles, seeded random rigid poses at constant density), per frame; and Fig. 14, time
// against the view's resolution (256 to 1024 pixels per side) for the 50-object scene. The PCS
// comes from one broadphase run per case (untimed); each iteration is ConsistentPairsDetector::run
// (record, submit, wait, read back), timed in wall-clock time (the CPU mostly waits). Counters:
// objects, triangles, pairs, iterations (that the GPU ran), points, gpu_ms (sum of the method's
// pass timestamps) and gpu_<pass>_ms per pass label.
#include "tools/bench/random_solid_scene.h"
#include "tools/bench/shared_mesh_pairs.h"
#include "tools/io/mesh_loader.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/consistent_pairs.h"
#include "vkcollide/context.h"

#include <benchmark/benchmark.h>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
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
    const float side = std::cbrt(kVolumePerObject * float(count));
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> position(-side / 2, side / 2), unit(-1.0f, 1.0f);
    for (uint32_t i = 0; i < count; ++i) {
        glm::quat rotation = glm::normalize(glm::quat(unit(rng), unit(rng), unit(rng), unit(rng)));
        scene.objectMesh.push_back(i % uint32_t(scene.meshes.size()));
        scene.objectToWorld.push_back(glm::translate(glm::mat4(1.0f), {position(rng), position(rng), position(rng)}) *
                                      glm::mat4_cast(rotation));
    }
    return scene;
}

void logToStderr(void*, LogLevel level, const char* message) {
    if (level >= LogLevel::Warning) std::fprintf(stderr, "%s\n", message);
}

struct Case {
    SolidScene solids;
    std::unique_ptr<Scene> scene;
    BroadphaseResults pcs;
};

// One context and broadphase for the process, one detector per resolution: lavapipe compiles
// pipelines at first draw, which must not land in a timed loop (each case is warmed up once).
struct Setup {
    Context context;
    std::unique_ptr<Broadphase> broadphase;
    std::map<uint32_t, std::unique_ptr<ConsistentPairsDetector>> detectors;  // by resolution
    std::map<uint32_t, std::unique_ptr<Case>> cases;                         // by object count
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
        if (!broadphase) {
            s.error = broadphase.status().describe();
            return s;
        }
        s.broadphase = std::make_unique<Broadphase>(std::move(broadphase.value()));
        return s;
    }();
    return created;
}

ConsistentPairsDetector* detectorAt(uint32_t resolution, std::string& error) {
    Setup& s = setup();
    auto& detector = s.detectors[resolution];
    if (detector) return detector.get();
    ConsistentPairsSettings settings;
    settings.resolution = resolution;
    settings.pointCapacity = 1u << 20;  // so that no case is truncated
    auto created = ConsistentPairsDetector::create(s.context, settings);
    if (!created) {
        error = created.status().describe();
        return nullptr;
    }
    detector = std::make_unique<ConsistentPairsDetector>(std::move(created.value()));
    return detector.get();
}

Case* prepare(uint32_t objects, ConsistentPairsDetector& detector, std::string& error) {
    Setup& s = setup();
    auto& cached = s.cases[objects];
    if (!cached) {
        auto solids = sharedMeshScene(objects, 2006u + objects);
        if (!solids) {
            error = solids.status().describe();
            return nullptr;
        }
        auto created = std::make_unique<Case>();
        created->solids = std::move(solids.value());
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
        cached = std::move(created);
    }
    auto warmUp = detector.run(*cached->scene, cached->pcs);
    if (!warmUp) {
        error = warmUp.status().describe();
        return nullptr;
    }
    return cached.get();
}

// Args: objects, resolution.
void BM_ConsistentPairs(benchmark::State& state) {
    std::string error;
    if (!setup().broadphase) {
        state.SkipWithError(("no Vulkan device: " + setup().error).c_str());
        return;
    }
    ConsistentPairsDetector* detector = detectorAt(uint32_t(state.range(1)), error);
    Case* prepared = detector ? prepare(uint32_t(state.range(0)), *detector, error) : nullptr;
    if (!prepared) {
        state.SkipWithError(error.c_str());
        return;
    }
    std::map<std::string, double> passMs;
    double gpuMs = 0.0;
    ConsistentPairsFrameDetails details;
    size_t pairs = 0;
    for (auto _ : state) {
        auto results = detector->run(*prepared->scene, prepared->pcs, &details);
        if (!results) {
            state.SkipWithError(results.status().describe().c_str());
            break;
        }
        for (const auto& [pass, ms] : results->gpuTimingsMs) {
            gpuMs += ms;
            passMs[pass] += ms;
        }
        pairs = results->pairs.size();
    }
    state.counters["objects"] = double(prepared->solids.objectCount());
    state.counters["triangles"] = double(prepared->solids.triangleCount());
    state.counters["pairs"] = double(pairs);
    state.counters["iterations"] = double(details.iterationsRun);
    state.counters["points"] = double(details.pointCount);
    state.counters["gpu_ms"] = benchmark::Counter(gpuMs, benchmark::Counter::kAvgIterations);
    for (const auto& [pass, ms] : passMs)
        state.counters["gpu_" + pass + "_ms"] = benchmark::Counter(ms, benchmark::Counter::kAvgIterations);
}

// Table 1: 50 and 100 objects, at the method's default resolution.
BENCHMARK(BM_ConsistentPairs)->Name("BM_ConsistentPairs/table1")
    ->ArgNames({"objects", "resolution"})
    ->Args({50, 1024})->Args({100, 1024})
    ->UseRealTime()->Unit(benchmark::kMillisecond);
// Fig. 14: time against resolution.
BENCHMARK(BM_ConsistentPairs)->Name("BM_ConsistentPairs/resolution")
    ->ArgNames({"objects", "resolution"})
    ->Args({50, 256})->Args({50, 512})->Args({50, 768})->Args({50, 1024})
    ->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace vkc::bench

BENCHMARK_MAIN();
