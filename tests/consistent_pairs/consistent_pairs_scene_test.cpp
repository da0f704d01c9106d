// Tier B: ConsistentPairsDetector against the exact oracle on whole scenes under seeded random
// rigid motions (paper 3, section 7: many objects at once): generated solids and shared meshes,
// and a hundred and more boxes. Pairs that overlap by more than 3 pixels must be found, pairs
// separated by more than 2 pixels must not be reported (tests/support/oracle_scene.h), and the
// sampled collision points must lie on both surfaces.
#include "tests/consistent_pairs/consistent_pairs_test_support.h"

namespace vkc::consistent_pairs_test {
namespace {

class ConsistentPairsSceneTest : public ConsistentPairsTest {
protected:
    // `objects` objects cycling through `shapes` at seeded random rigid poses within `spread`.
    // tightPairList: the broadphase's pair list exactly as long as its pairs, so that the
    // candidates' hash slots (candidate_flags.glsl) run at their fullest, a quarter to a half taken.
    void expectRandomSceneMatchesOracle(const std::vector<MeshData>& shapes, uint32_t seed, uint32_t objects,
                                        float spread, uint32_t resolution, bool tightPairList = false) {
        SCOPED_TRACE("seed " + std::to_string(seed) + (tightPairList ? ", tight pair list" : ""));
        auto scene = randomScene(shapes, seed, objects, spread);
        ASSERT_TRUE(scene) << scene.status().describe();
        ConsistentPairsSettings settings = testSettings(resolution);
        if (tightPairList) {
            auto broadphase = Broadphase::create(context_);
            ASSERT_TRUE(broadphase);
            auto pcs = broadphase->run(scene.value());
            ASSERT_TRUE(pcs) << pcs.status().describe();
            settings.broadphase.pairCapacity = pcs->pairCount;
        }
        ConsistentPairsFrameDetails details;
        auto results = detect(scene.value(), details, settings);
        ASSERT_TRUE(results) << results.status().describe();
        EXPECT_TRUE(results->warnings.empty()) << results->warnings.front();
        EXPECT_GT(results->pairs.size(), 2u) << "the scene should collide somewhere";
        expectAgreesWithOracle(results.value(), details);
        expectPointsOnBothSurfaces(details, 24);
    }
};

TEST_F(ConsistentPairsSceneTest, RandomSolidsAndSharedMeshesMatchOracle) {
    std::vector<MeshData> shapes = {solids::box({1.0f, 0.5f, 1.5f}), solids::sphere(0.6f, 2),
                                    solids::torus(0.7f, 0.25f, 16)};
    for (const char* file : {"sphere_ico4.stl", "pinion_gear.off", "knot.off"})
        if (auto mesh = sharedMesh(file, 1.3f)) shapes.push_back(std::move(mesh.value()));
    if (shapes.size() < 6 && test::deviceRequired()) FAIL() << "shared meshes missing (VKC_SHARED_DIR)";
    for (uint32_t seed : {31u, 32u}) expectRandomSceneMatchesOracle(shapes, seed, 24, 4.0f, 384);
}

TEST_F(ConsistentPairsSceneTest, HundredsOfBoxesMatchOracle) {
    std::vector<MeshData> shapes = {solids::box({1.0f, 0.6f, 0.8f}), solids::sphere(0.5f, 1)};
    for (bool tight : {false, true}) expectRandomSceneMatchesOracle(shapes, 7, 157, 9.0f, 512, tight);  // 157: not a multiple of any group size
}

}  // namespace
}  // namespace vkc::consistent_pairs_test
