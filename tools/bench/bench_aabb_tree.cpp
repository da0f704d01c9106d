// Method `aabb-tree` (paper 4) against FCL on the shared mesh pairs, in one run: the GPU detector
// (AabbTreeDetector::run), the CPU traversal of the same trees (traverseAabbTreesCpu) and
// fcl::collide with all contacts, plus both tree builds. Every case reports its triangle-pair count
// so the CSV shows they agree. Pairs over a million triangles only with VKC_BENCH_LARGE_MESHES=1.
#include "collision/aabb_tree/aabb_traversal_cpu.h"
#include "collision/aabb_tree/aabb_tree.h"
#include "collision/reference/triangle_pairs.h"
#include "tools/bench/bench_context.h"
#include "tools/bench/gpu_timings.h"
#include "tools/bench/shared_mesh_pairs.h"
#include "tools/bench/skip_on_error.h"
#include "vkcollide/aabb_tree.h"
#include "vkcollide/scene.h"

#include <benchmark/benchmark.h>
#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/math/bv/AABB.h>
#include <fcl/math/bv/OBBRSS.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/collision_object.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace vkc::bench {
namespace {

constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

// ---- The pair's meshes and our CPU trees (shared by every benchmark of the pair) ----

struct PreparedPair {
    LoadedMeshPair meshes;
    bool sameMesh = false;  // B is a translated copy of A: one mesh, one tree, one FCL model
    std::vector<AabbTree> trees;  // [A] or [A, B]
    uint32_t treeB = 0;

    std::vector<AabbTreeView> views() const {
        std::vector<AabbTreeView> result{{&trees[0], meshes.a.positions}};
        if (!sameMesh) result.push_back({&trees[1], meshes.b.positions});
        return result;
    }
    std::vector<const MeshData*> distinctMeshes() const {
        if (sameMesh) return {&meshes.a};
        return {&meshes.a, &meshes.b};
    }
};

// Only the current pair is kept: benchmarks are registered pair by pair, and the large pairs (with
// a GPU node-pair list of up to 1 GiB) must not pile up.
struct CurrentPair {
    std::string name;
    std::unique_ptr<PreparedPair> prepared;
    std::string error;
};

CurrentPair& currentPair() {
    static CurrentPair current;
    return current;
}

void releaseGpuCases();

const PreparedPair* preparedPair(const SharedMeshPair& pair, std::string& error) {
    CurrentPair& current = currentPair();
    if (current.name != pair.name) {
        releaseGpuCases();
        current = CurrentPair{};
        current.name = pair.name;
        auto loaded = loadMeshPair(pair);
        if (!loaded) {
            current.error = loaded.status().describe();
        } else {
            auto prepared = std::make_unique<PreparedPair>();
            prepared->meshes = std::move(loaded.value());
            prepared->sameMesh = std::string(pair.fileA) == pair.fileB;
            for (const MeshData* mesh : prepared->distinctMeshes()) {
                auto tree = buildAabbTree(*mesh);
                if (!tree) {
                    current.error = tree.status().describe();
                    break;
                }
                prepared->trees.push_back(std::move(tree.value()));
            }
            prepared->treeB = prepared->sameMesh ? 0 : 1;
            if (current.error.empty()) current.prepared = std::move(prepared);
        }
    }
    error = current.error;
    return current.prepared.get();
}

// preparedPair for a benchmark case: null (and the case skipped with the reason) on failure.
const PreparedPair* preparedPairOrSkip(benchmark::State& state, const SharedMeshPair& pair) {
    std::string error;
    const PreparedPair* prepared = preparedPair(pair, error);
    if (prepared == nullptr) state.SkipWithError(error.c_str());
    return prepared;
}

// One column set for every benchmark (the CSV reporter writes the first case's header); NaN marks
// what a case does not compute. boxTests: box pairs the traversal tested, all levels together.
void setCounters(benchmark::State& state, const PreparedPair& pair, double trianglePairs, double gpuMsTotal,
                 double boxTests) {
    state.counters["triangles_a"] = double(pair.meshes.a.triangleCount());
    state.counters["triangles_b"] = double(pair.meshes.b.triangleCount());
    state.counters["triangle_pairs"] = trianglePairs;
    state.counters["gpu_ms"] = perIteration(gpuMsTotal);
    state.counters["box_tests"] = boxTests;
    state.counters["node_pair_capacity"] = kNotMeasured;  // the GPU runs set theirs
}

// ---- Ours on the CPU ----

void BM_AabbTreeBuild(benchmark::State& state, const SharedMeshPair& pair) {
    const PreparedPair* prepared = preparedPairOrSkip(state, pair);
    if (prepared == nullptr) return;
    for (auto _ : state) {
        for (const MeshData* mesh : prepared->distinctMeshes()) {
            auto tree = buildAabbTree(*mesh);
            if (!tree) {
                state.SkipWithError(tree.status().describe().c_str());
                return;
            }
            benchmark::DoNotOptimize(tree->nodes.data());
        }
    }
    setCounters(state, *prepared, kNotMeasured, kNotMeasured, kNotMeasured);
}

// Everything the detector does per frame on its side for one pair (pair setup, seeds, levels),
// then the traversal itself. Counts only: the GPU run keeps no triangle list either.
Status traverseCpu(const PreparedPair& prepared, uint32_t trianglePairCapacity, AabbTraversalOutput& out) {
    const glm::mat4 bToA = glm::inverse(prepared.meshes.transformA) * prepared.meshes.transformB;
    auto pair = makeAabbPair(prepared.trees[0], 0, prepared.trees[prepared.treeB], prepared.treeB, bToA, 0, 1);
    if (!pair) return pair.status();
    std::vector<gpu::AabbPairGpu> pairs{pair.value()};
    const uint32_t levels = assignAabbGlobalLevels(pairs);
    const std::vector<AabbTreeView> trees = prepared.views();
    auto seeds = buildAabbSeedTable(trees, pairs, {});
    if (!seeds) return seeds.status();
    AabbTraversalSettings settings;
    settings.trianglePairCapacity = trianglePairCapacity;
    return traverseAabbTreesCpu(trees, pairs, seeds.value(), levels, settings, out);
}

double sumOf(std::span<const uint32_t> values) {
    double sum = 0.0;
    for (uint32_t v : values) sum += double(v);
    return sum;
}

void BM_AabbTreeCpu(benchmark::State& state, const SharedMeshPair& pair) {
    const PreparedPair* prepared = preparedPairOrSkip(state, pair);
    if (prepared == nullptr) return;
    AabbTraversalOutput out;
    for (auto _ : state) {
        out = AabbTraversalOutput{};
        Status status = traverseCpu(*prepared, 0, out);
        if (!status.ok()) {
            state.SkipWithError(status.describe().c_str());
            return;
        }
    }
    setCounters(state, *prepared, double(out.state.trianglePairCount), kNotMeasured,
                sumOf(out.state.levelTested));
}

// ---- Ours on the GPU ----

// One headless context for the process: lavapipe compiles pipelines at first use, which must not
// land in a timed loop. Detectors are per pair (their tree cache is keyed by mesh id, per scene).
struct GpuCase {
    std::unique_ptr<Scene> scene;
    std::unique_ptr<AabbTreeDetector> detector;
    BroadphaseResults candidates;  // pair (0, 1), with the objects' world boxes
    uint32_t nodePairCapacity = 0;
};

struct GpuSetup {
    Context context;
    std::string error;
    // Declared after the context so that scenes and detectors go first.
    std::string pairName;
    std::unique_ptr<GpuCase> plain;     // temporal coherence off: the same work every run
    std::unique_ptr<GpuCase> coherent;  // on: later runs start at the remembered entrance level
};

GpuSetup& gpuSetup() {
    static GpuSetup setup = [] {
        GpuSetup created;
        auto context = createBenchContext();
        if (!context) created.error = "no Vulkan device: " + context.status().describe();
        else created.context = std::move(context.value());
        return created;
    }();
    return setup;
}

void releaseGpuCases() {
    GpuSetup& setup = gpuSetup();
    setup.plain.reset();
    setup.coherent.reset();
    setup.pairName.clear();
}

// Uploads the pair, then runs it until no node-pair list overflows (growing the capacity 4x each
// time, up to 2^26 entries = 1 GiB per list): an overflowed count would be too low, and the first
// run also builds the detector's trees and warms the pipelines. Null with `error` set on failure.
std::unique_ptr<GpuCase> makeGpuCase(const PreparedPair& prepared, bool temporalCoherence, std::string& error) {
    Context& context = gpuSetup().context;
    for (uint32_t capacity = 1u << 20; capacity <= (1u << 26); capacity *= 4) {
        auto created = std::make_unique<GpuCase>();
        auto scene = Scene::create(context);
        if (!scene) {
            error = scene.status().describe();
            return nullptr;
        }
        created->scene = std::make_unique<Scene>(std::move(scene.value()));
        MeshDesc descA{};
        descA.name = "A";
        descA.data = &prepared.meshes.a;
        auto meshA = created->scene->addMesh(descA);
        if (!meshA) {
            error = meshA.status().describe();
            return nullptr;
        }
        MeshId meshB = meshA.value();
        if (!prepared.sameMesh) {
            MeshDesc descB{};
            descB.name = "B";
            descB.data = &prepared.meshes.b;
            auto added = created->scene->addMesh(descB);
            if (!added) {
                error = added.status().describe();
                return nullptr;
            }
            meshB = added.value();
        }
        if (!created->scene->addObject(meshA.value(), prepared.meshes.transformA, "A") ||
            !created->scene->addObject(meshB, prepared.meshes.transformB, "B")) {
            error = "addObject failed";
            return nullptr;
        }
        created->candidates.pairs = {{0, 1}};
        for (ObjectId object : {0u, 1u})
            created->candidates.worldBounds.push_back(placedMeshBounds(
                created->scene->mesh(created->scene->objectMesh(object)), created->scene->transform(object)));
        AabbTreeSettings settings;
        settings.nodePairCapacity = capacity;
        settings.framesInFlight = 1;  // run() waits for every frame
        settings.disableTemporalCoherence = !temporalCoherence;
        auto detector = AabbTreeDetector::create(context, settings);
        if (!detector) {
            error = detector.status().describe();
            return nullptr;
        }
        created->detector = std::make_unique<AabbTreeDetector>(std::move(detector.value()));
        created->nodePairCapacity = capacity;
        AabbTreeFrameDetails stats;
        // Two warm-up runs: the second starts at the entrance level the first remembered.
        for (int run = 0; run < 2; ++run) {
            auto results = created->detector->run(*created->scene, created->candidates, &stats);
            if (!results) {
                error = results.status().describe();
                return nullptr;
            }
        }
        if (!stats.nodePairOverflow) return created;
    }
    error = "node-pair list overflows even at 2^26 entries";
    return nullptr;
}

GpuCase* gpuCase(const SharedMeshPair& pair, const PreparedPair& prepared, bool temporalCoherence,
                 std::string& error) {
    GpuSetup& setup = gpuSetup();
    if (!setup.error.empty()) {
        error = setup.error;
        return nullptr;
    }
    if (setup.pairName != pair.name) {
        setup.plain.reset();
        setup.coherent.reset();
        setup.pairName = pair.name;
    }
    std::unique_ptr<GpuCase>& cached = temporalCoherence ? setup.coherent : setup.plain;
    if (!cached) cached = makeGpuCase(prepared, temporalCoherence, error);
    return cached.get();
}

// Wall time of the blocking run (record, submit, wait, read back); gpu_ms is the sum of the
// detector's pass timestamps (refit, indirect steps, traversal levels).
void BM_AabbTreeGpu(benchmark::State& state, const SharedMeshPair& pair, bool temporalCoherence) {
    std::string error;
    const PreparedPair* prepared = preparedPair(pair, error);
    GpuCase* gpu = prepared != nullptr ? gpuCase(pair, *prepared, temporalCoherence, error) : nullptr;
    if (gpu == nullptr) {
        state.SkipWithError(error.c_str());
        return;
    }
    GpuTimings timings;
    AabbTreeFrameDetails stats;
    for (auto _ : state) {
        auto results = gpu->detector->run(*gpu->scene, gpu->candidates, &stats);
        if (skippedOnError(state, results)) return;
        timings.add(results->gpuTimingsMs);
    }
    if (stats.nodePairOverflow) {
        state.SkipWithError("node-pair list overflowed: the count is too low");
        return;
    }
    setCounters(state, *prepared, double(stats.trianglePairCount), timings.totalMs(), sumOf(stats.levelTested));
    state.counters["node_pair_capacity"] = double(gpu->nodePairCapacity);
}

// ---- FCL ----

fcl::Transform3d toFcl(const glm::mat4& m) {
    fcl::Transform3d tf = fcl::Transform3d::Identity();
    for (int row = 0; row < 3; ++row) {
        for (int col = 0; col < 3; ++col) tf.linear()(row, col) = double(m[col][row]);
        tf.translation()(row) = double(m[3][row]);
    }
    return tf;
}

template <typename Bv>
std::shared_ptr<fcl::BVHModel<Bv>> buildFclModel(const MeshData& mesh) {
    std::vector<fcl::Vector3d> vertices;
    vertices.reserve(mesh.positions.size());
    for (const glm::vec3& p : mesh.positions) vertices.emplace_back(p.x, p.y, p.z);
    std::vector<fcl::Triangle> triangles;
    triangles.reserve(mesh.triangleCount());
    for (size_t t = 0; t < mesh.triangleCount(); ++t)
        triangles.emplace_back(mesh.indices[3 * t], mesh.indices[3 * t + 1], mesh.indices[3 * t + 2]);
    auto model = std::make_shared<fcl::BVHModel<Bv>>();
    model->beginModel(int(triangles.size()), int(vertices.size()));
    model->addSubModel(vertices, triangles);
    model->endModel();
    return model;
}

template <typename Bv>
struct FclPair {
    std::unique_ptr<fcl::CollisionObjectd> a;
    std::unique_ptr<fcl::CollisionObjectd> b;
};

template <typename Bv>
FclPair<Bv> makeFclPair(const PreparedPair& prepared) {
    auto modelA = buildFclModel<Bv>(prepared.meshes.a);
    auto modelB = prepared.sameMesh ? modelA : buildFclModel<Bv>(prepared.meshes.b);
    FclPair<Bv> pair;
    pair.a = std::make_unique<fcl::CollisionObjectd>(modelA, toFcl(prepared.meshes.transformA));
    pair.b = std::make_unique<fcl::CollisionObjectd>(modelB, toFcl(prepared.meshes.transformB));
    return pair;
}

// Every intersecting triangle pair: no contact cap (FCL stops at num_max_contacts), no contact
// geometry (enable_contact = false: FCL then only records the two triangle ids per pair).
fcl::CollisionRequestd allPairsRequest() {
    return fcl::CollisionRequestd(std::numeric_limits<size_t>::max(), false);
}

template <typename Bv>
void BM_FclBuild(benchmark::State& state, const SharedMeshPair& pair) {
    const PreparedPair* prepared = preparedPairOrSkip(state, pair);
    if (prepared == nullptr) return;
    for (auto _ : state) {
        for (const MeshData* mesh : prepared->distinctMeshes()) {
            auto model = buildFclModel<Bv>(*mesh);
            benchmark::DoNotOptimize(model.get());
        }
    }
    setCounters(state, *prepared, kNotMeasured, kNotMeasured, kNotMeasured);
}

template <typename Bv>
void BM_FclCollide(benchmark::State& state, const SharedMeshPair& pair) {
    const PreparedPair* prepared = preparedPairOrSkip(state, pair);
    if (prepared == nullptr) return;
    const FclPair<Bv> objects = makeFclPair<Bv>(*prepared);
    const fcl::CollisionRequestd request = allPairsRequest();
    size_t trianglePairs = 0;
    for (auto _ : state) {
        fcl::CollisionResultd result;
        fcl::collide(objects.a.get(), objects.b.get(), request, result);
        trianglePairs = result.numContacts();
    }
    setCounters(state, *prepared, double(trianglePairs), kNotMeasured, kNotMeasured);
}

// ---- Count check (VKC_BENCH_COMPARE_PAIRS=1): where ours and FCL's lists differ, and which one
// the exact CGAL oracle sides with. Printed to stderr before the benchmarks; not timed.

using TrianglePairSet = std::set<std::pair<uint32_t, uint32_t>>;

void comparePairLists(const SharedMeshPair& pair) {
    std::string error;
    const PreparedPair* prepared = preparedPair(pair, error);
    if (prepared == nullptr) {
        std::fprintf(stderr, "%s: %s\n", pair.name, error.c_str());
        return;
    }
    TrianglePairSet ours, fclPairs, oracle;
    AabbTraversalOutput out;
    if (Status status = traverseCpu(*prepared, std::numeric_limits<uint32_t>::max(), out); !status.ok()) {
        std::fprintf(stderr, "%s: %s\n", pair.name, status.describe().c_str());
        return;
    }
    for (const gpu::AabbTrianglePairGpu& p : out.trianglePairs) ours.insert({p.triangleA, p.triangleB});
    const FclPair<fcl::OBBRSSd> objects = makeFclPair<fcl::OBBRSSd>(*prepared);
    fcl::CollisionResultd result;
    fcl::collide(objects.a.get(), objects.b.get(), allPairsRequest(), result);
    std::vector<fcl::Contactd> contacts;
    result.getContacts(contacts);
    for (const fcl::Contactd& c : contacts) fclPairs.insert({uint32_t(c.b1), uint32_t(c.b2)});
    auto exact = reference::intersectingTrianglePairs(prepared->meshes.a, prepared->meshes.transformA,
                                                      prepared->meshes.b, prepared->meshes.transformB);
    if (exact) {
        for (const reference::TrianglePair& p : exact->pairs) oracle.insert({p.a, p.b});
    }
    // The traversal tests B's vertices after a float transform (aabbTransformPoint), the oracle
    // the double world points: the oracle on the traversal's own float inputs separates input
    // rounding from the tri-tri tolerance (pairs it confirms differ only by that rounding).
    TrianglePairSet oracleOnFloatInputs;
    {
        const glm::mat4 bToA = glm::inverse(prepared->meshes.transformA) * prepared->meshes.transformB;
        MeshData movedB = prepared->meshes.b;
        for (glm::vec3& p : movedB.positions) p = gpu::aabbTransformPoint(bToA, p);
        auto onFloat = reference::intersectingTrianglePairs(prepared->meshes.a, glm::mat4(1.0f), movedB, glm::mat4(1.0f));
        if (onFloat) {
            for (const reference::TrianglePair& p : onFloat->pairs) oracleOnFloatInputs.insert({p.a, p.b});
        }
    }
    size_t oursOnly = 0, oursOnlyExact = 0, oursOnlyFloatExact = 0, fclOnly = 0, fclOnlyExact = 0;
    for (const auto& p : ours) {
        if (fclPairs.count(p)) continue;
        ++oursOnly;
        oursOnlyExact += oracle.count(p);
        oursOnlyFloatExact += oracleOnFloatInputs.count(p);
    }
    for (const auto& p : fclPairs) {
        if (ours.count(p)) continue;
        ++fclOnly;
        fclOnlyExact += oracle.count(p);
    }
    std::fprintf(stderr,
                 "%-20s ours %zu (raw count %llu, ours == oracle: %s)  fcl %zu (contacts %zu)  oracle %s  "
                 "ours-only %zu (in oracle %zu, in oracle on float inputs %zu)  fcl-only %zu (in oracle %zu)\n",
                 pair.name, ours.size(), (unsigned long long)out.state.trianglePairCount,
                 exact ? (ours == oracle ? "yes" : "NO") : "n/a", fclPairs.size(), contacts.size(),
                 exact ? std::to_string(oracle.size()).c_str() : exact.status().describe().c_str(), oursOnly,
                 oursOnlyExact, oursOnlyFloatExact, fclOnly, fclOnlyExact);
}

// ---- Registration ----

std::vector<const SharedMeshPair*> benchmarkPairs() {
    const bool includeLarge = envIsOne("VKC_BENCH_LARGE_MESHES");
    std::vector<const SharedMeshPair*> pairs;
    for (const SharedMeshPair& pair : sharedMeshPairs()) {
        if (!pair.large || includeLarge) pairs.push_back(&pair);
    }
    if (includeLarge) pairs.insert(pairs.end() - 1, &dragonPair());  // before the 1.38M armadillo
    return pairs;
}

void registerAabbTreeBenchmarks() {
    // Pair by pair, so that only one pair's meshes, trees and GPU buffers are alive at a time.
    // Wall time (UseRealTime) everywhere: the GPU run waits on lavapipe's own threads.
    for (const SharedMeshPair* pair : benchmarkPairs()) {
        const std::string suffix = "/" + std::string(pair->name);
        const auto add = [&](const std::string& name, auto&& function) {
            benchmark::RegisterBenchmark((name + suffix).c_str(), function, *pair)
                ->UseRealTime()
                ->Unit(benchmark::kMillisecond);
        };
        add("BM_AabbTreeBuild", BM_AabbTreeBuild);
        add("BM_FclBuildOBBRSS", BM_FclBuild<fcl::OBBRSSd>);
        add("BM_FclBuildAABB", BM_FclBuild<fcl::AABBd>);
        add("BM_AabbTreeGpu", [](benchmark::State& s, const SharedMeshPair& p) { BM_AabbTreeGpu(s, p, false); });
        add("BM_AabbTreeGpuCoherent", [](benchmark::State& s, const SharedMeshPair& p) { BM_AabbTreeGpu(s, p, true); });
        add("BM_AabbTreeCpu", BM_AabbTreeCpu);
        add("BM_FclCollideOBBRSS", BM_FclCollide<fcl::OBBRSSd>);
        add("BM_FclCollideAABB", BM_FclCollide<fcl::AABBd>);
    }
}

}  // namespace
}  // namespace vkc::bench

int main(int argc, char** argv) {
    vkc::bench::registerAabbTreeBenchmarks();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    if (vkc::bench::envIsOne("VKC_BENCH_COMPARE_PAIRS")) {
        for (const vkc::bench::SharedMeshPair* pair : vkc::bench::benchmarkPairs()) vkc::bench::comparePairLists(*pair);
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
