// Issue 14: the CPU time a host spends in record() per frame, per method and object count: the
// broadphase, and each detector over the broadphase's pairs, recorded into a host command buffer
// of random generated-solid scenes of 10, 1,000 and 4,096 objects (the detectors' maxObjects
// default), and the broadphase and the GPU-driven detectors also at 100,000 (all but stencil,
// whose point ids are 16-bit: DetectorSettings::maxObjects). Only the record() call is timed
// (UseManualTime) once every frame slot has had its first frame; the submit, the wait and the
// completion signal that frees the frame's slot are outside it; the GPU-driven detectors also
// from the broadphase recorded before them into the same command buffer (untimed). Counters:
// objects, candidate pairs.
#include "tools/bench/broadphase_setup.h"
#include "tools/bench/candidate_scene.h"
#include "tools/bench/random_solid_scene.h"
#include "vk/commands.h"
#include "vk/context.h"
#include "vkcollide/aabb_tree.h"
#include "vkcollide/consistent_pairs.h"
#include "vkcollide/ebpi.h"
#include "vkcollide/ldi.h"
#include "vkcollide/stencil.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace vkc::bench {
namespace {

struct RecordSetup : BroadphaseSetup {
    std::map<uint32_t, std::unique_ptr<CandidateScene>> scenes;  // by object count
};

RecordSetup& recordSetup() {
    static RecordSetup setup = [] {
        RecordSetup created;
        createContextAndBroadphase(created);
        return created;
    }();
    return setup;
}

// The scene of `objects` random solids with its broadphase pairs, made on first use.
CandidateScene* sceneOf(uint32_t objects, std::string& error) {
    RecordSetup& setup = recordSetup();
    if (!setup.broadphase) {
        error = "no Vulkan device: " + setup.error;
        return nullptr;
    }
    std::unique_ptr<CandidateScene>& scene = setup.scenes[objects];
    if (!scene) {
        auto prepared = prepareCandidateScene(setup.context, *setup.broadphase, randomSolidScene(objects, 77u + objects));
        if (!prepared) {
            error = prepared.status().describe();
            return nullptr;
        }
        scene = std::move(prepared.value());
    }
    return scene.get();
}

Status nothingBefore(VkCommandBuffer, uint64_t) { return Status::success(); }

// Records frame after frame of `recorder` (a record() call into the given command buffer),
// timing the call alone, after `before` (untimed, into the same command buffer: a GPU-driven
// detector's broadphase); each frame is submitted, waited for and its `signals` signalled so the
// slots are free again. The first `slots` frames (one per frame slot) are recorded untimed: each
// slot allocates its resources on first use (a frame slot's first frame took 10–25 times a
// steady frame at 100,000 objects), and lavapipe compiles pipelines.
template <class Before, class Recorder, class Signals>
void timeRecord(benchmark::State& state, const CandidateScene& scene, uint32_t slots, Before before, Recorder record,
                Signals signals) {
    VulkanContext& vk = vulkanOf(recordSetup().context);
    uint64_t frame = 0;
    auto one = [&](bool timed) -> bool {
        Status recorded = Status::success();
        double seconds = 0.0;
        Status submitted = submitAndWait(
            vk,
            [&](VkCommandBuffer cmd) {
                recorded = before(cmd, frame);
                if (!recorded) return;
                const auto start = std::chrono::steady_clock::now();
                recorded = record(cmd, frame);
                seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            },
            "bench-record");
        if (!recorded || !submitted) {
            state.SkipWithError((recorded ? submitted : recorded).describe().c_str());
            return false;
        }
        for (const VkSemaphoreSubmitInfo& done : signals(frame)) {
            VkSemaphoreSignalInfo info = {VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
            info.semaphore = done.semaphore;
            info.value = done.value;
            const Status signalled = checkVk(vk.vkd.vkSignalSemaphore(vk.device, &info), "vkSignalSemaphore(bench-record)");
            if (!signalled) {
                state.SkipWithError(signalled.describe().c_str());
                return false;
            }
        }
        ++frame;
        if (timed) state.SetIterationTime(seconds);
        return true;
    };
    for (uint32_t slot = 0; slot < slots; ++slot)
        if (!one(false)) return;
    for (auto _ : state)
        if (!one(true)) return;
    state.counters["objects"] = double(scene.solids.objectCount());
    state.counters["candidate_pairs"] = double(scene.pcs.pairs.size());
}

void BM_RecordBroadphase(benchmark::State& state) {
    std::string error;
    CandidateScene* scene = sceneOf(uint32_t(state.range(0)), error);
    if (!scene) return state.SkipWithError(error.c_str());
    // Its own broadphase: the setup's numbers its frames through run().
    auto broadphase = Broadphase::create(recordSetup().context);
    if (!broadphase) return state.SkipWithError(broadphase.status().describe().c_str());
    timeRecord(
        state, *scene, broadphase->settings().framesInFlight, nothingBefore,
        [&](VkCommandBuffer cmd, uint64_t frame) { return broadphase->record(cmd, *scene->scene, frame); },
        [&](uint64_t frame) { return std::vector{broadphase->completionSignal(frame)}; });
}

// A detector of the method, made per case with its defaults (ebpi: a tolerance of 1e-3), its
// maxObjects raised to `objects` past the default 4096.
template <class Detector>
Result<Detector> createSizedDetector(Context& context, uint32_t objects) {
    typename Detector::Settings settings;
    if constexpr (std::is_same_v<Detector, EbpiDetector>) settings.tolerance = 1e-3;
    if (objects > 4096) settings.maxObjects = objects;
    return Detector::create(context, settings);
}
template <class Detector>
Result<Detector> createDetector(Context& context) {
    return createSizedDetector<Detector>(context, 0);
}

// ldi with every pair's bound from its drawn triangles on the GPU (none computed in record()).
Result<LdiDetector> createLdiWithDrawnTriangleBound(Context& context) {
    LdiSettings settings;
    settings.errorBound = LdiErrorBound::DrawnTriangles;
    return LdiDetector::create(context, settings);
}

template <class Detector, Result<Detector> (*create)(Context&) = createDetector<Detector>>
void BM_RecordDetector(benchmark::State& state) {
    std::string error;
    CandidateScene* scene = sceneOf(uint32_t(state.range(0)), error);
    if (!scene) return state.SkipWithError(error.c_str());
    auto detector = create(recordSetup().context);
    if (!detector) return state.SkipWithError(detector.status().describe().c_str());
    const CandidateSet candidates(scene->pcs);
    timeRecord(
        state, *scene, detector->settings().framesInFlight, nothingBefore,
        [&](VkCommandBuffer cmd, uint64_t frame) { return detector->record(cmd, *scene->scene, candidates, frame); },
        [&](uint64_t frame) { return std::vector{detector->completionSignal(frame)}; });
}

// GPU-driven (aabb-tree, ebpi, stencil, consistent-pairs, ldi): the detector reads the pairs and boxes of a broadphase recorded
// just before it into the same command buffer; only the detector's record() is timed.
template <class Detector>
void BM_RecordGpuDriven(benchmark::State& state) {
    std::string error;
    CandidateScene* scene = sceneOf(uint32_t(state.range(0)), error);
    if (!scene) return state.SkipWithError(error.c_str());
    auto broadphase = Broadphase::create(recordSetup().context);
    if (!broadphase) return state.SkipWithError(broadphase.status().describe().c_str());
    auto detector = createSizedDetector<Detector>(recordSetup().context, uint32_t(state.range(0)));
    if (!detector) return state.SkipWithError(detector.status().describe().c_str());
    timeRecord(
        state, *scene, std::max(broadphase->settings().framesInFlight, detector->settings().framesInFlight),
        [&](VkCommandBuffer cmd, uint64_t frame) { return broadphase->record(cmd, *scene->scene, frame); },
        [&](VkCommandBuffer cmd, uint64_t frame) { return detector->record(cmd, *scene->scene, *broadphase, frame); },
        [&](uint64_t frame) { return std::vector{broadphase->completionSignal(frame), detector->completionSignal(frame)}; });
}

// A fixed count of frames: the minimum time counts only the timed record() calls, while each frame
// also waits for the GPU (seconds per frame for some methods at 4,096 objects on lavapipe).
void objectCounts(benchmark::internal::Benchmark* b) {
    b->ArgName("objects")->Arg(10)->Arg(1000)->Arg(4096)->Iterations(10)->UseManualTime()->Unit(benchmark::kMillisecond);
}
BENCHMARK(BM_RecordBroadphase)->Apply(objectCounts)->Arg(100000);
BENCHMARK_TEMPLATE(BM_RecordDetector, AabbTreeDetector)->Apply(objectCounts);
BENCHMARK_TEMPLATE(BM_RecordDetector, StencilDetector)->Apply(objectCounts);
BENCHMARK_TEMPLATE(BM_RecordDetector, ConsistentPairsDetector)->Apply(objectCounts);
BENCHMARK_TEMPLATE(BM_RecordDetector, LdiDetector)->Apply(objectCounts);
BENCHMARK_TEMPLATE(BM_RecordDetector, LdiDetector, createLdiWithDrawnTriangleBound)->Apply(objectCounts);
BENCHMARK_TEMPLATE(BM_RecordDetector, EbpiDetector)->Apply(objectCounts);
// 100,000 objects: the GPU-driven methods whose ids are 32-bit (stencil's are 16-bit).
BENCHMARK_TEMPLATE(BM_RecordGpuDriven, AabbTreeDetector)->Apply(objectCounts)->Arg(100000);
BENCHMARK_TEMPLATE(BM_RecordGpuDriven, EbpiDetector)->Apply(objectCounts)->Arg(100000);
BENCHMARK_TEMPLATE(BM_RecordGpuDriven, StencilDetector)->Apply(objectCounts);
BENCHMARK_TEMPLATE(BM_RecordGpuDriven, ConsistentPairsDetector)->Apply(objectCounts)->Arg(100000);
BENCHMARK_TEMPLATE(BM_RecordGpuDriven, LdiDetector)->Apply(objectCounts)->Arg(100000);

}  // namespace
}  // namespace vkc::bench

BENCHMARK_MAIN();
