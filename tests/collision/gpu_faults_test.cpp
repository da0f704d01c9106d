// GPU faults a host must survive (issue 15), for every detector and the broadphase: device memory
// that runs out during a frame and a device lost at submit come back as errors from run(), never
// a hang or an abort, and the next frame runs and answers right; device memory stays flat over
// 1,000 frames of a moving, deforming scene. Faults are injected through the context's allocator
// (the host-replaceable Allocator interface) and its device table.
#include "tests/support/method_scenes.h"
#include "tests/support/small_settings.h"
#include "vk/context.h"
#include "vkcollide/aabb_tree.h"
#include "vkcollide/allocator.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/consistent_pairs.h"
#include "vkcollide/ebpi.h"
#include "vkcollide/ldi.h"
#include "vkcollide/stencil.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <utility>

namespace vkc {
namespace {

// Forwards to the context's allocator, counts what it holds, and fails one chosen call.
class FaultInjectingAllocator : public Allocator {
public:
    explicit FaultInjectingAllocator(VulkanContext& vk) : vk_(vk), inner_(*vk.allocator) { vk.allocator = this; }
    ~FaultInjectingAllocator() override { vk_.allocator = &inner_; }
    FaultInjectingAllocator(const FaultInjectingAllocator&) = delete;
    FaultInjectingAllocator& operator=(const FaultInjectingAllocator&) = delete;

    Result<Allocation> allocate(const AllocationRequest& request) override {
        if (++calls_ == failAt_)
            return makeError(ErrorCode::OutOfDeviceMemory, std::string("injected failure allocating ") + request.name);
        auto allocation = inner_.allocate(request);
        if (allocation) live_[{allocation->memory, allocation->offset}] = allocation->size;
        return allocation;
    }
    void free(const Allocation& allocation) override {
        live_.erase({allocation.memory, allocation.offset});
        inner_.free(allocation);
    }

    // The `n`th allocation from now (1: the next) fails; 0: none.
    void failIn(uint64_t n) { failAt_ = n ? calls_ + n : 0; }
    uint64_t calls() const { return calls_; }
    size_t liveAllocations() const { return live_.size(); }
    VkDeviceSize liveBytes() const {
        VkDeviceSize bytes = 0;
        for (const auto& [where, size] : live_) bytes += size;
        return bytes;
    }

private:
    VulkanContext& vk_;
    Allocator& inner_;
    uint64_t calls_ = 0, failAt_ = 0;
    std::map<std::pair<VkDeviceMemory, VkDeviceSize>, VkDeviceSize> live_;
};

template <class Tested>
class GpuFaults : public test::MethodSceneTest {
protected:
    Tested create() {
        auto tested = Tested::create(context_, test::smallSettings(static_cast<Tested*>(nullptr)));
        EXPECT_TRUE(tested) << tested.status().describe();
        return std::move(tested.value());
    }
    Scene overlappingBoxes() {
        auto scene = Scene::create(context_, kVolumeMethodRequirements);
        EXPECT_TRUE(scene) << scene.status().describe();
        addOverlappingBoxes(scene.value());
        return std::move(scene.value());
    }
};

using Tested = ::testing::Types<StencilDetector, LdiDetector, ConsistentPairsDetector, AabbTreeDetector, EbpiDetector,
                                Broadphase>;
TYPED_TEST_SUITE(GpuFaults, Tested);

// The first, a middle and the last allocation of a detector's first frame fail in turn, each on a
// new detector: run() says OutOfDeviceMemory naming what it allocated, the next run() finds the
// one pair of the overlapping boxes, and the detector frees everything it held.
TYPED_TEST(GpuFaults, OutOfDeviceMemoryDuringAFrameIsAnErrorAndTheNextFrameRuns) {
    FaultInjectingAllocator allocator(this->vk());
    Scene scene = this->overlappingBoxes();
    const size_t sceneAllocations = allocator.liveAllocations();
    uint64_t frameAllocations = 0;
    {
        TypeParam probe = this->create();
        const uint64_t before = allocator.calls();
        ASSERT_TRUE(probe.run(scene));
        frameAllocations = allocator.calls() - before;
    }
    ASSERT_GT(frameAllocations, 0u) << "a first frame allocates its graph's resources";
    for (uint64_t failing : {uint64_t(1), (frameAllocations + 1) / 2, frameAllocations}) {
        {
            TypeParam tested = this->create();
            allocator.failIn(failing);
            auto failed = tested.run(scene);
            allocator.failIn(0);
            ASSERT_FALSE(failed) << "allocation " << failing << " of " << frameAllocations << " failed unnoticed";
            EXPECT_EQ(failed.status().code, ErrorCode::OutOfDeviceMemory) << failed.status().describe();
            EXPECT_NE(failed.status().message.find("injected failure allocating"), std::string::npos)
                << failed.status().describe();
            auto next = tested.run(scene);
            ASSERT_TRUE(next) << "after allocation " << failing << " failed: " << next.status().describe();
            EXPECT_EQ(next->pairs.size(), 1u);
        }
        EXPECT_EQ(allocator.liveAllocations(), sceneAllocations) << "the detector freed what it held";
    }
}

VkResult VKAPI_CALL lostAtSubmit(VkQueue, uint32_t, const VkSubmitInfo2*, VkFence) { return VK_ERROR_DEVICE_LOST; }

// A submit that reports a lost device: run() returns the error (no wait on a frame that never
// ran), and once the device answers again, the next run() finds the pair.
TYPED_TEST(GpuFaults, DeviceLostAtSubmitIsAnErrorNotAHang) {
    Scene scene = this->overlappingBoxes();
    TypeParam tested = this->create();
    ASSERT_TRUE(tested.run(scene));
    const PFN_vkQueueSubmit2 submit = this->vk().vkd.vkQueueSubmit2;
    this->vk().vkd.vkQueueSubmit2 = lostAtSubmit;
    auto lost = tested.run(scene);
    this->vk().vkd.vkQueueSubmit2 = submit;
    ASSERT_FALSE(lost);
    EXPECT_EQ(lost.status().vkResult, VK_ERROR_DEVICE_LOST) << lost.status().describe();
    for (int frame = 0; frame < 3; ++frame) {
        auto next = tested.run(scene);
        ASSERT_TRUE(next) << "frame " << frame << " after the lost submit: " << next.status().describe();
        EXPECT_EQ(next->pairs.size(), 1u);
    }
}

// 1,000 frames: the broadphase, then one detector in turn over its candidates, while one box
// moves through the other and the other breathes (its vertices rewritten every frame). Sizes
// repeat every 40 frames, so after the first cycles every capacity has grown to what the scene
// needs: from frame 100 on, the device memory held must not change.
class GpuMemory : public test::MethodSceneTest {};

TEST_F(GpuMemory, FlatOverAThousandFramesOfAMovingDeformingScene) {
    FaultInjectingAllocator allocator(vk());
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    const MeshId box = addOverlappingBoxes(scene.value());
    const MeshData rest = scene->mesh(box);
    auto broadphase = Broadphase::create(context_, test::smallSettings(static_cast<Broadphase*>(nullptr)));
    auto stencil = StencilDetector::create(context_, test::smallSettings(static_cast<StencilDetector*>(nullptr)));
    auto ldi = LdiDetector::create(context_, test::smallSettings(static_cast<LdiDetector*>(nullptr)));
    auto consistentPairs =
        ConsistentPairsDetector::create(context_, test::smallSettings(static_cast<ConsistentPairsDetector*>(nullptr)));
    auto aabbTree = AabbTreeDetector::create(context_, test::smallSettings(static_cast<AabbTreeDetector*>(nullptr)));
    auto ebpi = EbpiDetector::create(context_, test::smallSettings(static_cast<EbpiDetector*>(nullptr)));
    ASSERT_TRUE(broadphase && stencil && ldi && consistentPairs && aabbTree && ebpi);

    size_t liveAt100 = 0;
    VkDeviceSize bytesAt100 = 0;
    for (int frame = 0; frame < 1000; ++frame) {
        const float phase = float(frame % 40) / 40.0f * 6.2831853f;
        std::vector<glm::vec3> breathing = rest.positions;
        for (glm::vec3& p : breathing) p *= 1.0f + 0.2f * std::sin(phase);
        ASSERT_TRUE(scene->updateVertices(box, breathing).ok());
        ASSERT_TRUE(scene->setTransform(1, glm::translate(glm::mat4(1.0f), {1.6f * std::cos(phase), 0.2f, 0.1f})).ok());
        auto pcs = broadphase->run(scene.value());
        ASSERT_TRUE(pcs) << "frame " << frame << ": " << pcs.status().describe();
        Result<FrameResults> results = makeError(ErrorCode::InvalidArgument, "no detector ran");
        switch (frame % 5) {
            case 0: results = stencil->run(scene.value(), pcs.value()); break;
            case 1: results = ldi->run(scene.value(), pcs.value()); break;
            case 2: results = consistentPairs->run(scene.value(), pcs.value()); break;
            case 3: results = ebpi->run(scene.value(), pcs.value()); break;
            default: results = aabbTree->run(scene.value(), pcs.value()); break;
        }
        ASSERT_TRUE(results) << "frame " << frame << ": " << results.status().describe();
        if (frame == 100) {
            liveAt100 = allocator.liveAllocations();
            bytesAt100 = allocator.liveBytes();
        } else if (frame > 100) {
            ASSERT_EQ(allocator.liveAllocations(), liveAt100) << "frame " << frame;
            ASSERT_EQ(allocator.liveBytes(), bytesAt100) << "frame " << frame;
        }
    }
    EXPECT_GT(bytesAt100, 0u);
}

}  // namespace
}  // namespace vkc
