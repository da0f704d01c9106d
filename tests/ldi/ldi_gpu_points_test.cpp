// Tier B: vertex-in-volume (paper 2, §3.3b) on a device. classifyPoints on 100k random points in
// an object's box against the exact point-in-mesh oracle: a point the LDI classifies differently
// must lie within the LDI's tolerance of the surface (half a pixel diagonal widened by the vertex
// snapping, plus float depth); a pair's inside vertices against the same oracle; and the embeddable
// recordPointQuery reading a host's interleaved particle buffer, with results NotReady until the
// frame's signal.
#include "collision/scene/generated_solids.h"
#include "collision/reference/point_classifier.h"
#include "tests/ldi/ldi_gpu_support.h"
#include "tests/support/detector_contract.h"
#include "tests/support/host_vertex_buffer.h"

#include <chrono>
#include <cstdio>

namespace vkc {
namespace {

class LdiGpuPoints : public test::VulkanTest {};

void checkPoints(Context& context, const MeshData& mesh, const glm::mat4& transform, uint32_t seed) {
    const ldi_test::Placed placed[1] = {{&mesh, transform}};
    auto scene = ldi_test::makeScene(context, placed, kVolumeMethodRequirements);
    ASSERT_TRUE(scene) << scene.status().describe();
    auto detector = LdiDetector::create(context, ldi_test::settingsAt(256));
    ASSERT_TRUE(detector) << detector.status().describe();
    const Aabb box = placedMeshBounds(mesh, transform);
    std::mt19937 rng(seed);
    std::vector<glm::vec3> points(100000);
    for (glm::vec3& p : points)
        for (int k = 0; k < 3; ++k) p[k] = std::uniform_real_distribution<float>(box.min[k], box.max[k])(rng);
    auto start = std::chrono::steady_clock::now();
    auto gpu = detector->classifyPoints(scene.value(), 0, points);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(gpu) << gpu.status().describe();
    EXPECT_FALSE(gpu->truncated);
    EXPECT_FALSE(gpu->layersTruncated);
    EXPECT_EQ(gpu->insideCount, gpu->inside.size());

    std::vector<glm::dvec3> worldPoints(points.begin(), points.end());
    auto exact = reference::pointsInside(mesh, transform, worldPoints);
    ASSERT_TRUE(exact) << exact.status().describe();
    std::vector<uint8_t> ldiInside(points.size(), 0);
    for (uint32_t i : gpu->inside) ldiInside[i] = 1;
    // Lateral: half the pixel diagonal (snapping-widened) of the z view over the box; depth: float.
    const double pixelU = (double(box.max.x) - box.min.x) / 256, pixelV = (double(box.max.y) - box.min.y) / 256;
    const double tolerance = (0.5 + 2.0 / 256) * std::hypot(pixelU, pixelV) + 1e-5 * (double(box.max.z) - box.min.z);
    size_t inside = 0, wrong = 0;
    for (size_t i = 0; i < points.size(); ++i) {
        inside += exact.value()[i];
        if (ldiInside[i] == exact.value()[i]) continue;
        ++wrong;
        double distance = ldi_test::distanceToSurface(mesh, transform, worldPoints[i]);
        EXPECT_LE(distance, tolerance) << mesh.name << ": point " << i << " misclassified " << distance / tolerance
                                       << " tolerances from the surface";
    }
    std::printf("%-16s GPU 256^2: %zu of 100000 inside (gpu %llu), %zu within %.3g of the surface classified "
                "differently, n_max %u, classifyPoints %.0f ms\n",
                mesh.name.c_str(), inside, (unsigned long long)gpu->insideCount, wrong, tolerance, gpu->layers, ms);
    EXPECT_GT(inside, 1000u);
    EXPECT_LT(wrong, points.size() / 50);
}

TEST_F(LdiGpuPoints, SphereAgreesWithTheOracleAwayFromTheSurface) {
    auto sphere = ldi_test::sharedMesh("sphere_ico4.stl");
    VKC_REQUIRE_SHARED_MESH(sphere);
    checkPoints(context_, *sphere, glm::rotate(glm::mat4(1.0f), 0.4f, glm::vec3(1, 1, 0)), 7);
}

TEST_F(LdiGpuPoints, KnotAgreesWithTheOracleAwayFromTheSurface) {
    auto knot = ldi_test::sharedMesh("knot.off");
    VKC_REQUIRE_SHARED_MESH(knot);
    checkPoints(context_, *knot, glm::rotate(glm::mat4(1.0f), 1.1f, glm::vec3(0, 1, 0.3f)), 11);
}

// A pair's inside vertices against the exact point classifier (tests/ldi/ldi_inside_oracle.h), with
// the margin of the pair's view.
void checkInsideVertices(Context& context, const MeshData& a, const glm::mat4& ta, const MeshData& b,
                         const glm::mat4& tb, uint32_t resolution) {
    auto detector = LdiDetector::create(context, ldi_test::settingsAt(resolution));
    ASSERT_TRUE(detector) << detector.status().describe();
    auto gpu = ldi_test::runPair(context, detector.value(), a, ta, b, tb);
    ASSERT_TRUE(gpu);
    ASSERT_EQ(gpu->details.pairs.size(), 1u);
    ASSERT_EQ(gpu->results.pairs.size(), 1u);
    const LdiPairDetails& d = gpu->details.pairs[0];
    ASSERT_FALSE(gpu->results.pairs[0].truncated);
    const double margin = ldi_test::insideMargin(d.box, d.axis, resolution);
    ldi_test::InsideJudgement j = ldi_test::judgeInsideVertices(gpu->results.pairs[0].insideVertices, a, ta, b, tb, margin);
    std::printf("%-16s x %-16s at %u^2: %zu of %zu vertices inside the other (oracle), %zu reported, %zu differ "
                "(within %.3g of the surface)\n",
                a.name.c_str(), b.name.c_str(), resolution, j.inside, j.inside + j.outside, j.listed, j.differ, margin);
    EXPECT_GT(j.inside, 20u) << "the case must have vertices inside the other object";
    EXPECT_GT(j.outside, 20u) << "and vertices outside";
}

TEST_F(LdiGpuPoints, PairInsideVerticesAgreeWithTheExactClassifier) {
    auto sphere = ldi_test::sharedMesh("sphere_ico4.stl");
    auto knot = ldi_test::sharedMesh("knot.off");
    VKC_REQUIRE_SHARED_MESH(sphere);
    VKC_REQUIRE_SHARED_MESH(knot);
    const glm::mat4 turn = glm::rotate(glm::mat4(1.0f), 0.7f, glm::vec3(1, 2, 0.5f));
    checkInsideVertices(context_, *sphere, glm::mat4(1.0f), *sphere, glm::translate(turn, {0.9f, 0.2f, 0.1f}), 256);
    checkInsideVertices(context_, *knot, turn, *knot, ldi_test::shift(0.1f, 0.05f, 0.0f), 256);
    // A ball through a torus's tube, at a resolution that is not a multiple of the workgroup size.
    MeshData ring = solids::torus(0.6f, 0.25f, 24), ball = solids::sphere(0.4f, 3);
    checkInsideVertices(context_, ring, glm::rotate(glm::mat4(1.0f), 0.5f, glm::vec3(0, 1, 1)), ball,
                        ldi_test::shift(0.55f, 0.1f, 0.05f), 100);
}

TEST_F(LdiGpuPoints, HostParticleBufferRecordedInTheHostsFrame) {
    MeshData ball = solids::sphere(0.5f, 3);
    const ldi_test::Placed placed[1] = {{&ball, glm::mat4(1.0f)}};
    auto scene = ldi_test::makeScene(context_, placed, kVolumeMethodRequirements);
    ASSERT_TRUE(scene) << scene.status().describe();
    LdiSettings settings = ldi_test::settingsAt(128);
    settings.insideCapacity = 10;
    auto detector = LdiDetector::create(context_, settings);
    ASSERT_TRUE(detector) << detector.status().describe();
    // 40 particles on a line through the ball, interleaved with other data (stride 6 floats, header 2).
    std::vector<glm::vec3> particles;
    for (int i = 0; i < 40; ++i) particles.push_back({-0.975f + 0.05f * i, 0.01f, 0.02f});
    auto buffer = test::createInterleavedVertexBuffer(vk(), particles, 6, 2, "test particles");
    ASSERT_TRUE(buffer) << buffer.status().describe();
    const Aabb bounds = placedMeshBounds(ball, glm::mat4(1.0f));
    Status recorded = test::recordInHostSubmit(vk(), [&](VkCommandBuffer cmd) {
        return detector->recordPointQuery(cmd, scene.value(), 0, bounds, buffer->buffer, 8, 24,
                                          uint32_t(particles.size()), 0);
    });
    ASSERT_TRUE(recorded.ok()) << recorded.describe();
    // Until the signal the host added to its submit arrives, results are NotReady.
    VkSemaphoreSubmitInfo signal = detector->completionSignal(0);
    LdiPointResults out;
    EXPECT_EQ(detector->pointResults(0, out).code, ErrorCode::NotReady);
    ASSERT_EQ(test::signalFromHost(vk(), signal), VK_SUCCESS);
    Status read = detector->pointResults(0, out);
    ASSERT_TRUE(read.ok()) << read.describe();
    // The exact oracle: the ball is a polyhedron inscribed in the sphere of radius 0.5.
    std::vector<glm::dvec3> world(particles.begin(), particles.end());
    auto exact = reference::pointsInside(ball, glm::mat4(1.0f), world);
    ASSERT_TRUE(exact);
    uint64_t expected = 0;
    for (uint8_t inside : exact.value()) expected += inside;
    EXPECT_EQ(out.insideCount, expected);
    EXPECT_TRUE(out.truncated);  // 18 inside, capacity 10: the count stays exact
    EXPECT_EQ(out.inside.size(), 10u);
    for (uint32_t i : out.inside) EXPECT_TRUE(exact.value()[i]) << "particle " << i;
    // Points beyond what one storage-buffer binding reaches from the buffer's start are refused, not
    // bound past the limit or wrapped. (Refused before anything is recorded: no command buffer needed.)
    const VkDeviceSize k16GiB = VkDeviceSize(1) << 34;
    Status far = detector->recordPointQuery(VK_NULL_HANDLE, scene.value(), 0, bounds, buffer->buffer, k16GiB, 24, 1, 1);
    EXPECT_EQ(far.code, ErrorCode::InvalidArgument) << far.describe();
    Status many = detector->recordPointQuery(VK_NULL_HANDLE, scene.value(), 0, bounds, buffer->buffer, 0, 24,
                                             UINT32_MAX, 1);
    EXPECT_EQ(many.code, ErrorCode::InvalidArgument) << many.describe();
    destroyBuffer(vk(), buffer.value());
}

}  // namespace
}  // namespace vkc
