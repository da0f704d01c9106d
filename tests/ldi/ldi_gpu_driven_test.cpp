// Tier B: ldi GPU-driven (issue 13): the pairs, VoIs, views, tiles and vertex tests set up on the GPU
// from the same frame's broadphase (ldi_pair_setup.comp) against the host path fed that
// broadphase's read-back pairs and boxes (the CPU's computeLdiVoi and ldiView): on seeded random
// scenes of spheres, tori and boxes (one inside another: Fig. 2b's extended VoI; one crowd far
// from the origin) the same pairs, VoIs, volumes and inside vertices, and every volume within its
// bound of the exact CGAL volume. What the GPU cannot test is reported, never refused: more pairs
// than maxPairs (the smallest (a, b) kept), an open mesh (the pair named).
#include "collision/reference/intersection_volume.h"
#include "collision/scene/generated_solids.h"
#include "tests/ldi/ldi_gpu_support.h"
#include "tests/support/test_geometry.h"
#include "tests/support/vulkan_test.h"
#include "vkcollide/broadphase.h"

#include <glm/gtc/matrix_transform.hpp>

#include <random>

namespace vkc {
namespace {

class LdiGpuDriven : public test::VulkanTest {
protected:
    struct Object {
        const MeshData* mesh;
        glm::dmat4 transform;
    };

    Result<Scene> sceneOf(const std::vector<Object>& objects) {
        auto scene = Scene::create(context_, kObjectSpaceMethodRequirements);
        if (!scene) return scene.status();
        for (const Object& o : objects) {
            auto mesh = scene->addMesh({o.mesh->name.empty() ? "mesh" : o.mesh->name.c_str(), o.mesh});
            if (!mesh) return mesh.status();
            auto object = scene->addObject(mesh.value(), o.transform);
            if (!object) return object.status();
        }
        return scene;
    }

    static LdiSettings drawnBoundSettings(uint32_t maxPairs) {
        LdiSettings settings = ldi_test::settingsAt(128);
        settings.maxPairs = maxPairs;
        settings.errorBound = LdiErrorBound::DrawnTriangles;  // run(scene) then goes GPU-driven
        return settings;
    }
};

// `count` objects cycling through the shapes at seeded random poses within a cube of side
// `spread`, scaled and moved to `origin`; every third seed puts a small sphere inside a box.
std::vector<std::pair<const MeshData*, glm::dmat4>> randomObjects(const std::vector<MeshData>& shapes, uint32_t seed,
                                                                  uint32_t count, float spread, glm::dvec3 origin) {
    std::mt19937 rng(seed);
    std::vector<std::pair<const MeshData*, glm::dmat4>> objects;
    for (uint32_t i = 0; i < count; ++i)
        objects.push_back({&shapes[i % shapes.size()], test::scaledAndMoved(test::randomRigid(rng, spread), 1.0, origin)});
    if (seed % 3 == 0) {
        glm::dmat4 inside = objects[2].second;  // the box's pose, a small sphere at its centre
        objects.push_back({&shapes[3], inside});
    }
    return objects;
}

TEST_F(LdiGpuDriven, SamePairsVolumesAndVerticesAsTheHostPathWithinTheExactBound) {
    const std::vector<MeshData> shapes = {solids::sphere(0.5f, 2), solids::torus(0.45f, 0.15f, 16),
                                          solids::box({0.9f, 0.6f, 0.7f}), solids::sphere(0.15f, 1)};
    auto detector = LdiDetector::create(context_, drawnBoundSettings(32));
    auto broadphase = Broadphase::create(context_);
    ASSERT_TRUE(detector && broadphase);
    uint32_t measured = 0, extended = 0;
    for (uint32_t seed = 1; seed <= 6; ++seed) {
        const glm::dvec3 origin = seed == 5 ? glm::dvec3(1000.0, -400.0, 250.0) : glm::dvec3(0.0);
        const auto placed = randomObjects(shapes, seed, 7, 1.6f, origin);
        std::vector<Object> objects;
        for (const auto& [mesh, transform] : placed) objects.push_back({mesh, transform});
        auto scene = sceneOf(objects);
        ASSERT_TRUE(scene) << scene.status().describe();
        SCOPED_TRACE("seed " + std::to_string(seed));

        LdiFrameDetails gpu, host;
        auto gpuResults = detector->run(scene.value(), &gpu);
        ASSERT_TRUE(gpuResults) << gpuResults.status().describe();
        auto pcs = broadphase->run(scene.value());
        ASSERT_TRUE(pcs) << pcs.status().describe();
        auto hostResults = detector->run(scene.value(), pcs.value(), &host);
        ASSERT_TRUE(hostResults) << hostResults.status().describe();
        EXPECT_FALSE(gpuResults->truncated);
        EXPECT_TRUE(gpuResults->warnings.empty()) << gpuResults->warnings.front();

        ASSERT_EQ(gpu.pairs.size(), host.pairs.size());
        for (size_t p = 0; p < gpu.pairs.size(); ++p) {
            const LdiPairDetails& g = gpu.pairs[p];
            const LdiPairDetails& h = host.pairs[p];
            SCOPED_TRACE("pair (" + std::to_string(g.a) + ", " + std::to_string(g.b) + ")");
            ASSERT_EQ(std::make_pair(g.a, g.b), std::make_pair(h.a, h.b));
            EXPECT_EQ(g.axis, h.axis);
            EXPECT_EQ(g.aFromMin, h.aFromMin);
            EXPECT_EQ(g.extended, h.extended);
            EXPECT_EQ(g.box.min, h.box.min);
            EXPECT_EQ(g.box.max, h.box.max);
            EXPECT_EQ(g.layersA, h.layersA);
            EXPECT_EQ(g.layersB, h.layersB);
            EXPECT_NEAR(g.volume, h.volume, 1e-6 * std::max(1.0, h.volume));
            EXPECT_NEAR(g.volumeErrorBound, h.volumeErrorBound, 1e-5 * h.volumeErrorBound);
            auto exact = reference::intersectionVolume(*objects[g.a].mesh, objects[g.a].transform,
                                                       *objects[g.b].mesh, objects[g.b].transform);
            ASSERT_TRUE(exact) << exact.status().describe();
            EXPECT_LE(std::abs(g.volume - exact.value()), g.volumeErrorBound)
                << "volume " << g.volume << ", exact " << exact.value();
            measured += exact.value() > 0.0;
            extended += g.extended;
        }
        ASSERT_EQ(gpuResults->pairs.size(), hostResults->pairs.size());
        for (size_t p = 0; p < gpuResults->pairs.size(); ++p)
            EXPECT_EQ(gpuResults->pairs[p].insideVertices, hostResults->pairs[p].insideVertices);
    }
    EXPECT_GE(measured, 10u);  // the seeds overlap many pairs
    EXPECT_GE(extended, 1u);   // and contain one: Fig. 2b's extended VoI
}

TEST_F(LdiGpuDriven, MorePairsThanMaxPairsKeepTheSmallestAndSayHowManyWereLeft) {
    const MeshData ball = solids::sphere(0.5f, 2);
    std::vector<Object> row;  // balls 0.8 apart: pairs (0, 1) .. (4, 5)
    for (int i = 0; i < 6; ++i) row.push_back({&ball, glm::translate(glm::dmat4(1.0), {0.8 * i, 0.0, 0.0})});
    auto scene = sceneOf(row);
    ASSERT_TRUE(scene) << scene.status().describe();
    auto detector = LdiDetector::create(context_, drawnBoundSettings(2));
    ASSERT_TRUE(detector) << detector.status().describe();
    LdiFrameDetails details;
    auto results = detector->run(scene.value(), &details);
    ASSERT_TRUE(results) << results.status().describe();
    EXPECT_TRUE(results->truncated);
    ASSERT_EQ(details.pairs.size(), 2u);
    EXPECT_EQ(std::make_pair(details.pairs[0].a, details.pairs[0].b), std::make_pair(0u, 1u));
    EXPECT_EQ(std::make_pair(details.pairs[1].a, details.pairs[1].b), std::make_pair(1u, 2u));
    ASSERT_EQ(results->warnings.size(), 1u);
    EXPECT_NE(results->warnings[0].find("5 pairs with a volume of interest, more than LdiSettings::maxPairs (2): 3 not tested"),
              std::string::npos)
        << results->warnings[0];
    const double exact = reference::intersectionVolume(ball, row[0].transform, ball, row[1].transform).value();
    for (const LdiPairDetails& pair : details.pairs) EXPECT_LE(std::abs(pair.volume - exact), pair.volumeErrorBound);
}

TEST_F(LdiGpuDriven, OpenMeshPairIsNamedAndTheClosedPairsMeasured) {
    MeshData open = solids::box({1, 1, 1});
    open.name = "lidless";
    open.indices.resize(open.indices.size() - 3);
    const MeshData closed = solids::box({1, 1, 1});
    const std::vector<Object> objects = {{&closed, glm::dmat4(1.0)},
                                         {&closed, glm::translate(glm::dmat4(1.0), {0.5, 0.0, 0.0})},
                                         {&open, glm::translate(glm::dmat4(1.0), {5.0, 0.5, 0.0})},
                                         {&closed, glm::translate(glm::dmat4(1.0), {5.0, 0.0, 0.0})}};
    auto scene = sceneOf(objects);
    ASSERT_TRUE(scene) << scene.status().describe();
    auto detector = LdiDetector::create(context_, drawnBoundSettings(4));
    ASSERT_TRUE(detector) << detector.status().describe();
    LdiFrameDetails details;
    auto results = detector->run(scene.value(), &details);
    ASSERT_TRUE(results) << results.status().describe();
    EXPECT_TRUE(results->truncated);
    ASSERT_EQ(results->warnings.size(), 1u);
    EXPECT_NE(results->warnings[0].find("1 candidate pairs (one is (2, 3)) have an object that is not a closed"),
              std::string::npos)
        << results->warnings[0];
    ASSERT_EQ(details.pairs.size(), 1u);
    EXPECT_EQ(std::make_pair(details.pairs[0].a, details.pairs[0].b), std::make_pair(0u, 1u));
    EXPECT_LE(std::abs(details.pairs[0].volume - 0.5), details.pairs[0].volumeErrorBound);
}

}  // namespace
}  // namespace vkc
