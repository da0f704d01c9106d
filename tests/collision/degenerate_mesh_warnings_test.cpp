// Issue 15: a mesh with zero-area triangles ran through stencil, consistent-pairs and aabb-tree
// without a word, though check-mesh flags it and the exact oracle skips such triangles. Every
// detector now warns once per frame per such mesh, naming it, and still finds the pair; a clean
// mesh gets no such warning.
#include "collision/scene/generated_solids.h"
#include "tests/support/method_scenes.h"
#include "tests/support/small_settings.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <algorithm>

namespace vkc {
namespace {

// A unit box whose top face is a fan around a vertex on one of its edges: still closed, manifold
// and outward, with one zero-area triangle (the edge's two ends and the vertex between them).
MeshData boxWithZeroAreaTriangle() {
    MeshData mesh = solids::box(glm::vec3(1.0f));
    mesh.positions.emplace_back(0.0f, -0.5f, 0.5f);  // 8: on the edge from vertex 4 to vertex 5
    mesh.indices.resize(mesh.indices.size() - 6);    // the +z quad (4, 5, 7, 6) goes
    mesh.indices.insert(mesh.indices.end(), {8, 5, 7, 8, 7, 6, 8, 6, 4, 4, 5, 8});
    return mesh;
}

template <class Detector>
class DegenerateMeshWarnings : public test::MethodSceneTest {};
using DetectorsWithDegenerateMeshWarnings =
    ::testing::Types<StencilDetector, LdiDetector, ConsistentPairsDetector, AabbTreeDetector, EbpiDetector>;
TYPED_TEST_SUITE(DegenerateMeshWarnings, DetectorsWithDegenerateMeshWarnings);

// Three frames of `detector` over a fanned box overlapping a clean one (and a clean one apart):
// the fanned box named once per frame, the pair found; then the clean pair alone: no warning.
template <class Detector>
void expectNamedOncePerFrame(Context& context, Detector& detector) {
    const MeshData fanned = boxWithZeroAreaTriangle();
    ASSERT_EQ(checkMesh(fanned).zeroAreaTriangles, 1u);
    ASSERT_TRUE(checkMesh(fanned).validForVolumeMethods());
    auto scene = Scene::create(context, kVolumeMethodRequirements);
    ASSERT_TRUE(scene);
    auto fannedId = scene->addMesh({"fanned box", &fanned});
    const MeshData box = solids::box(glm::vec3(1.0f));
    auto boxId = scene->addMesh({"clean box", &box});
    ASSERT_TRUE(fannedId && boxId);
    ASSERT_TRUE(scene->addObject(fannedId.value(), glm::dmat4(1.0)));
    ASSERT_TRUE(scene->addObject(boxId.value(), glm::translate(glm::dmat4(1.0), {0.6, 0.3, 0.2})));
    ASSERT_TRUE(scene->addObject(boxId.value(), glm::translate(glm::dmat4(1.0), {0.6, 0.3, 5.0})));
    for (int frame = 0; frame < 3; ++frame) {
        auto results = detector.run(scene.value());
        ASSERT_TRUE(results) << results.status().describe();
        ASSERT_EQ(results->pairs.size(), 1u);
        EXPECT_EQ(results->pairs[0].a, 0u);
        EXPECT_EQ(results->pairs[0].b, 1u);
        const auto named = std::count_if(results->warnings.begin(), results->warnings.end(), [](const std::string& w) {
            return w.find("mesh \"fanned box\" has 1 degenerate triangle(s)") != std::string::npos;
        });
        EXPECT_EQ(named, 1) << "frame " << frame;
        for (const std::string& warning : results->warnings)
            EXPECT_EQ(warning.find("clean box"), std::string::npos) << warning;
    }
    // The clean pair alone (object 2 moved onto object 1): no warning about degenerate triangles.
    ASSERT_TRUE(scene->setTransform(0, glm::translate(glm::dmat4(1.0), {40.0, 0.0, 0.0})));
    ASSERT_TRUE(scene->setTransform(2, glm::translate(glm::dmat4(1.0), {0.9, 0.5, 0.4})));
    auto clean = detector.run(scene.value());
    ASSERT_TRUE(clean) << clean.status().describe();
    EXPECT_EQ(clean->pairs.size(), 1u);
    for (const std::string& warning : clean->warnings) EXPECT_EQ(warning.find("degenerate"), std::string::npos) << warning;
}

TYPED_TEST(DegenerateMeshWarnings, NamedOncePerFrameAndThePairStillFound) {
    auto detector = TypeParam::create(this->context_, test::smallSettings(static_cast<TypeParam*>(nullptr)));
    ASSERT_TRUE(detector) << detector.status().describe();
    expectNamedOncePerFrame(this->context_, detector.value());
}

// ldi GPU-driven (run(scene) with the drawn-triangle bound): the GPU chose the pairs, and the
// warnings still name the meshes of the pairs it tested.
class DegenerateMeshWarningsGpuDriven : public test::MethodSceneTest {};

TEST_F(DegenerateMeshWarningsGpuDriven, LdiNamesTheMeshesOfThePairsTheGpuTested) {
    LdiSettings settings = test::smallSettings(static_cast<LdiDetector*>(nullptr));
    settings.errorBound = LdiErrorBound::DrawnTriangles;
    auto detector = LdiDetector::create(context_, settings);
    ASSERT_TRUE(detector) << detector.status().describe();
    expectNamedOncePerFrame(context_, detector.value());
}

}  // namespace
}  // namespace vkc
