// Method ldi (paper 2) timings in the style of the paper's Tables 1 and 2, per shared-mesh pair of
// the meshes README at 256^2 and 512^2 (the paper used 128^2): stages 1+2 (VoI and both LDIs by
// depth peeling: every ldi pass up to ldi-sort) and stage 3a (intersection volume) / 3b (vertex in
// volume: both objects' vertices) from GPU timestamps, per LdiDetector::run (record, submit, wait,
// read back). Table 2: 100,000 random points in one object's box against its LDI (classifyPoints).
// Counters: layers (n_max of A and B), volume and its error against the README, the stated bound,
// inside vertices (points), stage timings in ms. Pairs whose meshes are not closed solids are skipped with the reason.
#include "tools/bench/shared_mesh_pairs.h"
#include "vkcollide/context.h"
#include "vkcollide/ldi.h"

#include <benchmark/benchmark.h>
#include <glm/gtc/matrix_transform.hpp>

#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>

namespace vkc::bench {
namespace {

void logToStderr(void*, LogLevel level, const char* message) {
    if (level >= LogLevel::Warning) std::fprintf(stderr, "%s\n", message);
}

// Stage 1+2: every pass of the frame up to and including the sort (the VoI is computed on the CPU
// at record time, the broadphase is not timed).
bool isVolume(const std::string& pass) { return pass == "ldi-volume" || pass == "ldi-volume-sum"; }
bool isGeneration(const std::string& pass) { return !isVolume(pass) && pass != "ldi-points" && pass != "ldi-readback"; }

// Both benchmark families report the same counters (one CSV header): ms are per iteration.
struct Counters {
    double layersA, layersB, truncated, volume, relError, relBound, inside, stage12Ms, stage3aMs, stage3bMs;
};

void setCounters(benchmark::State& state, const Counters& c) {
    state.counters["layers_a"] = c.layersA;
    state.counters["layers_b"] = c.layersB;
    state.counters["truncated"] = c.truncated;
    state.counters["volume"] = c.volume;
    state.counters["rel_error"] = c.relError;
    state.counters["rel_bound"] = c.relBound;
    state.counters["inside"] = c.inside;
    state.counters["stage12_ms"] = benchmark::Counter(c.stage12Ms, benchmark::Counter::kAvgIterations);
    state.counters["stage3a_ms"] = benchmark::Counter(c.stage3aMs, benchmark::Counter::kAvgIterations);
    state.counters["stage3b_ms"] = benchmark::Counter(c.stage3bMs, benchmark::Counter::kAvgIterations);
}

struct PairCase {
    LoadedMeshPair meshes;
    std::unique_ptr<Scene> scene;
    BroadphaseResults pcs;
};

// One context and a detector per resolution for the process; pairs are loaded on first use and
// warmed up once (lavapipe compiles pipeline variants at first draw).
struct Setup {
    Context context;
    std::map<uint32_t, std::unique_ptr<LdiDetector>> detectors;
    std::map<std::string, std::unique_ptr<PairCase>> cases;  // destroyed before the context
    std::string error;
};

Setup& setup() {
    static Setup created = [] {
        Setup s;
        HeadlessDesc desc{};
        desc.log = logToStderr;
        auto context = createHeadlessContext(desc);
        if (!context) s.error = context.status().describe();
        else s.context = std::move(context.value());
        return s;
    }();
    return created;
}

LdiDetector* detectorAt(uint32_t resolution, std::string& error) {
    Setup& s = setup();
    if (!s.error.empty()) {
        error = "no Vulkan device: " + s.error;
        return nullptr;
    }
    auto& detector = s.detectors[resolution];
    if (!detector) {
        LdiSettings settings;
        settings.resolution = resolution;
        settings.layerCap = 32;
        settings.maxPairs = 1;
        settings.framesInFlight = 1;
        auto created = LdiDetector::create(s.context, settings);
        if (!created) {
            error = created.status().describe();
            return nullptr;
        }
        detector = std::make_unique<LdiDetector>(std::move(created.value()));
    }
    return detector.get();
}

PairCase* pairCase(const SharedMeshPair& pair, std::string& error) {
    Setup& s = setup();
    auto& cached = s.cases[pair.name];
    if (cached) return cached.get();
    auto meshes = loadMeshPair(pair);
    if (!meshes) {
        error = meshes.status().describe();
        return nullptr;
    }
    auto created = std::make_unique<PairCase>();
    created->meshes = std::move(meshes.value());
    auto scene = Scene::create(s.context, kVolumeMethodRequirements);
    if (!scene) {
        error = scene.status().describe();
        return nullptr;
    }
    created->scene = std::make_unique<Scene>(std::move(scene.value()));
    const MeshData* data[2] = {&created->meshes.a, &created->meshes.b};
    const glm::mat4 transforms[2] = {created->meshes.transformA, created->meshes.transformB};
    for (int i = 0; i < 2; ++i) {
        auto mesh = created->scene->addMesh({i == 0 ? pair.fileA : pair.fileB, data[i]});
        if (!mesh) {
            error = mesh.status().describe();
            return nullptr;
        }
        auto object = created->scene->addObject(mesh.value(), transforms[i]);
        if (!object) {
            error = object.status().describe();
            return nullptr;
        }
        created->pcs.worldBounds.push_back(placedMeshBounds(*data[i], transforms[i]));
    }
    created->pcs.pairs = {{0, 1}};
    created->pcs.pairCount = 1;
    cached = std::move(created);
    return cached.get();
}

void BM_LdiPair(benchmark::State& state, const SharedMeshPair& pair, uint32_t resolution) {
    std::string error;
    LdiDetector* detector = detectorAt(resolution, error);
    PairCase* prepared = detector ? pairCase(pair, error) : nullptr;
    if (!prepared) {
        state.SkipWithError(error.c_str());
        return;
    }
    auto warmUp = detector->run(*prepared->scene, prepared->pcs);
    if (!warmUp) {
        state.SkipWithError(warmUp.status().describe().c_str());
        return;
    }
    double generationMs = 0.0, volumeMs = 0.0, pointsMs = 0.0;
    LdiFrameDetails details;
    size_t insideVertices = 0;
    for (auto _ : state) {
        auto results = detector->run(*prepared->scene, prepared->pcs, &details);
        if (!results) {
            state.SkipWithError(results.status().describe().c_str());
            return;
        }
        for (const auto& [pass, ms] : results->gpuTimingsMs) {
            if (isVolume(pass)) volumeMs += ms;
            else if (pass == "ldi-points") pointsMs += ms;
            else if (isGeneration(pass)) generationMs += ms;
        }
        insideVertices = results->pairs.empty() ? 0 : results->pairs[0].insideVertices.size();
    }
    if (details.pairs.size() != 1) {
        state.SkipWithError("the pair's boxes do not overlap");
        return;
    }
    const LdiPairDetails& d = details.pairs[0];
    setCounters(state, {d.layersA, d.layersB, d.truncated, d.volume,
                        std::abs(d.volume - pair.referenceVolume) / pair.referenceVolume,
                        d.volumeErrorBound / pair.referenceVolume, double(insideVertices), generationMs, volumeMs,
                        pointsMs});
}

// Table 2: the LDI of object A over its own box, 100,000 random points in that box tested.
void BM_LdiPoints(benchmark::State& state, const SharedMeshPair& pair, uint32_t resolution) {
    std::string error;
    LdiDetector* detector = detectorAt(resolution, error);
    PairCase* prepared = detector ? pairCase(pair, error) : nullptr;
    if (!prepared) {
        state.SkipWithError(error.c_str());
        return;
    }
    const Aabb box = prepared->pcs.worldBounds[0];
    std::mt19937 rng(17);
    std::vector<glm::vec3> points(100000);
    for (glm::vec3& p : points)
        for (int k = 0; k < 3; ++k) p[k] = std::uniform_real_distribution<float>(box.min[k], box.max[k])(rng);
    auto warmUp = detector->classifyPoints(*prepared->scene, 0, points);
    if (!warmUp) {
        state.SkipWithError(warmUp.status().describe().c_str());
        return;
    }
    double generationMs = 0.0, pointsMs = 0.0;
    LdiPointResults last;
    for (auto _ : state) {
        auto results = detector->classifyPoints(*prepared->scene, 0, points);
        if (!results) {
            state.SkipWithError(results.status().describe().c_str());
            return;
        }
        for (const auto& [pass, ms] : results->gpuTimingsMs) {
            if (pass == "ldi-points") pointsMs += ms;
            else if (isGeneration(pass)) generationMs += ms;
        }
        last = std::move(results.value());
    }
    setCounters(state, {double(last.layers), 0, last.layersTruncated, 0, 0, 0, double(last.insideCount), generationMs,
                        0, pointsMs});
}

}  // namespace
}  // namespace vkc::bench

int main(int argc, char** argv) {
    for (const vkc::bench::SharedMeshPair& pair : vkc::bench::sharedMeshPairs()) {
        if (pair.large) continue;
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
