// The detector contract (tests/support/detector_contract.h, include/vkcollide/detector.h) over
// every detector and the broadphase through one typed suite: the same checks, the same scenes,
// instantiated for stencil, ldi, consistent-pairs, aabb-tree, ebpi and the broadphase (the candidate
// checks for the five detectors; the broadphase finds its own candidates).
#include "collision/frames/detector_settings.h"
#include "tests/support/detector_contract.h"
#include "tests/support/method_scenes.h"
#include "tests/support/small_settings.h"
#include "vkcollide/aabb_tree.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/consistent_pairs.h"
#include "vkcollide/ebpi.h"
#include "vkcollide/ldi.h"
#include "vkcollide/stencil.h"

#include <gtest/gtest.h>


#include <string>
#include <type_traits>
#include <vector>

namespace vkc {
namespace {

// Passes every frame of the two overlapping boxes runs, each method's first and its read-back (the
// last: its end timestamp is the last one the GPU copies before the frame's signal).
std::vector<std::string> timedPasses(StencilDetector*) {
    return {"stencil-setup", "stencil-boolean", "stencil-readback"};
}
std::vector<std::string> timedPasses(ConsistentPairsDetector*) {
    return {"consistent-pairs-setup", "consistent-pairs-peel", "consistent-pairs-readback"};
}
std::vector<std::string> timedPasses(LdiDetector*) { return {"ldi-peel-setup", "ldi-layers", "ldi-readback"}; }
std::vector<std::string> timedPasses(AabbTreeDetector*) { return {"aabb-upload", "aabb-traverse", "aabb-readback"}; }
std::vector<std::string> timedPasses(EbpiDetector*) { return {"ebpi-image-clear", "ebpi-trace", "ebpi-readback"}; }
std::vector<std::string> timedPasses(Broadphase*) {
    return {"broadphase-clear", "broadphase-bounds", "broadphase-pairs", "broadphase-readback"};
}

template <class Tested>
class Contract : public test::MethodSceneTest {
protected:
    using Settings = typename Tested::Settings;
    static Settings settings() { return test::smallSettings(static_cast<Tested*>(nullptr)); }

    // A new scene of closed solids placed by `place` (MethodSceneTest's scenes).
    template <class Place>
    Scene sceneOf(Place place) {
        auto scene = Scene::create(context_, kVolumeMethodRequirements);
        EXPECT_TRUE(scene) << scene.status().describe();
        place(scene.value());
        return std::move(scene.value());
    }
    Scene overlappingBoxes() {
        return sceneOf([this](Scene& scene) { addOverlappingBoxes(scene); });
    }
    Tested create(const Settings& settings) {
        auto tested = Tested::create(context_, settings);
        EXPECT_TRUE(tested) << tested.status().describe();
        return std::move(tested.value());
    }
};

template <class Tested>
class FrameContract : public Contract<Tested> {};
using FrameTested =
    ::testing::Types<StencilDetector, LdiDetector, ConsistentPairsDetector, AabbTreeDetector, EbpiDetector, Broadphase>;
TYPED_TEST_SUITE(FrameContract, FrameTested);

template <class Tested>
class CandidateContract : public Contract<Tested> {};
using CandidateTested =
    ::testing::Types<StencilDetector, LdiDetector, ConsistentPairsDetector, AabbTreeDetector, EbpiDetector>;
TYPED_TEST_SUITE(CandidateContract, CandidateTested);

// Two overlapping boxes: one pair, from the broadphase and from every detector.
TYPED_TEST(FrameContract, ResultsWaitForTheHostsSignal) {
    Scene scene = this->overlappingBoxes();
    TypeParam tested = this->create(this->settings());
    test::expectResultsWaitForHostSignal(this->vk(), tested, scene, this->allPairs(), 1);
}

TYPED_TEST(FrameContract, ResultsReadQueriesAndGpuTimingsFromMemoryNeverFromTheDriver) {
    Scene scene = this->overlappingBoxes();
    TypeParam tested = this->create(this->settings());
    test::expectResultsReadGpuTimingsFromMemory(this->vk(), tested, scene, this->allPairs(),
                                                timedPasses(static_cast<TypeParam*>(nullptr)));
}

TYPED_TEST(FrameContract, DisabledGpuTimingsLeaveTheTimingsEmpty) {
    Scene scene = this->overlappingBoxes();
    auto settings = this->settings();
    settings.disableGpuTimings = true;
    TypeParam tested = this->create(settings);
    TypeParam blocking = this->create(settings);
    test::expectNoGpuTimingsWhenDisabled(this->vk(), tested, blocking, scene, this->allPairs());
}

TYPED_TEST(FrameContract, NoMoreThanFramesInFlight) {
    Scene scene = this->overlappingBoxes();
    TypeParam tested = this->create(this->settings());
    test::expectFramesInFlightLimited(this->vk(), tested, scene, this->allPairs());
}

TYPED_TEST(FrameContract, ScenesAboveMaxObjectsRefused) {
    Scene three = this->sceneOf([this](Scene& scene) { this->addOverlappingAndSeparatedBoxes(scene); });
    Scene two = this->overlappingBoxes();
    auto settings = this->settings();
    settings.maxObjects = 2;
    TypeParam tested = this->create(settings);
    test::expectTooManyObjectsRefused(tested, three, two);
}

// stencil packs object indices in 16 bits; the others hold as many as one binding of their
// per-object tables does (LargeScene tests them above 65,535).
TYPED_TEST(FrameContract, MaxObjectsBeyondTheLimitRefused) {
    auto settings = this->settings();
    // stencil: 16-bit ids; the others: more than any device's binding holds, or than 31-bit ids.
    constexpr bool packedIds = std::is_same_v<TypeParam, StencilDetector>;
    settings.maxObjects = packedIds ? kMaxPackedIdObjects + 1 : 0xffffffffu;
    test::expectSettingsRefused<TypeParam>(this->context_, settings);
}

TYPED_TEST(CandidateContract, BadCandidatesRefused) {
    Scene scene = this->overlappingBoxes();
    TypeParam detector = this->create(this->settings());
    test::expectBadCandidatesRefused(detector, scene);
}

TYPED_TEST(CandidateContract, CandidatesAboveMaxCandidatePairsRefused) {
    FrameResults atLimit;
    typename TypeParam::Details details;
    ASSERT_NO_FATAL_FAILURE(this->template expectCandidateLimitOfOne<TypeParam>(this->settings(), atLimit, details));
}

}  // namespace
}  // namespace vkc
