// What every detector (stencil, ldi, consistent-pairs, aabb-tree, ebpi) and the broadphase promise a host
// (include/vkcollide/detector.h), checked the same way for each through one set of templates: work
// recorded into the host's command buffer, results NotReady until the signal the host adds to its
// submit arrives, no more than framesInFlight frames in flight, and scenes larger than maxObjects,
// candidate lists naming unknown objects, lacking bounds or longer than maxCandidatePairs, or
// settings out of range, refused as the caller's error without holding a frame slot.
// ContractTraits adapts the broadphase, which finds its own candidates and returns
// BroadphaseResults, to the detectors' shape.
#pragma once

#include "vk/commands.h"
#include "vk/context.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/context.h"
#include "vkcollide/detector.h"
#include "vkcollide/results.h"
#include "vkcollide/scene.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace vkc::test {

// Submits a command buffer that `record` fills, as a host's frame would, and waits for it. The
// recording's status, or the submit's where that failed.
inline Status recordInHostSubmit(VulkanContext& vk, const std::function<Status(VkCommandBuffer)>& record) {
    Status recorded = Status::success();
    Status submitted = submitAndWait(vk, [&](VkCommandBuffer cmd) { recorded = record(cmd); });
    return submitted.ok() ? recorded : submitted;
}

// Signals a detector's completion semaphore from the host: stands in for the host's submit.
inline VkResult signalFromHost(VulkanContext& vk, const VkSemaphoreSubmitInfo& signal) {
    VkSemaphoreSignalInfo info = {VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
    info.semaphore = signal.semaphore;
    info.value = signal.value;
    return vk.vkd.vkSignalSemaphore(vk.device, &info);
}

// Frame `frame` as a renderer records it: `broadphase` and then `tested` over the broadphase's
// candidates in one host submit, both completion signals handed out and signalled by the host.
template <class Tested>
Status recordGpuDrivenFrameInHostSubmit(VulkanContext& vk, Broadphase& broadphase, Tested& tested, const Scene& scene,
                                        uint64_t frame) {
    VKC_TRY(recordInHostSubmit(vk, [&](VkCommandBuffer cmd) {
        VKC_TRY(broadphase.record(cmd, scene, frame));
        return tested.record(cmd, scene, broadphase, frame);
    }));
    if (signalFromHost(vk, broadphase.completionSignal(frame)) != VK_SUCCESS ||
        signalFromHost(vk, tested.completionSignal(frame)) != VK_SUCCESS)
        return makeError(ErrorCode::VulkanError, "signalling frame " + std::to_string(frame) + " failed");
    return Status::success();
}

// A detector as the contract drives it: record over candidates, FrameResults.
template <class Tested>
struct ContractTraits {
    using Results = FrameResults;
    static Status record(Tested& tested, VkCommandBuffer cmd, const Scene& scene, const CandidateSet& candidates,
                         uint64_t frame) {
        return tested.record(cmd, scene, candidates, frame);
    }
};

// The broadphase finds its own candidates (the ones given are ignored) and returns BroadphaseResults.
template <>
struct ContractTraits<Broadphase> {
    using Results = BroadphaseResults;
    static Status record(Broadphase& broadphase, VkCommandBuffer cmd, const Scene& scene, const CandidateSet&,
                         uint64_t frame) {
        return broadphase.record(cmd, scene, frame);
    }
};

// Frame `frame` over `candidates` recorded into a host submit, with its completion signal handed out.
template <class Tested>
Status recordFrameInHostSubmit(VulkanContext& vk, Tested& tested, const Scene& scene,
                               const BroadphaseResults& candidates, uint64_t frame) {
    Status recorded = recordInHostSubmit(vk, [&](VkCommandBuffer cmd) {
        return ContractTraits<Tested>::record(tested, cmd, scene, candidates, frame);
    });
    if (recorded.ok()) tested.completionSignal(frame);
    return recorded;
}

// Frame 0 over `candidates` recorded into the host's command buffer: results() says NotReady
// until the host signals completionSignal(0) (before the signal is even handed out, too), then
// gives the frame, with `expectedPairs` pairs.
template <class Tested>
void expectResultsWaitForHostSignal(VulkanContext& vk, Tested& tested, const Scene& scene,
                                    const BroadphaseResults& candidates, size_t expectedPairs) {
    Status recorded = recordInHostSubmit(vk, [&](VkCommandBuffer cmd) {
        return ContractTraits<Tested>::record(tested, cmd, scene, candidates, 0);
    });
    ASSERT_TRUE(recorded.ok()) << recorded.describe();
    typename ContractTraits<Tested>::Results out;
    Status unsignalled = tested.results(0, out);
    EXPECT_EQ(unsignalled.code, ErrorCode::NotReady) << "before completionSignal(0): " << unsignalled.describe();
    VkSemaphoreSubmitInfo signal = tested.completionSignal(0);
    Status early = tested.results(0, out);
    EXPECT_EQ(early.code, ErrorCode::NotReady) << early.describe();
    ASSERT_EQ(signalFromHost(vk, signal), VK_SUCCESS);
    Status read = tested.results(0, out);
    ASSERT_TRUE(read.ok()) << read.describe();
    if constexpr (std::is_same_v<decltype(out), FrameResults>) EXPECT_EQ(out.colliding, expectedPairs > 0);
    EXPECT_EQ(out.pairs.size(), expectedPairs);
}

// framesInFlight frames recorded and handed their signals, none signalled: the next frame reuses
// frame 0's slot and is NotReady, never a wait; once the host signals frame 0 it records, and every
// frame reads back in order as the host signals it.
template <class Tested>
void expectFramesInFlightLimited(VulkanContext& vk, Tested& tested, const Scene& scene,
                                 const BroadphaseResults& candidates) {
    const uint32_t inFlight = tested.settings().framesInFlight;
    ASSERT_GE(inFlight, 1u);
    for (uint64_t frame = 0; frame < inFlight; ++frame) {
        Status recorded = recordFrameInHostSubmit(vk, tested, scene, candidates, frame);
        ASSERT_TRUE(recorded.ok()) << "frame " << frame << ": " << recorded.describe();
    }
    Status busy = recordFrameInHostSubmit(vk, tested, scene, candidates, inFlight);
    EXPECT_EQ(busy.code, ErrorCode::NotReady) << busy.describe();
    typename ContractTraits<Tested>::Results out;
    EXPECT_EQ(tested.results(0, out).code, ErrorCode::NotReady);
    ASSERT_EQ(signalFromHost(vk, tested.completionSignal(0)), VK_SUCCESS);
    Status read = tested.results(0, out);
    EXPECT_TRUE(read.ok()) << read.describe();
    Status freed = recordFrameInHostSubmit(vk, tested, scene, candidates, inFlight);
    ASSERT_TRUE(freed.ok()) << freed.describe();
    // Frame inFlight took frame 0's slot: frame 0's results are gone.
    EXPECT_EQ(tested.results(0, out).code, ErrorCode::InvalidArgument);
    for (uint64_t frame = 1; frame <= inFlight; ++frame) {
        ASSERT_EQ(signalFromHost(vk, tested.completionSignal(frame)), VK_SUCCESS);
        read = tested.results(frame, out);
        EXPECT_TRUE(read.ok()) << "frame " << frame << ": " << read.describe();
    }
}

// Stands in for the context's vkGetQueryPoolResults (the library calls Vulkan only through the
// context's device table) while it lives, counting the calls; the real entry comes back after.
class QueryResultsCallCounter {
public:
    explicit QueryResultsCallCounter(VulkanContext& vk) : vk_(vk), real_(vk.vkd.vkGetQueryPoolResults) {
        calls_ = 0;
        vk_.vkd.vkGetQueryPoolResults = counted;
    }
    ~QueryResultsCallCounter() { vk_.vkd.vkGetQueryPoolResults = real_; }
    QueryResultsCallCounter(const QueryResultsCallCounter&) = delete;
    QueryResultsCallCounter& operator=(const QueryResultsCallCounter&) = delete;
    static int calls() { return calls_; }

private:
    static VKAPI_ATTR VkResult VKAPI_CALL counted(VkDevice, VkQueryPool, uint32_t, uint32_t, size_t, void*,
                                                  VkDeviceSize, VkQueryResultFlags) {
        ++calls_;
        return VK_NOT_READY;
    }
    VulkanContext& vk_;
    PFN_vkGetQueryPoolResults real_;
    inline static int calls_ = 0;
};

// Frame 0 over `candidates`, recorded into a host submit that the host waited for, then signalled:
// results() reads it, occlusion queries and pass timestamps included, without asking the driver
// for query results (vkGetQueryPoolResults, which blocks for tens of ms on lavapipe even for
// available queries), and its GPU timings, finite and not negative, name every pass of `passes`.
template <class Tested>
void expectResultsReadGpuTimingsFromMemory(VulkanContext& vk, Tested& tested, const Scene& scene,
                                           const BroadphaseResults& candidates,
                                           const std::vector<std::string>& passes) {
    Status recorded = recordFrameInHostSubmit(vk, tested, scene, candidates, 0);
    ASSERT_TRUE(recorded.ok()) << recorded.describe();
    ASSERT_EQ(signalFromHost(vk, tested.completionSignal(0)), VK_SUCCESS);
    typename ContractTraits<Tested>::Results out;
    Status read = Status::success();
    {
        QueryResultsCallCounter counter(vk);
        read = tested.results(0, out);
        EXPECT_EQ(QueryResultsCallCounter::calls(), 0) << "results() asked the driver for query results";
    }
    ASSERT_TRUE(read.ok()) << read.describe();
    EXPECT_FALSE(out.pairs.empty());
    for (const std::string& pass : passes) EXPECT_TRUE(out.gpuTimingsMs.count(pass)) << "no GPU time for " << pass;
    for (const auto& [pass, ms] : out.gpuTimingsMs) {
        EXPECT_TRUE(std::isfinite(ms)) << pass;
        EXPECT_GE(ms, 0.0) << pass;
    }
}

// `tested` and `blocking`, created with disableGpuTimings: a frame's results and run(scene)'s (with
// a detector's own broadphase) carry no GPU timings, and the pairs are still found. (Two objects:
// run() numbers its frames itself, which a host's frame numbers on the same object would clash with.)
template <class Tested>
void expectNoGpuTimingsWhenDisabled(VulkanContext& vk, Tested& tested, Tested& blocking, const Scene& scene,
                                    const BroadphaseResults& candidates) {
    ASSERT_TRUE(tested.settings().disableGpuTimings);
    ASSERT_TRUE(blocking.settings().disableGpuTimings);
    Status recorded = recordFrameInHostSubmit(vk, tested, scene, candidates, 0);
    ASSERT_TRUE(recorded.ok()) << recorded.describe();
    ASSERT_EQ(signalFromHost(vk, tested.completionSignal(0)), VK_SUCCESS);
    typename ContractTraits<Tested>::Results out;
    Status read = tested.results(0, out);
    ASSERT_TRUE(read.ok()) << read.describe();
    EXPECT_FALSE(out.pairs.empty());
    EXPECT_TRUE(out.gpuTimingsMs.empty()) << out.gpuTimingsMs.begin()->first;
    auto ran = blocking.run(scene);
    ASSERT_TRUE(ran) << ran.status().describe();
    EXPECT_FALSE(ran->pairs.empty());
    EXPECT_TRUE(ran->gpuTimingsMs.empty()) << ran->gpuTimingsMs.begin()->first;
}

// `tested`, created with maxObjects one below `scene`'s object count: its blocking run(scene)
// refuses the scene with InvalidArgument naming maxObjects, twice (the frame numbers of both
// framesInFlight slots); the refused frames hold no slot, so `smaller` (maxObjects objects) runs.
template <class Tested>
void expectTooManyObjectsRefused(Tested& tested, const Scene& scene, const Scene& smaller) {
    ASSERT_EQ(tested.settings().maxObjects + 1, scene.objectCount());
    ASSERT_EQ(tested.settings().maxObjects, smaller.objectCount());
    for (uint32_t attempt = 0; attempt < tested.settings().framesInFlight; ++attempt) {
        auto refused = tested.run(scene);
        ASSERT_FALSE(refused) << "attempt " << attempt;
        EXPECT_EQ(refused.status().code, ErrorCode::InvalidArgument) << refused.status().describe();
        EXPECT_NE(refused.status().message.find("maxObjects"), std::string::npos) << refused.status().describe();
    }
    auto ran = tested.run(smaller);
    EXPECT_TRUE(ran) << ran.status().describe();
}

// A candidate pair naming the first id past the last object, and fewer world bounds than objects:
// InvalidArgument, not a crash or an empty frame. The refused frames must not hold their frame
// slots: a valid frame right after them runs (with two frames in flight it reuses the first
// refused frame's slot). `scene` needs two objects or more.
template <class Detector>
void expectBadCandidatesRefused(Detector& detector, const Scene& scene) {
    const uint32_t objects = scene.objectCount();
    ASSERT_GE(objects, 2u);
    BroadphaseResults bad;
    bad.worldBounds.resize(objects);
    bad.pairs = {{0, objects}};
    auto unknown = detector.run(scene, bad);
    ASSERT_FALSE(unknown);
    EXPECT_EQ(unknown.status().code, ErrorCode::InvalidArgument) << unknown.status().describe();
    bad.pairs = {{0, 1}};
    bad.worldBounds.resize(objects - 1);
    auto missing = detector.run(scene, bad);
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.status().code, ErrorCode::InvalidArgument) << missing.status().describe();
    BroadphaseResults valid;
    valid.pairs = {{0, 1}};
    for (uint32_t object = 0; object < objects; ++object)
        valid.worldBounds.push_back(placedMeshBounds(scene.mesh(scene.objectMesh(object)), scene.transform(object)));
    auto after = detector.run(scene, valid);
    EXPECT_TRUE(after) << after.status().describe();
}

// A detector created with maxCandidatePairs = `limit` given more unique candidate pairs than that
// (`pcs`, as its own broadphase finds them in `scene`): InvalidArgument naming the setting, from
// run(scene) and from run(scene, pcs), as record() documents. The same `limit` pairs written with
// repeats, reversals and self pairs count as `limit` and run (the refused frames hold no frame
// slot): `atLimit` and `details` receive that frame for the caller to compare with the oracle.
template <class Detector, class Details>
void expectCandidateLimitRefused(Detector& detector, const Scene& scene, const BroadphaseResults& pcs, uint32_t limit,
                                 FrameResults& atLimit, Details& details) {
    ASSERT_EQ(detector.settings().maxCandidatePairs, limit);
    ASSERT_GT(pcs.pairs.size(), size_t(limit));
    for (int own = 0; own < 2; ++own) {
        auto over = own ? detector.run(scene) : detector.run(scene, pcs);
        ASSERT_FALSE(over) << (own ? "its own broadphase's " : "") << pcs.pairs.size() << " candidates ran";
        EXPECT_EQ(over.status().code, ErrorCode::InvalidArgument) << over.status().describe();
        EXPECT_NE(over.status().message.find("maxCandidatePairs"), std::string::npos) << over.status().describe();
    }
    BroadphaseResults some = pcs;
    some.pairs.clear();
    for (uint32_t i = 0; i < limit; ++i) {
        const ObjectPair pair = pcs.pairs[i];
        some.pairs.insert(some.pairs.end(), {pair, {pair.b, pair.a}, {pair.a, pair.a}, pair});
    }
    some.pairCount = uint32_t(some.pairs.size());
    auto ran = detector.run(scene, some, &details);
    ASSERT_TRUE(ran) << ran.status().describe();
    atLimit = std::move(ran.value());
}

// A frame whose point list overflowed (`truncated`, details `some`) against the same frame with room
// for every point (`all`): the count stays exact, the frame and every pair say truncated, and a
// warning names pointCapacity. (How many points were kept, the caller checks.)
template <class Details>
void expectPointsTruncated(const FrameResults& truncated, const Details& some, const Details& all) {
    EXPECT_FALSE(all.pointsTruncated);
    EXPECT_EQ(some.pointCount, all.pointCount) << "the count stays exact past the capacity";
    EXPECT_TRUE(some.pointsTruncated);
    EXPECT_TRUE(truncated.truncated);
    for (const PairResult& pair : truncated.pairs) EXPECT_TRUE(pair.truncated) << "pair (" << pair.a << ", " << pair.b << ")";
    bool warned = false;
    for (const std::string& warning : truncated.warnings) warned = warned || warning.find("pointCapacity") != std::string::npos;
    EXPECT_TRUE(warned) << "no warning names pointCapacity";
}

// Settings out of range: create() refuses them with InvalidArgument.
template <class Detector, class Settings>
void expectSettingsRefused(Context& context, const Settings& settings) {
    auto invalid = Detector::create(context, settings);
    ASSERT_FALSE(invalid);
    EXPECT_EQ(invalid.status().code, ErrorCode::InvalidArgument) << invalid.status().describe();
}

}  // namespace vkc::test
