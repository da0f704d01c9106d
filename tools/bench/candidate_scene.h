// What an image-space method's benchmark times a detector on: a SolidScene uploaded, and the GPU
// broadphase's candidate pairs for it, prepared once per case (untimed); and the timed loop of
// detector frames on it, with the counters every such benchmark reports.
#pragma once

#include "tools/bench/gpu_timings.h"
#include "tools/bench/random_solid_scene.h"
#include "tools/bench/skip_on_error.h"
#include "vkcollide/broadphase.h"

#include <benchmark/benchmark.h>

#include <memory>

namespace vkc::bench {

struct CandidateScene {
    SolidScene solids;
    std::unique_ptr<Scene> scene;
    BroadphaseResults pcs;
};

// Errors: toScene's and the broadphase run's.
Result<std::unique_ptr<CandidateScene>> prepareCandidateScene(Context& context, Broadphase& broadphase,
                                                              SolidScene solids);

// Times `runFrame` (one detector frame on `prepared`, returning Result<FrameResults>) over the
// benchmark's iterations, then reports objects, triangles, pairs (of the last frame) and gpu_ms.
// The pass timings are left in `timings`; false (the case skipped) when a frame failed.
template <class RunFrame>
bool timeFrames(benchmark::State& state, const CandidateScene& prepared, RunFrame runFrame, GpuTimings& timings) {
    size_t pairs = 0;
    for (auto _ : state) {
        auto results = runFrame();
        if (skippedOnError(state, results)) return false;
        timings.add(results->gpuTimingsMs);
        pairs = results->pairs.size();
    }
    state.counters["objects"] = double(prepared.solids.objectCount());
    state.counters["triangles"] = double(prepared.solids.triangleCount());
    state.counters["pairs"] = double(pairs);
    timings.setTotalCounter(state);
    return true;
}

}  // namespace vkc::bench
