// The exact CPU oracle on the shared meshes README pairs: intersectingTrianglePairs (box broad
// phase + exact CGAL predicates) and intersectionVolume (Epeck corefinement), through the MeshData
// API as the harness calls them. The 1.38M-triangle armadillo pair runs only with
// VKC_BENCH_LARGE_MESHES=1 (its corefinement takes minutes). One counter set for the CSV reporter.
#include "collision/reference/intersection_volume.h"
#include "collision/reference/triangle_pairs.h"
#include "tools/bench/shared_mesh_pairs.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <string>

namespace vkc::bench {
namespace {

constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

// Same columns for both benchmarks; NaN marks what the benchmark does not compute.
void setCounters(benchmark::State& state, const LoadedMeshPair& meshes, double trianglePairs, double volume,
                 double referenceVolume) {
    state.counters["triangles_a"] = double(meshes.a.triangleCount());
    state.counters["triangles_b"] = double(meshes.b.triangleCount());
    state.counters["triangle_pairs"] = trianglePairs;
    state.counters["volume"] = volume;
    // Float inputs move the README's double-precision volumes by up to ~2e-8 (tests allow 1e-7).
    state.counters["volume_rel_error"] = std::isnan(volume) ? kNotMeasured : std::abs(volume - referenceVolume) / referenceVolume;
}

// Meshes are parsed once per pair, not on every call Google Benchmark makes while sizing a run.
const LoadedMeshPair* loadedPair(const SharedMeshPair& pair, std::string& error) {
    static std::map<std::string, std::unique_ptr<LoadedMeshPair>> cache;
    auto& cached = cache[pair.name];
    if (!cached) {
        auto loaded = loadMeshPair(pair);
        if (!loaded) {
            error = loaded.status().describe();
            return nullptr;
        }
        cached = std::make_unique<LoadedMeshPair>(std::move(loaded.value()));
    }
    return cached.get();
}

void BM_OracleTrianglePairs(benchmark::State& state, const SharedMeshPair& pair) {
    std::string error;
    const LoadedMeshPair* meshes = loadedPair(pair, error);
    if (meshes == nullptr) {
        state.SkipWithError(error.c_str());
        return;
    }
    size_t trianglePairs = 0;
    for (auto _ : state) {
        auto result = reference::intersectingTrianglePairs(meshes->a, meshes->transformA, meshes->b, meshes->transformB);
        if (!result) {
            state.SkipWithError(result.status().describe().c_str());
            break;
        }
        trianglePairs = result->pairs.size();
    }
    setCounters(state, *meshes, double(trianglePairs), kNotMeasured, pair.referenceVolume);
}

void BM_OracleIntersectionVolume(benchmark::State& state, const SharedMeshPair& pair) {
    std::string error;
    const LoadedMeshPair* meshes = loadedPair(pair, error);
    if (meshes == nullptr) {
        state.SkipWithError(error.c_str());
        return;
    }
    double volume = 0.0;
    for (auto _ : state) {
        auto result = reference::intersectionVolume(meshes->a, meshes->transformA, meshes->b, meshes->transformB);
        if (!result) {
            state.SkipWithError(result.status().describe().c_str());
            break;
        }
        volume = result.value();
    }
    setCounters(state, *meshes, kNotMeasured, volume, pair.referenceVolume);
}

bool largeMeshesRequested() {
    const char* env = std::getenv("VKC_BENCH_LARGE_MESHES");
    return env != nullptr && std::string(env) == "1";
}

void registerOracleBenchmarks() {
    const bool includeLarge = largeMeshesRequested();
    for (const SharedMeshPair& pair : sharedMeshPairs()) {
        if (pair.large && !includeLarge) continue;
        benchmark::RegisterBenchmark(("BM_OracleTrianglePairs/" + std::string(pair.name)).c_str(), BM_OracleTrianglePairs, pair)
            ->Unit(benchmark::kMillisecond);
    }
    for (const SharedMeshPair& pair : sharedMeshPairs()) {
        if (pair.large && !includeLarge) continue;
        benchmark::RegisterBenchmark(("BM_OracleIntersectionVolume/" + std::string(pair.name)).c_str(),
                                     BM_OracleIntersectionVolume, pair)
            ->Unit(benchmark::kMillisecond);
    }
}

}  // namespace
}  // namespace vkc::bench

int main(int argc, char** argv) {
    // Registered at run time: the pair list is data (shared_mesh_pairs.cpp), not one macro per pair.
    vkc::bench::registerOracleBenchmarks();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
