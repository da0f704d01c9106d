// exactPair / interferes / exactScene: interference by surfaces or containment, flags, volumes.
#include "collision/reference/exact_scene.h"
#include "collision/reference/pair_query.h"

#include "tests/reference/test_mesh_loader.h"
#include "tests/reference/test_shapes.h"

#include <gtest/gtest.h>

namespace vkc::reference {
namespace {

using test::makeBox;
using test::makeUnitCube;
using test::translation;

PairResult pairOf(const MeshData& a, const glm::mat4& ta, const MeshData& b, const glm::mat4& tb,
                  const PairSettings& settings = {}) {
    Result<PairResult> r = exactPair(a, ta, b, tb, settings);
    EXPECT_TRUE(r.ok()) << r.status().describe();
    return r.ok() ? *r : PairResult{};
}

TEST(ExactPair, OverlappingCubes) {
    const MeshData cube = makeUnitCube();
    const PairResult r = pairOf(cube, glm::mat4(1.0f), cube, translation(0.5f, 0.5f, 0.5f));
    EXPECT_TRUE(r.interfering);
    EXPECT_GT(r.trianglePairCount, 0u);
    EXPECT_EQ(r.trianglePairs.size(), r.trianglePairCount);
    EXPECT_FALSE(r.aInsideB);
    EXPECT_FALSE(r.bInsideA);
    ASSERT_TRUE(r.volume.has_value());
    EXPECT_EQ(*r.volume, 0.125);
    EXPECT_TRUE(r.warning.empty()) << r.warning;
}

TEST(ExactPair, DisjointCubes) {
    const MeshData cube = makeUnitCube();
    for (const glm::mat4& t : {translation(2, 0, 0), translation(0.5f, 0.5f, 1.01f)}) {
        const PairResult r = pairOf(cube, glm::mat4(1.0f), cube, t);
        EXPECT_FALSE(r.interfering);
        EXPECT_EQ(r.trianglePairCount, 0u);
        EXPECT_TRUE(r.trianglePairs.empty());
        EXPECT_FALSE(r.aInsideB || r.bInsideA);
        ASSERT_TRUE(r.volume.has_value());
        EXPECT_EQ(*r.volume, 0.0);
    }
}

TEST(ExactPair, ContainmentInterferesWithoutTrianglePairs) {
    const MeshData outer = makeUnitCube("outer");
    const MeshData inner = makeBox(glm::vec3(0.25f), glm::vec3(0.75f), "inner");
    PairResult r = pairOf(inner, glm::mat4(1.0f), outer, glm::mat4(1.0f));
    EXPECT_TRUE(r.interfering);
    EXPECT_EQ(r.trianglePairCount, 0u);
    EXPECT_TRUE(r.aInsideB);
    EXPECT_FALSE(r.bInsideA);
    ASSERT_TRUE(r.volume.has_value());
    EXPECT_EQ(*r.volume, 0.125);

    r = pairOf(outer, glm::mat4(1.0f), inner, glm::mat4(1.0f));
    EXPECT_TRUE(r.interfering);
    EXPECT_FALSE(r.aInsideB);
    EXPECT_TRUE(r.bInsideA);
}

TEST(ExactPair, TouchingFacesInterfereWithZeroVolume) {
    const MeshData cube = makeUnitCube();
    const PairResult r = pairOf(cube, glm::mat4(1.0f), cube, translation(1, 0, 0));
    EXPECT_TRUE(r.interfering);  // policy: closed triangles, touching counts
    EXPECT_GT(r.trianglePairCount, 0u);
    ASSERT_TRUE(r.volume.has_value());
    EXPECT_EQ(*r.volume, 0.0);
}

TEST(ExactPair, OpenMeshGivesPairsButNoVolume) {
    MeshData open = makeUnitCube("open cube");
    open.indices.resize(open.indices.size() - 6);  // drop the x = 1 face
    const MeshData cube = makeUnitCube();
    PairResult r = pairOf(open, glm::mat4(1.0f), cube, translation(0.5f, 0.5f, 0.5f));
    EXPECT_TRUE(r.interfering);
    EXPECT_GT(r.trianglePairCount, 0u);
    EXPECT_FALSE(r.volume.has_value());
    EXPECT_NE(r.warning.find("open cube"), std::string::npos);
    // An open mesh cannot contain: a small cube inside the open cube does not interfere.
    const MeshData inner = makeBox(glm::vec3(0.25f), glm::vec3(0.75f), "inner");
    r = pairOf(open, glm::mat4(1.0f), inner, glm::mat4(1.0f));
    EXPECT_FALSE(r.bInsideA);
    EXPECT_TRUE(r.aInsideB == false && r.interfering == false);
}

TEST(ExactPair, SettingsSkipVolumeAndList) {
    const MeshData cube = makeUnitCube();
    PairSettings settings;
    settings.computeVolume = false;
    settings.keepTrianglePairs = false;
    const PairResult r = pairOf(cube, glm::mat4(1.0f), cube, translation(0.5f, 0.5f, 0.5f), settings);
    EXPECT_TRUE(r.interfering);
    EXPECT_GT(r.trianglePairCount, 0u);
    EXPECT_TRUE(r.trianglePairs.empty());
    EXPECT_FALSE(r.volume.has_value());
}

TEST(Interferes, SurfacesContainmentAndApart) {
    const MeshData cube = makeUnitCube();
    const MeshData inner = makeBox(glm::vec3(0.25f), glm::vec3(0.75f), "inner");
    EXPECT_TRUE(*interferes(cube, glm::mat4(1.0f), cube, translation(0.5f, 0.5f, 0.5f)));
    EXPECT_TRUE(*interferes(cube, glm::mat4(1.0f), inner, glm::mat4(1.0f)));
    EXPECT_FALSE(*interferes(cube, glm::mat4(1.0f), cube, translation(0, 1.5f, 0)));
    MeshData bad = makeUnitCube("bad");
    bad.indices[0] = 1000;
    Result<bool> r = interferes(bad, glm::mat4(1.0f), cube, glm::mat4(1.0f));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message.find("bad"), std::string::npos);
}

TEST(ExactScene, FindsEveryCollidingPairWithItsAnswers) {
    const MeshData cube = makeUnitCube();
    const MeshData inner = makeBox(glm::vec3(0.25f), glm::vec3(0.75f), "inner");
    const std::vector<SceneObject> objects = {
        {&cube, glm::mat4(1.0f)},                 // 0
        {&cube, translation(10, 0, 0)},           // 1: far away from everyone
        {&cube, translation(0.5f, 0.5f, 0.5f)},   // 2: overlaps 0 by 0.125 and inner by 0.25^3
        {&inner, glm::mat4(1.0f)},                // 3: inside 0
        {&cube, translation(11, 0, 0)},           // 4: touches 1 along a face
    };
    Result<std::vector<ScenePairResult>> r = exactScene(objects);
    ASSERT_TRUE(r.ok()) << r.status().describe();
    ASSERT_EQ(r->size(), 4u);
    const auto& p = *r;
    EXPECT_EQ(std::make_pair(p[0].a, p[0].b), std::make_pair(0u, 2u));
    EXPECT_EQ(std::make_pair(p[1].a, p[1].b), std::make_pair(0u, 3u));
    EXPECT_EQ(std::make_pair(p[2].a, p[2].b), std::make_pair(1u, 4u));
    EXPECT_EQ(std::make_pair(p[3].a, p[3].b), std::make_pair(2u, 3u));
    EXPECT_EQ(*p[0].result.volume, 0.125);
    EXPECT_EQ(p[1].result.trianglePairCount, 0u);
    EXPECT_TRUE(p[1].result.bInsideA);
    EXPECT_EQ(*p[1].result.volume, 0.125);
    EXPECT_GT(p[2].result.trianglePairCount, 0u);
    EXPECT_EQ(*p[2].result.volume, 0.0);
    EXPECT_EQ(*p[3].result.volume, 0.25 * 0.25 * 0.25);
    for (const auto& pair : p) EXPECT_EQ(pair.result.trianglePairs.size(), pair.result.trianglePairCount);

    SceneSettings fast;
    fast.computeVolumes = false;
    Result<std::vector<ScenePairResult>> quick = exactScene(objects, fast);
    ASSERT_TRUE(quick.ok());
    ASSERT_EQ(quick->size(), 4u);
    for (const auto& pair : *quick) EXPECT_FALSE(pair.result.volume.has_value());
}

TEST(ExactScene, NullMeshIsAnError) {
    const std::vector<SceneObject> objects = {{nullptr, glm::mat4(1.0f)}};
    Result<std::vector<ScenePairResult>> r = exactScene(objects);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code, ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace vkc::reference
