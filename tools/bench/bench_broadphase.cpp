// GPU broadphase (Broadphase::run: record, submit, wait, read back) against its CPU reference
// (worldBounds + overlappingPairs, a sweep along x), FCL 0.7's DynamicAABBTreeCollisionManager and
// Bullet 3's btDbvtBroadphase (one box per object: the object's world box), in one run: random boxes and shared-mesh crowds
// (a box, a sphere and a torus in turn) of 1,000 to 1,000,000 objects at constant density, and one
// sphere pair at subdivisions 3..7 (vertex scaling). Every frame the objects move (by kStep along
// x and back, alternately: past Bullet's and FCL's box margins, so their trees update as in a
// moving world; ours is rebuilt whatever moved). Every benchmark reports the same counters
// (--benchmark_out_format=csv needs one column set); items are objects, so items_per_second gives
// the time per object as n grows.
#include "collision/broadphase/broadphase_reference.h"
#include "collision/scene/generated_solids.h"
#include "tools/bench/broadphase_setup.h"
#include "tools/bench/gpu_timings.h"
#include "tools/bench/random_solid_scene.h"
#include "tools/bench/skip_on_error.h"
#include "vkcollide/broadphase.h"

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/BroadphaseCollision/btOverlappingPairCache.h>
#include <benchmark/benchmark.h>
#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>
#include <fcl/geometry/shape/box.h>
#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vkc::bench {
namespace {

enum class SceneKind { RandomBoxes, RandomSolids, SpherePair };

// Pair capacity per object: the scenes have about one pair per object.
constexpr uint32_t kPairsPerObject = 4;
// The step every object takes each frame, back and forth (world units; the solids are 1–2 across).
constexpr float kStep = 0.2f;

// The offset of frame `frame`'s poses from the scene's.
glm::vec3 frameOffset(int64_t frame) { return glm::vec3(frame % 2 == 0 ? 0.0f : kStep, 0.0f, 0.0f); }

Aabb shifted(const Aabb& box, const glm::vec3& offset) { return {box.min + offset, box.max + offset}; }

SolidScene makeScene(SceneKind kind, int64_t arg) {
    const uint32_t seed = 1234u + uint32_t(arg);
    switch (kind) {
        case SceneKind::RandomBoxes: {
            SolidScene boxes;
            boxes.meshes = {solids::box({1.0f, 0.5f, 2.0f})};
            placeAtRandom(boxes, uint32_t(arg), seed);
            return boxes;
        }
        case SceneKind::RandomSolids: return randomSolidScene(uint32_t(arg), seed);
        case SceneKind::SpherePair: break;
    }
    return spherePairScene(uint32_t(arg));
}

std::vector<Aabb> referenceBounds(const SolidScene& solids) {
    std::vector<Aabb> bounds(solids.objectCount());
    for (size_t i = 0; i < solids.objectCount(); ++i)
        bounds[i] = worldBounds(solids.meshes[solids.objectMesh[i]], solids.objectToWorld[i]);
    return bounds;
}

constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

// A prefix scan's steps as one column: a scan of one block records one step, of several three
// (prefix_scan_passes.h), and a CSV's later rows may not bring new columns.
std::string scanAsOnePass(const std::string& pass) {
    for (std::string_view step : {"-reduce", "-blocks", "-apply"})
        if (pass.ends_with(step)) return pass.substr(0, pass.size() - step.size());
    return pass;
}

// One column set for every benchmark; the gpu columns are NaN where nothing ran on the GPU.
// set_transforms_ms: the GPU path's Scene::setTransform calls per frame (its host's share of
// moving the objects; the rest of the wall time is Broadphase::run).
void setCounters(benchmark::State& state, const SolidScene& solids, size_t pairCount, const GpuTimings* timings,
                 double setTransformsMs = kNotMeasured) {
    state.counters["objects"] = double(solids.objectCount());
    state.counters["triangles"] = double(solids.triangleCount());
    state.counters["vertices"] = double(solids.vertexCount());
    state.counters["pairs"] = double(pairCount);
    // gpu_tree_ms: the tree and pair search alone, every pass but the bounds (whose cost follows
    // the vertices).
    auto notBounds = [](const std::string& pass) { return pass != "broadphase-bounds"; };
    state.counters["set_transforms_ms"] =
        std::isnan(setTransformsMs) ? benchmark::Counter(kNotMeasured) : perIteration(setTransformsMs);
    state.counters["gpu_ms"] = timings ? perIteration(timings->totalMs()) : benchmark::Counter(kNotMeasured);
    state.counters["gpu_tree_ms"] = timings ? perIteration(timings->totalMs(notBounds)) : benchmark::Counter(kNotMeasured);
    if (timings) timings->setPassCounters(state, scanAsOnePass);  // gpu_<pass>_ms: where the GPU time goes
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(solids.objectCount()));
}

// A scene uploaded and run once (warm-up), kept across the repeated calls Google Benchmark makes
// while it picks an iteration count, so uploads are paid once per case; with a broadphase sized
// for it, as a host sizes its own (its read-back follows the object count and pair capacity).
struct GpuCase {
    SolidScene solids;
    std::unique_ptr<Scene> scene;
    std::unique_ptr<Broadphase> broadphase;
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

// The reference's pairs on `bounds` and the GPU's `pairs` to compare them with: all of them up to
// kWholeCheckObjects objects; past it (the reference's sweep takes a minute at a million) those of
// a seeded sample of objects, the reference's by testing each sampled box against every box.
constexpr size_t kWholeCheckObjects = 100000;
constexpr size_t kSampledObjects = 512;

std::pair<std::vector<ObjectPair>, std::vector<ObjectPair>> referenceAndGpuPairs(const std::vector<Aabb>& bounds,
                                                                                 const std::vector<ObjectPair>& pairs) {
    if (bounds.size() <= kWholeCheckObjects) return {overlappingPairs(bounds, 0.0f), pairs};
    std::vector<bool> sampled(bounds.size(), false);
    std::mt19937 rng(99);
    std::uniform_int_distribution<uint32_t> pick(0, uint32_t(bounds.size() - 1));
    for (size_t k = 0; k < kSampledObjects; ++k) sampled[pick(rng)] = true;
    std::vector<ObjectPair> expected, found;
    for (uint32_t a = 0; a < bounds.size(); ++a)
        if (sampled[a])
            for (uint32_t b = 0; b < bounds.size(); ++b)
                if (b != a && boxesOverlap(bounds[a], bounds[b], 0.0f))
                    expected.push_back({std::min(a, b), std::max(a, b)});
    for (const ObjectPair& pair : pairs)
        if (sampled[pair.a] || sampled[pair.b]) found.push_back(pair);
    std::sort(expected.begin(), expected.end());
    expected.erase(std::unique(expected.begin(), expected.end()), expected.end());  // two sampled objects' pair
    return {expected, found};
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
    BroadphaseSettings settings;
    settings.maxObjects = uint32_t(created->solids.objectCount());
    settings.pairCapacity = kPairsPerObject * settings.maxObjects;
    auto broadphase = Broadphase::create(setup.context, settings);
    if (!broadphase) {
        error = broadphase.status().describe();
        return nullptr;
    }
    created->broadphase = std::make_unique<Broadphase>(std::move(broadphase.value()));
    auto warmUp = created->broadphase->run(*created->scene);
    if (!warmUp) {
        error = warmUp.status().describe();
        return nullptr;
    }
    if (warmUp->truncated) {
        error = "pair capacity too small for this scene";
        return nullptr;
    }
    // Guard against timing a broken path: the GPU pairs must be the reference rule on the GPU's
    // boxes, up to pairs touching within float rounding (the GPU compares in frame coordinates
    // and reports world boxes rounded outward): at most one in a thousand.
    const auto [expected, found] = referenceAndGpuPairs(warmUp->worldBounds, warmUp->pairs);
    std::vector<ObjectPair> differing;
    std::set_symmetric_difference(found.begin(), found.end(), expected.begin(), expected.end(),
                                  std::back_inserter(differing));
    if (differing.size() > expected.size() / 1000) {
        error = "GPU pairs differ from the reference rule on the GPU's own bounds in " +
                std::to_string(differing.size()) + " of " + std::to_string(expected.size()) + " pairs";
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
    Broadphase& broadphase = *gpu.broadphase;
    GpuTimings timings;
    double setTransformsMs = 0.0;
    int64_t frame = 0;
    for (auto _ : state) {
        const glm::vec3 offset = frameOffset(++frame);
        const auto setStart = std::chrono::steady_clock::now();
        for (size_t i = 0; i < gpu.solids.objectCount(); ++i)
            if (!gpu.scene->setTransform(ObjectId(i), glm::translate(glm::mat4(1.0f), offset) * gpu.solids.objectToWorld[i])) {
                state.SkipWithError("setTransform failed");
                break;
            }
        const auto setTime = std::chrono::steady_clock::now() - setStart;
        setTransformsMs += std::chrono::duration<double, std::milli>(setTime).count();
        auto results = broadphase.run(*gpu.scene);
        if (skippedOnError(state, results)) break;
        timings.add(results->gpuTimingsMs);
    }
    setCounters(state, gpu.solids, gpu.pairCount, &timings, setTransformsMs);
}

void BM_BroadphaseCpu(benchmark::State& state, SceneKind kind) {
    const SolidScene solids = makeScene(kind, state.range(0));
    size_t pairCount = 0;
    int64_t frame = 0;
    for (auto _ : state) {
        const glm::vec3 offset = frameOffset(++frame);
        std::vector<Aabb> bounds = referenceBounds(solids);
        for (Aabb& box : bounds) box = shifted(box, offset);
        const std::vector<ObjectPair> pairs = overlappingPairs(bounds, 0.0f);
        pairCount = pairs.size();
        benchmark::DoNotOptimize(pairs.data());
    }
    setCounters(state, solids, pairCount, nullptr);
}

// FCL's dynamic AABB tree as a game engine would use it: objects registered once, and per frame
// each moved and its box recomputed (as ours are), the tree updated, all pairs collected.
void BM_BroadphaseFcl(benchmark::State& state, SceneKind kind) {
    const SolidScene solids = makeScene(kind, state.range(0));
    const std::vector<Aabb> bounds = referenceBounds(solids);
    std::vector<std::unique_ptr<fcl::CollisionObjectf>> objects;
    std::vector<fcl::CollisionObjectf*> registered;
    for (const Aabb& box : bounds) {
        const glm::vec3 size = box.max - box.min, centre = (box.min + box.max) * 0.5f;
        fcl::Transform3f at = fcl::Transform3f::Identity();
        at.translation() = fcl::Vector3f(centre.x, centre.y, centre.z);
        objects.push_back(std::make_unique<fcl::CollisionObjectf>(
            std::make_shared<fcl::Boxf>(size.x, size.y, size.z), at));
        registered.push_back(objects.back().get());
    }
    fcl::DynamicAABBTreeCollisionManagerf manager;
    manager.registerObjects(registered);
    manager.setup();
    size_t pairCount = 0;
    auto countPair = [](fcl::CollisionObjectf*, fcl::CollisionObjectf*, void* count) {
        ++*static_cast<size_t*>(count);
        return false;  // keep going: every pair
    };
    int64_t frame = 0;
    for (auto _ : state) {
        const glm::vec3 offset = frameOffset(++frame);
        for (size_t i = 0; i < objects.size(); ++i) {
            const glm::vec3 centre = (bounds[i].min + bounds[i].max) * 0.5f + offset;
            objects[i]->setTranslation(fcl::Vector3f(centre.x, centre.y, centre.z));
            objects[i]->computeAABB();
        }
        manager.update();
        pairCount = 0;
        manager.collide(&pairCount, countPair);
    }
    setCounters(state, solids, pairCount, nullptr);
}

// Bullet's dynamic AABB tree broadphase as a physics engine drives it: proxies created once, and per
// frame every proxy's box set to where it moved and the overlapping pairs gathered
// (calculateOverlappingPairs keeps the pair cache up to date).
void BM_BroadphaseBullet(benchmark::State& state, SceneKind kind) {
    const SolidScene solids = makeScene(kind, state.range(0));
    const std::vector<Aabb> bounds = referenceBounds(solids);
    auto toBullet = [](const glm::vec3& v) { return btVector3(v.x, v.y, v.z); };
    btDbvtBroadphase broadphase;
    std::vector<btBroadphaseProxy*> proxies;
    for (size_t i = 0; i < bounds.size(); ++i)
        proxies.push_back(broadphase.createProxy(toBullet(bounds[i].min), toBullet(bounds[i].max), 0,
                                                 reinterpret_cast<void*>(i), btBroadphaseProxy::DefaultFilter,
                                                 btBroadphaseProxy::AllFilter, nullptr));
    size_t pairCount = 0;
    int64_t frame = 0;
    for (auto _ : state) {
        const glm::vec3 offset = frameOffset(++frame);
        for (size_t i = 0; i < bounds.size(); ++i)
            broadphase.setAabb(proxies[i], toBullet(bounds[i].min + offset), toBullet(bounds[i].max + offset), nullptr);
        broadphase.calculateOverlappingPairs(nullptr);
        pairCount = size_t(broadphase.getOverlappingPairCache()->getNumOverlappingPairs());
    }
    setCounters(state, solids, pairCount, nullptr);
}

// Wall time (UseRealTime): the GPU path waits on the device (lavapipe's own threads on a CPU-only
// machine), so the calling thread's CPU time would understate it. Half a second of untimed frames
// first, so the timed ones are a steady state (a GPU's clocks up, lavapipe's pipelines compiled).
#define VKC_CROWD_BENCHMARK(function, name, kind)                                                            \
    BENCHMARK_CAPTURE(function, name, kind)                                                                  \
        ->ArgName("objects")->RangeMultiplier(10)->Range(1000, 1000000)->MinWarmUpTime(0.5)->UseRealTime()  \
        ->Unit(benchmark::kMillisecond)
VKC_CROWD_BENCHMARK(BM_BroadphaseGpu, random_boxes, SceneKind::RandomBoxes);
VKC_CROWD_BENCHMARK(BM_BroadphaseFcl, random_boxes, SceneKind::RandomBoxes);
VKC_CROWD_BENCHMARK(BM_BroadphaseBullet, random_boxes, SceneKind::RandomBoxes);
VKC_CROWD_BENCHMARK(BM_BroadphaseCpu, random_boxes, SceneKind::RandomBoxes);
VKC_CROWD_BENCHMARK(BM_BroadphaseGpu, random_solids, SceneKind::RandomSolids);
VKC_CROWD_BENCHMARK(BM_BroadphaseFcl, random_solids, SceneKind::RandomSolids);
VKC_CROWD_BENCHMARK(BM_BroadphaseBullet, random_solids, SceneKind::RandomSolids);
VKC_CROWD_BENCHMARK(BM_BroadphaseCpu, random_solids, SceneKind::RandomSolids);
BENCHMARK_CAPTURE(BM_BroadphaseGpu, sphere_pair, SceneKind::SpherePair)
    ->ArgName("subdivisions")->DenseRange(3, 7)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BroadphaseCpu, sphere_pair, SceneKind::SpherePair)
    ->ArgName("subdivisions")->DenseRange(3, 7)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace vkc::bench

BENCHMARK_MAIN();
