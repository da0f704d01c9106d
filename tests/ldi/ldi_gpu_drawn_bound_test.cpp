// Tier B: ldi's volume_error_bound comes from the triangles the GPU drew. A mesh whose positions
// the host writes in its own buffer keeps the CPU's tight bound while the host leaves it as given;
// once the host deforms it (markDeformed), the CPU holds only a rest pose, and the bound is the
// volume of the tube of radius d around the drawn triangles near the overlap (ldi_drawn_bound.comp),
// computed on the GPU: checked against that formula evaluated in double over the deformed
// positions (tests/ldi/ldi_tube_bound.h), against the exact oracle's volume, and against the same
// formula over the rest pose it must not use. A host may choose that bound for every pair
// (LdiErrorBound::DrawnTriangles), to save record()'s CPU; it does not grow with the tessellation.
#include "collision/ldi/ldi_error_bound.h"
#include "collision/reference/intersection_volume.h"
#include "collision/scene/generated_solids.h"
#include "tests/ldi/ldi_gpu_support.h"
#include "tests/ldi/ldi_tube_bound.h"
#include "tests/support/host_vertex_buffer.h"

#include <glm/gtc/matrix_transform.hpp>

#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <utility>

namespace vkc {
namespace {

class LdiDrawnBound : public test::VulkanTest {};

// The tube bound over the triangles whose boxes meet the VoI overlap grown by `grow`.
double tubeBoundNear(const MeshData& mesh, const glm::dmat4& transform, const LdiVoi& voi, double d, double grow,
                     double angleMargin) {
    return ldi_test::tubeBound(mesh, transform, glm::dvec3(voi.overlap.min) - grow, glm::dvec3(voi.overlap.max) + grow,
                               d, angleMargin);
}

// The GPU's drawn-triangle bound of `pair` against the formula over the given placed meshes: the
// shader's region is the overlap grown by d and by float rounding, so it lies between the sums
// over the two regions (plus the float-depth term).
void expectDrawnTriangleBound(const LdiPairDetails& pair, const MeshData& a, const glm::dmat4& ta, const MeshData& b,
                              const glm::dmat4& tb, const LdiVoi& voi, uint32_t resolution) {
    const LdiDrawnBoundRegion region = ldiDrawnBoundRegion(voi, resolution);
    const double d = region.margin, grown = -double(region.nearLo.x);
    const double depth = ldiFloatDepthErrorBound(voi, pair.layersA, pair.layersB);
    // At least the formula over the exact region, at most the formula over the grown region with
    // the shader's angle margin.
    const double exactRegion = tubeBoundNear(a, ta, voi, d, d, 0.0) + tubeBoundNear(b, tb, voi, d, d, 0.0);
    const double margin = gpu::kLdiDrawnBoundAngleMargin;
    const double grownRegion = tubeBoundNear(a, ta, voi, d, grown, margin) + tubeBoundNear(b, tb, voi, d, grown, margin);
    std::printf("bound %.6g: drawn-triangle formula %.6g..%.6g (+ depth %.3g); tight over the drawn %.6g\n",
                pair.volumeErrorBound, exactRegion, grownRegion, depth,
                ldiVolumeErrorBound(a, glm::mat4(ta), b, glm::mat4(tb), voi, resolution));
    EXPECT_GE(pair.volumeErrorBound, (exactRegion + depth) * (1.0 - 1e-6));
    EXPECT_LE(pair.volumeErrorBound, (grownRegion + depth) * (1.0 + 1e-6));
}

TEST_F(LdiDrawnBound, HostDeformedMeshIsBoundedFromTheTrianglesDrawn) {
    constexpr uint32_t kResolution = 128;
    const MeshData rest = solids::sphere(0.6f, 3);
    const MeshData other = solids::torus(0.5f, 0.2f, 24);
    MeshData deformed = rest;  // stretched along x, squashed along y: not a rigid motion
    for (glm::vec3& p : deformed.positions) p *= glm::vec3(1.35f, 0.8f, 1.0f);
    const glm::dmat4 ta(1.0), tb = glm::translate(glm::dmat4(1.0), {0.55, 0.1, 0.05});

    auto host = test::createInterleavedVertexBuffer(vk(), rest.positions, 3, 0, "host sphere");
    ASSERT_TRUE(host) << host.status().describe();
    struct Destroy {
        VulkanContext& vk;
        Buffer& buffer;
        ~Destroy() { destroyBuffer(vk, buffer); }
    } destroy{vk(), host.value()};
    auto scene = Scene::create(context_, kVolumeMethodRequirements);
    ASSERT_TRUE(scene) << scene.status().describe();
    auto hostMesh = scene->addMesh({"host sphere", &rest, host->buffer, 0, 12});
    auto ownMesh = scene->addMesh({"torus", &other});
    ASSERT_TRUE(hostMesh && ownMesh);
    ASSERT_TRUE(scene->addObject(hostMesh.value(), ta) && scene->addObject(ownMesh.value(), tb));
    auto detector = LdiDetector::create(context_, ldi_test::settingsAt(kResolution));
    ASSERT_TRUE(detector) << detector.status().describe();

    // runs one frame with the world boxes of `sphere` as drawn; returns the pair and its VoI
    auto run = [&](const MeshData& sphere, LdiPairDetails& pair, LdiVoi& voi) {
        BroadphaseResults pcs;
        pcs.worldBounds = {placedMeshBounds(sphere, ta), placedMeshBounds(other, tb)};
        pcs.pairs = {{0, 1}};
        pcs.pairCount = 1;
        LdiFrameDetails details;
        auto results = detector->run(scene.value(), pcs, &details);
        ASSERT_TRUE(results) << results.status().describe();
        ASSERT_EQ(details.pairs.size(), 1u);
        pair = details.pairs[0];
        ASSERT_FALSE(pair.truncated);
        auto computed = computeLdiVoi(pcs.worldBounds[0], pcs.worldBounds[1]);
        ASSERT_TRUE(computed);
        voi = *computed;
    };

    // As given: the CPU's positions are the drawn ones, and the bound is the CPU's tight one.
    LdiPairDetails asGiven;
    LdiVoi voi;
    run(rest, asGiven, voi);
    const double tight = ldiVolumeErrorBound(rest, glm::mat4(ta), other, glm::mat4(tb), voi, kResolution) +
                         ldiFloatDepthErrorBound(voi, asGiven.layersA, asGiven.layersB);
    EXPECT_NEAR(asGiven.volumeErrorBound, tight, 1e-12 * tight);

    // Deformed in the host's buffer: the CPU still holds the rest pose.
    const std::vector<float> data = test::interleavePositions(deformed.positions, 3, 0);
    ASSERT_TRUE(uploadBuffer(vk(), host.value(), data.data(), data.size() * sizeof(float)).ok());
    scene->markDeformed(hostMesh.value());
    LdiPairDetails drawn;
    run(deformed, drawn, voi);
    expectDrawnTriangleBound(drawn, deformed, ta, other, tb, voi, kResolution);
    // Not the rest pose's triangles (the stretch changes their area by far more than this).
    const double d = ldiDrawnBoundRegion(voi, kResolution).margin;
    const double restFormula = tubeBoundNear(rest, ta, voi, d, d, 0.0) + tubeBoundNear(other, tb, voi, d, d, 0.0);
    EXPECT_GT(std::abs(drawn.volumeErrorBound - restFormula), 0.05 * restFormula);
    // Sound for the deformed pair: the exact oracle's volume lies within it.
    auto exact = reference::intersectionVolume(deformed, ta, other, tb);
    ASSERT_TRUE(exact) << exact.status().describe();
    EXPECT_GT(exact.value(), 0.01);
    EXPECT_LE(std::abs(drawn.volume - exact.value()), drawn.volumeErrorBound);
}

constexpr uint32_t kDrawnResolution = 128;

Result<LdiDetector> drawnTriangleDetector(Context& context, uint32_t resolution = kDrawnResolution) {
    LdiSettings settings = ldi_test::settingsAt(resolution);
    settings.errorBound = LdiErrorBound::DrawnTriangles;
    return LdiDetector::create(context, settings);
}

// One pair through a DrawnTriangles detector: its bound against the formula over the placed
// meshes, and the exact oracle's volume within it. Returns the pair and the exact volume, or
// nothing when the boxes do not overlap (no pair tested).
std::optional<std::pair<LdiPairDetails, double>> checkDrawnTrianglePair(Context& context, LdiDetector& detector,
                                                                         const MeshData& a, const glm::mat4& ta,
                                                                         const MeshData& b, const glm::mat4& tb,
                                                                         uint32_t resolution = kDrawnResolution) {
    auto gpu = ldi_test::runPair(context, detector, a, ta, b, tb);
    EXPECT_TRUE(gpu);
    if (!gpu || gpu->details.pairs.empty()) return std::nullopt;
    const LdiPairDetails& pair = gpu->details.pairs[0];
    EXPECT_FALSE(pair.truncated);
    auto voi = computeLdiVoi(placedMeshBounds(a, ta), placedMeshBounds(b, tb));
    EXPECT_TRUE(voi);
    auto exact = reference::intersectionVolume(a, glm::dmat4(ta), b, glm::dmat4(tb));
    EXPECT_TRUE(exact) << exact.status().describe();
    if (!voi || !exact) return std::nullopt;
    expectDrawnTriangleBound(pair, a, glm::dmat4(ta), b, glm::dmat4(tb), *voi, resolution);
    EXPECT_LE(std::abs(pair.volume - exact.value()), pair.volumeErrorBound);
    EXPECT_GT(pair.volumeErrorBound, ldiVolumeErrorBound(a, ta, b, tb, *voi, resolution)) << "looser than tight";
    return std::pair{pair, exact.value()};
}

// LdiErrorBound::DrawnTriangles: every pair bounded on the GPU, meshes the library owns included;
// sound against the exact oracle over seeded rigid motions, and looser than the tight bound.
TEST_F(LdiDrawnBound, ChosenForEveryPairItBoundsOwnedMeshesToo) {
    auto detector = drawnTriangleDetector(context_);
    ASSERT_TRUE(detector) << detector.status().describe();
    const MeshData shapes[] = {solids::sphere(0.6f, 3), solids::torus(0.6f, 0.25f, 24), solids::box({1.2f, 0.5f, 0.8f})};
    std::mt19937 rng(20261127);
    int overlapping = 0;
    for (int trial = 0; trial < 4; ++trial) {
        SCOPED_TRACE("trial " + std::to_string(trial));
        const glm::mat4 ta = ldi_test::randomRigid(rng, 0.5f), tb = ldi_test::randomRigid(rng, 0.5f);
        auto checked = checkDrawnTrianglePair(context_, detector.value(), shapes[trial % 3], ta, shapes[(trial + 1) % 3], tb);
        overlapping += checked && checked->second > 0.0;
    }
    EXPECT_GE(overlapping, 2);
}

// The same bound at scales from a thousandth to a thousand and a pair 20,000 units from the
// origin: the formula over the placed meshes, and the exact oracle's volume within it.
TEST_F(LdiDrawnBound, HoldsAtEveryScaleAndFarFromTheOrigin) {
    auto detector = drawnTriangleDetector(context_);
    ASSERT_TRUE(detector) << detector.status().describe();
    const MeshData sphere = solids::sphere(0.6f, 3), torus = solids::torus(0.5f, 0.2f, 24);
    const struct {
        double scale;
        glm::dvec3 at;
    } placements[] = {{1e-3, glm::dvec3(0.0)}, {1e3, glm::dvec3(0.0)}, {1.0, glm::dvec3(2e4, -1e4, 5e3)}};
    for (const auto& placement : placements) {
        SCOPED_TRACE("scale " + std::to_string(placement.scale));
        const glm::dmat4 place = glm::scale(glm::translate(glm::dmat4(1.0), placement.at), glm::dvec3(placement.scale));
        const glm::mat4 ta(place), tb(place * glm::translate(glm::dmat4(1.0), {0.55, 0.1, 0.05}));
        auto checked = checkDrawnTrianglePair(context_, detector.value(), sphere, ta, torus, tb);
        ASSERT_TRUE(checked) << "the pair overlaps";
        EXPECT_GT(checked->second, 0.0);
        // Useful at every placement: not inflated by the world position or the scale (this pair's
        // bound lies below its volume at the origin).
        EXPECT_LE(checked->first.volumeErrorBound, checked->second);
    }
}

// The bound follows the surface, not its triangles: a sphere from 320 to 20,480 triangles against
// a box at 24^2 pixels (the finest sphere's triangles are smaller than a pixel there), each sound
// against the exact oracle, and the finest bounded within 10% of the coarsest (the Steiner volume
// of every triangle, which this bound replaced, grew 2.6 times over these four tessellations:
// each edge's half cylinders and each vertex's balls added up).
TEST_F(LdiDrawnBound, DoesNotGrowWithTheTessellation) {
    constexpr uint32_t kCoarse = 24;
    auto detector = drawnTriangleDetector(context_, kCoarse);
    ASSERT_TRUE(detector) << detector.status().describe();
    const MeshData box = solids::box({0.8f, 0.8f, 0.8f});
    const glm::mat4 ta = glm::translate(glm::mat4(1.0f), {0.45f, 0.1f, -0.05f});
    std::vector<double> bounds;
    for (uint32_t subdivisions = 2; subdivisions <= 5; ++subdivisions) {
        SCOPED_TRACE("subdivisions " + std::to_string(subdivisions));
        const MeshData sphere = solids::sphere(0.6f, subdivisions);
        auto checked = checkDrawnTrianglePair(context_, detector.value(), sphere, glm::mat4(1.0f), box, ta, kCoarse);
        ASSERT_TRUE(checked);
        bounds.push_back(checked->first.volumeErrorBound);
        std::printf("%u subdivisions, %zu triangles: bound %.6g, volume %.6g\n", subdivisions,
                    sphere.indices.size() / 3, bounds.back(), checked->second);
    }
    EXPECT_LE(bounds.back(), 1.1 * bounds.front());
}

TEST_F(LdiDrawnBound, UnknownChoiceIsRefusedNamingTheSetting) {
    LdiSettings settings;
    settings.errorBound = LdiErrorBound(7);
    auto detector = LdiDetector::create(context_, settings);
    ASSERT_FALSE(detector);
    EXPECT_EQ(detector.status().code, ErrorCode::InvalidArgument);
    EXPECT_NE(detector.status().message.find("LdiSettings::errorBound 7"), std::string::npos) << detector.status().message;
}

}  // namespace
}  // namespace vkc
