// Tier B: ebpi's volume pass (shaders_glsl/ebpi_volume.comp) on a device under the validation
// layer, bit for bit equal to the CPU reference (collision/ebpi/ebpi_volume_cpu.h) on the same hit
// lists: those the casting passes write on the device (compute backend) for two boxes (exact
// volume 0.75) and a shared-mesh pair, and CPU-cast ones with an open mesh (odd rays) and a small
// capacity (truncated rays), with the stats exact; contributions past the fixed-point limit
// flagged, never wrapped; a dispatch whose sums could wrap refused.
#include "tests/ebpi/ebpi_trace_support.h"
#include "tests/ebpi/ebpi_volume_gpu_support.h"
#include "tests/ebpi/ebpi_volume_scenes.h"
#include "tests/support/reflection_check.h"

#include <gtest/gtest.h>

#include <random>

namespace vkc {
namespace {

using namespace ebpi_test;

class EbpiVolumeGpuTest : public test::VulkanTest {};

::testing::AssertionResult sameFixed(const EbpiVolumeFixed& gpu, const EbpiVolumeFixed& cpu) {
    if (gpu.sums.size() != cpu.sums.size() ||
        std::memcmp(gpu.sums.data(), cpu.sums.data(), cpu.sums.size() * sizeof(cpu.sums[0])) != 0)
        return ::testing::AssertionFailure() << "the (pair, axis) sums differ";
    for (size_t w = 0; w < cpu.gradientWords.size(); ++w)
        if (gpu.gradientWords[w] != cpu.gradientWords[w])
            return ::testing::AssertionFailure() << "gradient word " << w << " (slot " << w / 6 << "): gpu "
                                                 << gpu.gradientWords[w] << ", cpu " << cpu.gradientWords[w];
    return ::testing::AssertionSuccess();
}

// The hit lists the device's casting passes write for the scene's rays.
Result<TraceRun> castOnGpu(VulkanContext& ctx, const VolumeScene& s, uint32_t capacity) {
    return runTrace(ctx, EbpiRayBackend::Compute, s.objects, s.rays, capacity);
}

TEST_F(EbpiVolumeGpuTest, LayoutMatchesTheShader) {
    Status status = test::checkPipelineLayout(kSpirv_ebpi_volume_comp, ebpiVolumePipelineLayout(), "ebpi_volume.comp");
    EXPECT_TRUE(status.ok()) << status.describe();
}

TEST_F(EbpiVolumeGpuTest, BoxesOnDeviceHitsEqualTheReferenceAndTheExactVolume) {
    const MeshData cube = cubeMesh();
    std::vector<TraceObject> objects = {{&cube, glm::mat4(1.0f)}, {&cube, boxBPose()}};
    glm::vec3 lo, hi;
    overlapBox(gridScene(objects, glm::vec3(0.0f), glm::vec3(1.0f), 1), lo, hi);
    const VolumeScene scene = gridScene(objects, lo, hi, 8);
    auto traced = castOnGpu(vk(), scene, 16);
    ASSERT_TRUE(traced) << traced.status().describe();
    const EbpiHitLists lists{traced->hitCapacity, traced->rayHits, traced->hits};
    auto run = runVolumeOnGpu(vk(), scene, lists);
    ASSERT_TRUE(run) << run.status().describe();
    const EbpiVolumeFixed cpu = cpuFixed(scene, lists);
    EXPECT_TRUE(sameFixed(run->fixed, cpu));
    const VolumeResult r = resolve(scene, run->fixed);
    for (int axis = 0; axis < 3; ++axis) {
        EXPECT_EQ(r.pair.rays[axis], 64u);
        EXPECT_LE(std::abs(r.pair.volume[axis] - kBoxesOverlapVolume), r.pair.roundingBound[axis]) << axis;
        EXPECT_NEAR(r.translationB[axis], axis == 0 ? -1.0 : 0.0, r.pair.gradientRoundingBound[axis] + 1e-12);
    }
    EXPECT_EQ(run->passes, (std::vector<std::string>{kEbpiVolumeClearPassName, kEbpiVolumePassName,
                                                     kEbpiVolumeReadbackPassName}));
}

TEST_F(EbpiVolumeGpuTest, SharedMeshPairOnDeviceHitsEqualsTheReference) {
    auto a = sharedMesh("sphere_ico4.stl");
    auto b = sharedMesh("knot.off");
    if (!a || !b) {
        if (test::deviceRequired()) FAIL() << "VKC_SHARED_DIR meshes missing";
        GTEST_SKIP() << "VKC_SHARED_DIR meshes missing";
    }
    std::mt19937 rng(7);
    for (int trial = 0; trial < 2; ++trial) {
        glm::vec3 loA, hiA;
        objectBounds({&a.value(), glm::mat4(1.0f)}, loA, hiA);
        const float size = glm::length(hiA - loA);
        std::vector<TraceObject> objects = {{&a.value(), randomPose(rng, 0.05f * size)},
                                            {&b.value(), randomPose(rng, 0.2f * size)}};
        glm::vec3 lo, hi;
        overlapBox(gridScene(objects, glm::vec3(0.0f), glm::vec3(1.0f), 1), lo, hi);
        const VolumeScene scene = gridScene(objects, lo, hi, 48);
        auto traced = castOnGpu(vk(), scene, 32);
        ASSERT_TRUE(traced) << traced.status().describe();
        const EbpiHitLists lists{traced->hitCapacity, traced->rayHits, traced->hits};
        auto run = runVolumeOnGpu(vk(), scene, lists);
        ASSERT_TRUE(run) << run.status().describe();
        EXPECT_TRUE(sameFixed(run->fixed, cpuFixed(scene, lists))) << "trial " << trial;
        const VolumeResult r = resolve(scene, run->fixed);
        EXPECT_GT(r.volume, 0.0) << "trial " << trial;
        EXPECT_FALSE(r.gradientB.empty());
    }
}

TEST_F(EbpiVolumeGpuTest, OddAndTruncatedRaysAreCountedExactlyAndAddNothing) {
    const MeshData open = openCubeMesh(), cube = cubeMesh();
    const VolumeScene scene =
        gridScene({{&open, glm::mat4(1.0f)}, {&cube, boxBPose()}}, {-1.0f, -0.95f, -1.0f}, {1.0f, 1.05f, 1.0f}, 10);
    for (uint32_t capacity : {16u, 3u}) {
        SCOPED_TRACE(capacity);
        const CpuHits hits = castOnCpu(scene, capacity);
        auto run = runVolumeOnGpu(vk(), scene, hits.lists());
        ASSERT_TRUE(run) << run.status().describe();
        EXPECT_TRUE(sameFixed(run->fixed, cpuFixed(scene, hits.lists())));
        const EbpiPairVolume pair = ebpiPairVolume(run->fixed, 0, scene.pair);
        uint32_t truncated = 0;
        for (const gpu::EbpiRayHitsGpu& h : hits.rayHits) truncated += h.truncated;
        EXPECT_EQ(pair.truncatedRays[0] + pair.truncatedRays[1] + pair.truncatedRays[2], truncated);
        if (capacity == 16) {
            EXPECT_EQ(truncated, 0u);
            EXPECT_EQ(pair.oddRays[2], 45u);  // the z rays through the hole (see the CPU test)
        } else {
            EXPECT_GT(truncated, 0u);
        }
    }
}

TEST_F(EbpiVolumeGpuTest, ContributionsPastTheLimitAreFlaggedNeverWrapped) {
    const MeshData cube = cubeMesh();
    std::vector<TraceObject> objects = {{&cube, glm::mat4(1.0f)}, {&cube, boxBPose()}};
    glm::vec3 lo, hi;
    overlapBox(gridScene(objects, glm::vec3(0.0f), glm::vec3(1.0f), 1), lo, hi);
    VolumeScene scene = gridScene(objects, lo, hi, 8);
    // Each ray's contribution (tile area 3/256 x length 3/4 or 1) at 2^60 quanta per unit is
    // ~10^16 quanta, past the volume's 2^51 limit, and each gradient contribution at 2^45 per unit
    // past its 2^36: dropped, and the pair flagged.
    scene.pair.volumeScale = 0x1p60;
    scene.pair.gradientScale = 0x1p45;
    const CpuHits hits = castOnCpu(scene, 16);
    auto run = runVolumeOnGpu(vk(), scene, hits.lists());
    ASSERT_TRUE(run) << run.status().describe();
    EXPECT_TRUE(sameFixed(run->fixed, cpuFixed(scene, hits.lists())));
    const VolumeResult r = resolve(scene, run->fixed);
    EXPECT_TRUE(r.pair.overflow);
    for (int axis = 0; axis < 3; ++axis) EXPECT_EQ(r.pair.volume[axis], 0.0) << axis;
}

TEST(EbpiVolumePasses, TooManyContributionsPerDispatchAreRefused) {
    Graph graph;
    EbpiVolumePassInputs in;
    in.rayCount = gpu::kEbpiVolumeMaxContributions / 4 + 1;
    in.hitCapacity = 4;
    auto out = addEbpiVolumePasses(graph, in);
    ASSERT_FALSE(out);
    EXPECT_EQ(out.status().code, ErrorCode::InvalidArgument);
    EXPECT_EQ(graph.passCount(), 0u);
}

}  // namespace
}  // namespace vkc
