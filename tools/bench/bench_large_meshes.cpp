// Issue 14, large meshes: a pair of tori of up to 10 million triangles each (2 x segments^2) through
// the broadphase, aabb-tree and ldi (GPU-driven, its bound from the drawn triangles), each
// run(scene) timed, with the device memory it needs: the peak of its live allocations (a
// counting allocator in front of the context's) above what the scene itself holds. What a device
// cannot hold is refused with the bytes it needs (the case's error). The tori share their axis, the
// second one raised by half a tube radius and turned by half a segment (no aligned triangles), so
// the exact intersection of the smooth tori is a ring of lens cross-section: 2 pi R x lens area
// (Pappus), which ldi's volume and bound are reported against. Counters: triangles (per mesh),
// device_mb, scene_mb (the scene's vertex and index buffers), host_peak_mb (the process's peak
// resident memory so far), gpu_ms; aabb-tree: triangle_pairs; ldi: volume, exact_smooth, bound.
#include "collision/scene/generated_solids.h"
#include "tools/bench/bench_context.h"
#include "tools/bench/gpu_timings.h"
#include "tools/bench/skip_on_error.h"
#include "vk/context.h"
#include "vkcollide/aabb_tree.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/ldi.h"
#include "vkcollide/scene.h"

#include <benchmark/benchmark.h>
#include <glm/gtc/matrix_transform.hpp>
#include <sys/resource.h>

#include <cmath>
#include <map>
#include <memory>
#include <numbers>

namespace vkc::bench {
namespace {

constexpr float kMajor = 1.0f, kMinor = 0.3f;
constexpr double kRise = 0.5 * kMinor;  // the second torus's offset along the axis

// Forwards to the context's allocator and keeps the live bytes and their peak.
class CountingAllocator : public Allocator {
public:
    explicit CountingAllocator(VulkanContext& vk) : inner_(*vk.allocator) { vk.allocator = this; }
    Result<Allocation> allocate(const AllocationRequest& request) override {
        auto allocation = inner_.allocate(request);
        if (allocation) {
            live_ += allocation->size;
            peak_ = std::max(peak_, live_);
        }
        return allocation;
    }
    void free(const Allocation& allocation) override {
        live_ -= allocation.size;
        inner_.free(allocation);
    }
    VkDeviceSize live() const { return live_; }
    // The peak since the last call, which restarts it at the live bytes.
    VkDeviceSize takePeak() {
        const VkDeviceSize peak = peak_;
        peak_ = live_;
        return peak;
    }

private:
    Allocator& inner_;
    VkDeviceSize live_ = 0, peak_ = 0;
};

struct Setup {
    Context context;
    std::unique_ptr<CountingAllocator> counting;  // kept for the process, like the context
};

Setup* setup(std::string& error) {
    static std::unique_ptr<Setup> kept;
    if (kept) return kept.get();
    auto context = createBenchContext();
    if (!context) {
        error = context.status().describe();
        return nullptr;
    }
    kept = std::make_unique<Setup>();
    kept->context = std::move(context.value());
    kept->counting = std::make_unique<CountingAllocator>(vulkanOf(kept->context));
    return kept.get();
}

struct TorusPair {
    MeshData mesh;
    std::unique_ptr<Scene> scene;
    VkDeviceSize sceneBytes = 0;
};

// The pair at `segments`, made once per process (a 10-million-triangle torus takes seconds).
Result<TorusPair*> torusPair(Setup& s, uint32_t segments) {
    static std::map<uint32_t, std::unique_ptr<TorusPair>> made;
    if (auto it = made.find(segments); it != made.end()) return it->second.get();
    made.clear();  // one size at a time: the largest needs gigabytes
    auto pair = std::make_unique<TorusPair>();
    pair->mesh = solids::torus(kMajor, kMinor, segments);
    const VkDeviceSize before = s.counting->live();
    auto scene = Scene::create(s.context);
    if (!scene) return scene.status();
    auto mesh = scene->addMesh({"torus", &pair->mesh});
    if (!mesh) return mesh.status();
    const double halfSegment = std::numbers::pi / segments;
    const glm::dmat4 raised = glm::rotate(glm::translate(glm::dmat4(1.0), {0.0, 0.0, kRise}), halfSegment, {0.0, 0.0, 1.0});
    for (const glm::dmat4& at : {glm::dmat4(1.0), raised}) VKC_TRY(scene->addObject(mesh.value(), at).status());
    pair->sceneBytes = s.counting->live() - before;
    pair->scene = std::make_unique<Scene>(std::move(scene.value()));
    return made.emplace(segments, std::move(pair)).first->second.get();
}

// The smooth tori's intersection: a ring of lens cross-section (two discs of radius r, centres
// kRise apart) around the axis at radius R (the lens's centroid, by symmetry).
double smoothIntersectionVolume() {
    const double r = kMinor, d = kRise;
    const double lens = 2.0 * r * r * std::acos(d / (2.0 * r)) - 0.5 * d * std::sqrt(4.0 * r * r - d * d);
    return 2.0 * std::numbers::pi * kMajor * lens;
}

double megabytes(VkDeviceSize bytes) { return double(bytes) / (1024.0 * 1024.0); }

double hostPeakMegabytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;  // kilobytes on Linux
}

enum class Method { Broadphase, AabbTree, Ldi };

// A new detector's first frame over `scene` (its own broadphase included), its results in `out`.
template <class Detector, class Settings>
Status firstFrame(Context& context, const Settings& settings, const Scene& scene, GpuTimings& timings,
                  FrameResults& out) {
    auto detector = Detector::create(context, settings);
    if (!detector) return detector.status();
    auto results = detector->run(scene);
    if (!results) return results.status();
    timings.add(results->gpuTimingsMs);
    out = std::move(results.value());
    return Status::success();
}

void BM_LargeTorusPair(benchmark::State& state, Method method) {
    std::string error;
    Setup* s = setup(error);
    if (!s) return state.SkipWithError(error.c_str());
    auto pair = torusPair(*s, uint32_t(state.range(0)));
    if (skippedOnError(state, pair)) return;
    Scene& scene = *pair.value()->scene;
    s->counting->takePeak();
    const VkDeviceSize baseline = s->counting->live();
    GpuTimings timings;
    FrameResults last;
    auto runOnce = [&]() -> Status {
        switch (method) {
        case Method::Broadphase: {
            static std::unique_ptr<Broadphase> broadphase;
            if (!broadphase) {
                auto created = Broadphase::create(s->context);
                if (!created) return created.status();
                broadphase = std::make_unique<Broadphase>(std::move(created.value()));
            }
            auto results = broadphase->run(scene);
            if (!results) return results.status();
            timings.add(results->gpuTimingsMs);
            return Status::success();
        }
        case Method::AabbTree:
            return firstFrame<AabbTreeDetector>(s->context, AabbTreeSettings{}, scene, timings, last);
        case Method::Ldi: {
            LdiSettings settings;
            settings.errorBound = LdiErrorBound::DrawnTriangles;  // GPU-driven: no bound computed on the CPU
            return firstFrame<LdiDetector>(s->context, settings, scene, timings, last);
        }
        }
        return Status::success();
    };
    // A refusal (the device cannot hold what the mesh needs) is the case's answer: its label says
    // why and with how many bytes; every case keeps the same counters (the CSV needs them all).
    Status ran = Status::success();
    for (auto _ : state) ran = runOnce();
    if (!ran.ok()) state.SetLabel("refused: " + ran.describe());
    const double none = std::nan("");
    const PairResult* p = last.pairs.empty() ? nullptr : &last.pairs.front();
    state.counters["triangles"] = double(pair.value()->mesh.indices.size() / 3);
    state.counters["device_mb"] = megabytes(s->counting->takePeak() - baseline);
    state.counters["scene_mb"] = megabytes(pair.value()->sceneBytes);
    state.counters["host_peak_mb"] = hostPeakMegabytes();
    state.counters["gpu_ms"] = ran.ok() ? timings.totalMs() : none;
    state.counters["triangle_pairs"] = p && p->trianglePairs ? double(*p->trianglePairs) : none;
    state.counters["volume"] = p && p->volume ? *p->volume : none;
    state.counters["bound"] = p && p->volumeErrorBound ? *p->volumeErrorBound : none;
    state.counters["exact_smooth"] = smoothIntersectionVolume();
}

// Segments 708 and 2237: 1.0 and 10.0 million triangles per torus. Each case creates its detector
// inside the timed loop (its first frame is what a large mesh costs: the aabb-tree's CPU build,
// uploads), one iteration per case.
#define VKC_LARGE_BENCHMARK(method)                                                                           \
    BENCHMARK_CAPTURE(BM_LargeTorusPair, method, Method::method)                                              \
        ->ArgName("segments")->Arg(708)->Arg(2237)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond)
VKC_LARGE_BENCHMARK(Broadphase);
VKC_LARGE_BENCHMARK(AabbTree);
VKC_LARGE_BENCHMARK(Ldi);

}  // namespace
}  // namespace vkc::bench

BENCHMARK_MAIN();
