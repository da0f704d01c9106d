// vkcollide-example end to end: its own volk device under the validation layer, a mesh grown by
// its own compute pass every frame and read in place by the GPU-driven aabb-tree detector, and in
// every PNG exactly the objects of the pairs the exact oracle finds on the geometry of the frame
// whose results tinted it (two frames earlier) are tinted.
#include "collision/reference/pair_query.h"
#include "tests/tools/cli_runner.h"
#include "tools/examples/example_view.h"
#include "tools/io/scene_file.h"

#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#include <gtest/gtest.h>

#include <set>

namespace vkc {
namespace {

constexpr uint32_t kFrames = 10;
constexpr float kGrowth = 0.04f;

// Objects in a pair the oracle finds on frame `f`'s geometry (object 0's mesh grown as the example grows it).
std::set<uint32_t> oracleObjects(const io::SceneDescription& scene, uint32_t f) {
    MeshData grown = scene.meshes[scene.objects[0].mesh].data;
    for (glm::vec3& p : grown.positions) p *= example::deformScale(f, kGrowth);
    auto meshOf = [&](uint32_t o) -> const MeshData& { return scene.objects[o].mesh == scene.objects[0].mesh ? grown : scene.meshOf(o); };
    std::set<uint32_t> objects;
    for (uint32_t a = 0; a < scene.objects.size(); ++a)
        for (uint32_t b = a + 1; b < scene.objects.size(); ++b) {
            auto hit = reference::interferes(meshOf(a), scene.frames[0].transforms[a], meshOf(b), scene.frames[0].transforms[b]);
            EXPECT_TRUE(hit) << hit.status().describe();
            if (hit && hit.value()) objects.insert({a, b});
        }
    return objects;
}

TEST(ExampleRenderer, TintsExactlyTheObjectsOfTheOraclesPairsOfTheFrameItsResultsCameFrom) {
    const std::string scenePath = test::sourcePath("tests/tools/scenes/example_growing.json");
    const std::filesystem::path out = std::filesystem::temp_directory_path() / "vkcollide_example_test";
    std::filesystem::remove_all(out);
    const test::CliRun run = test::runProgram(std::string(VKC_EXAMPLE_PATH) + " " + scenePath + " --frames " +
                                              std::to_string(kFrames) + " --growth " + std::to_string(kGrowth) +
                                              " --validation --out " + out.string());
    ASSERT_EQ(run.exitCode, 0) << run.output;
    auto scene = io::loadScene(scenePath);
    ASSERT_TRUE(scene) << scene.status().describe();
    std::vector<example::PlacedMesh> placed;
    for (uint32_t o = 0; o < scene->objects.size(); ++o) placed.push_back({&scene->meshOf(o), scene->frames[0].transforms[o]});
    const glm::mat4 camera = example::cameraWorldToClip(placed, example::cameraMargin(kGrowth, kFrames));

    std::set<std::set<uint32_t>> distinctAnswers;
    for (uint32_t f = 0; f < kFrames; ++f) {
        SCOPED_TRACE("frame " + std::to_string(f));
        const std::set<uint32_t> expected = f >= 2 ? oracleObjects(scene.value(), f - 2) : std::set<uint32_t>{};
        distinctAnswers.insert(expected);
        char name[32];
        std::snprintf(name, sizeof(name), "frame_%04u.png", f);
        int width = 0, height = 0, channels = 0;
        stbi_uc* pixels = stbi_load((out / name).c_str(), &width, &height, &channels, 4);
        ASSERT_NE(pixels, nullptr) << (out / name);
        ASSERT_EQ(width, int(example::kImageWidth));
        ASSERT_EQ(height, int(example::kImageHeight));
        for (uint32_t o = 0; o < scene->objects.size(); ++o) {
            const glm::ivec2 pixel = example::pixelOf(camera, glm::dvec3(scene->frames[0].transforms[o][3]));
            ASSERT_TRUE(pixel.x >= 0 && pixel.y >= 0 && pixel.x < width && pixel.y < height);
            const stbi_uc* rgb = pixels + (size_t(pixel.y) * width + pixel.x) * 4;
            EXPECT_GT(rgb[0], 40) << "object " << o << " is not drawn where the camera puts it";
            const bool tinted = rgb[0] > 2 * rgb[1];  // kCollidingColor against grey kPlainColor
            EXPECT_EQ(tinted, expected.count(o) == 1) << scene->objects[o].name;
        }
        stbi_image_free(pixels);
    }
    // The growing pair is first apart, then touching: the detector read the deformed vertices.
    EXPECT_GE(distinctAnswers.size(), 3u);
}

TEST(ExampleRenderer, RefusesMethodsThatAreNotGpuDrivenYetAndBadScenes) {
    const std::string scenePath = test::sourcePath("tests/tools/scenes/example_growing.json");
    test::CliRun run = test::runProgram(std::string(VKC_EXAMPLE_PATH) + " " + scenePath + " --method ldi --frames 1");
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_NE(run.output.find("--method ldi"), std::string::npos) << run.output;
    run = test::runProgram(std::string(VKC_EXAMPLE_PATH) + " " + scenePath + ".missing --frames 1");
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_NE(run.output.find(".missing"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace vkc
