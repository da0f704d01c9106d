// Tier A: a scene is a pure function of (seed, index), and the file written for a failing scene
// loads back to the same poses with its meshes found relative to the file.
#include "tests/difftest/difftest_paths.h"
#include "tools/difftest/scene_generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <unistd.h>

namespace vkc::difftest {
namespace {

class DifftestGenerator : public ::testing::Test {
protected:
    void SetUp() override {
        auto loaded = MeshPool::load(test::difftestMeshDir(), true);
        ASSERT_TRUE(loaded) << loaded.status().describe();
        pool_ = std::move(loaded).value();
    }
    MeshPool pool_;
};

TEST_F(DifftestGenerator, SameSeedAndIndexGiveTheSameSceneAndOthersDiffer) {
    for (uint64_t index = 0; index < 6; ++index) {
        auto first = generateScene(pool_, 7, index, true);
        auto again = generateScene(pool_, 7, index, true);
        auto otherSeed = generateScene(pool_, 8, index, true);
        ASSERT_TRUE(first && again && otherSeed);
        EXPECT_EQ(first->file, again->file) << "index " << index;
        EXPECT_NE(first->file["objects"], otherSeed->file["objects"]) << "index " << index;
    }
}

TEST_F(DifftestGenerator, PairsAreAimedAtTheirDepthWithTheExactOracle) {
    // Kind 1 sweeps b through depths 0.2, 0.02, 0, -0.02, -0.2 of the smaller size: the exact
    // oracle must see the first two frames interfering and the last two apart, wherever the
    // parsed (float) positions can express a 0.02 offset.
    size_t checked = 0;
    for (uint64_t seed = 1; seed <= 12; ++seed) {
        auto scene = generateScene(pool_, seed, 1, true);
        ASSERT_TRUE(scene) << scene.status().describe();
        auto description = io::parseScene(scene->file.dump(), pool_.meshDir, scene->id);
        ASSERT_TRUE(description) << description.status().describe();
        ASSERT_EQ(description->frameCount(), 5u);
        for (size_t f : {0u, 1u, 3u, 4u}) {
            std::vector<TruthObject> objects;
            for (size_t i = 0; i < 2; ++i) {
                auto object = placeObject(description->meshOf(i), description->frames[f].poses[i], true);
                ASSERT_TRUE(object);
                objects.push_back(std::move(object).value());
            }
            const glm::dvec3 extent = glm::min(objects[0].bounds.max - objects[0].bounds.min,
                                               objects[1].bounds.max - objects[1].bounds.min);
            const glm::vec3 at = description->frames[f].poses[1].position;
            const float far = std::max({std::abs(at.x), std::abs(at.y), std::abs(at.z)});
            if (double(std::nextafter(far, INFINITY) - far) > 1e-3 * std::min({extent.x, extent.y, extent.z})) continue;
            ++checked;
            auto touching = interferesTranslated(objects[0], objects[1], glm::dvec3(0.0));
            ASSERT_TRUE(touching);
            EXPECT_EQ(touching.value(), f < 2) << "scene " << scene->id << " frame " << f;
        }
    }
    EXPECT_GE(checked, 16u);
}

TEST_F(DifftestGenerator, WrittenSceneLoadsBackWithTheSamePoses) {
    const auto dir = std::filesystem::temp_directory_path() / ("vkc_difftest_" + std::to_string(::getpid()));
    for (uint64_t index = 0; index < 6; ++index) {
        auto scene = generateScene(pool_, 11, index, true);
        ASSERT_TRUE(scene);
        auto path = writeSceneFile(scene.value(), pool_, dir);
        ASSERT_TRUE(path) << path.status().describe();
        auto written = io::loadScene(path.value());
        ASSERT_TRUE(written) << written.status().describe();
        auto original = io::parseScene(scene->file.dump(), pool_.meshDir, scene->id);
        ASSERT_TRUE(original);
        ASSERT_EQ(written->frameCount(), original->frameCount());
        for (size_t f = 0; f < original->frameCount(); ++f)
            for (size_t i = 0; i < original->objects.size(); ++i) {
                EXPECT_EQ(written->frames[f].transforms[i], original->frames[f].transforms[i]) << path.value() << " object " << i;
                EXPECT_EQ(written->meshOf(i).positions, original->meshOf(i).positions);
            }
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace vkc::difftest
