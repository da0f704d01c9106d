// vkcollide-example end to end: its own volk device under the validation layer, a mesh grown by
// its own compute pass every frame and read in place by a GPU-driven detector, and in every PNG
// the objects the exact oracle says are tinted on the geometry of the frame whose results tinted
// it (two frames earlier): aabb-tree exactly the objects of interfering pairs, ebpi at least those
// of pairs whose volume exceeds the tolerance and never one that touches nothing.
#include "collision/reference/intersection_volume.h"
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
// The meshes of frame `f` (object 0's grown as the example grows it) and the objects' poses.
struct FrameGeometry {
    MeshData grown;
    const io::SceneDescription* scene;
    const MeshData& meshOf(uint32_t o) const {
        return scene->objects[o].mesh == scene->objects[0].mesh ? grown : scene->meshOf(o);
    }
};
FrameGeometry frameGeometry(const io::SceneDescription& scene, uint32_t f) {
    FrameGeometry g{scene.meshes[scene.objects[0].mesh].data, &scene};
    for (glm::vec3& p : g.grown.positions) p *= example::deformScale(f, kGrowth);
    return g;
}

std::set<std::pair<uint32_t, uint32_t>> oraclePairs(const io::SceneDescription& scene, uint32_t f) {
    const FrameGeometry g = frameGeometry(scene, f);
    auto meshOf = [&](uint32_t o) -> const MeshData& { return g.meshOf(o); };
    std::set<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t a = 0; a < scene.objects.size(); ++a)
        for (uint32_t b = a + 1; b < scene.objects.size(); ++b) {
            auto hit = reference::interferes(meshOf(a), scene.frames[0].transforms[a], meshOf(b), scene.frames[0].transforms[b]);
            EXPECT_TRUE(hit) << hit.status().describe();
            if (hit && hit.value()) pairs.insert({a, b});
        }
    return pairs;
}

std::set<uint32_t> oracleObjects(const io::SceneDescription& scene, uint32_t f) {
    std::set<uint32_t> objects;
    for (const auto& [a, b] : oraclePairs(scene, f)) objects.insert({a, b});
    return objects;
}

// Object o's world box in frame f's geometry.
std::pair<glm::dvec3, glm::dvec3> worldBox(const io::SceneDescription& scene, uint32_t f, uint32_t o) {
    const FrameGeometry g = frameGeometry(scene, f);
    glm::dvec3 lo(1e300), hi(-1e300);
    for (const glm::vec3& p : g.meshOf(o).positions) {
        const glm::dvec3 w = glm::dvec3(scene.frames[0].transforms[o] * glm::dvec4(glm::dvec3(p), 1.0));
        lo = glm::min(lo, w);
        hi = glm::max(hi, w);
    }
    return {lo, hi};
}

// Runs the example on the test scene and reads back, per frame, which objects its PNG tints.
// With `markers`, per frame the pixels of its point markers too; `launcher` runs the example (a
// virtual display); `output` receives what it printed.
std::vector<std::vector<bool>> runAndReadTints(const std::string& methodOptions, const io::SceneDescription& scene,
                                               uint32_t frames = kFrames,
                                               std::vector<std::vector<glm::ivec2>>* markers = nullptr,
                                               const std::string& launcher = "", std::string* output = nullptr) {
    const std::string scenePath = test::sourcePath("tests/tools/scenes/example_growing.json");
    const std::filesystem::path out = test::scratchDirectory();
    const test::CliRun run = test::runProgram(launcher + std::string(VKC_EXAMPLE_PATH) + " " + scenePath + " --frames " +
                                              std::to_string(frames) + " --growth " + std::to_string(kGrowth) +
                                              " --validation " + methodOptions + " --out " + out.string());
    EXPECT_EQ(run.exitCode, 0) << run.output;
    if (output) *output = run.output;
    std::vector<example::PlacedMesh> placed;
    for (uint32_t o = 0; o < scene.objects.size(); ++o) placed.push_back({&scene.meshOf(o), scene.frames[0].transforms[o]});
    const glm::mat4 camera = example::cameraWorldToClip(placed, example::cameraMargin(kGrowth, frames));
    std::vector<std::vector<bool>> tints;
    for (uint32_t f = 0; f < frames && run.exitCode == 0; ++f) {
        char name[32];
        std::snprintf(name, sizeof(name), "frame_%04u.png", f);
        int width = 0, height = 0, channels = 0;
        stbi_uc* pixels = stbi_load((out / name).c_str(), &width, &height, &channels, 4);
        EXPECT_NE(pixels, nullptr) << (out / name);
        if (!pixels) break;
        EXPECT_EQ(width, int(example::kImageWidth));
        EXPECT_EQ(height, int(example::kImageHeight));
        std::vector<bool> tinted;
        for (uint32_t o = 0; o < scene.objects.size(); ++o) {
            const glm::ivec2 pixel = example::pixelOf(camera, glm::dvec3(scene.frames[0].transforms[o][3]));
            EXPECT_TRUE(pixel.x >= 0 && pixel.y >= 0 && pixel.x < width && pixel.y < height);
            const stbi_uc* rgb = pixels + (size_t(pixel.y) * width + pixel.x) * 4;
            EXPECT_GT(rgb[0], 40) << "object " << o << " is not drawn where the camera puts it";
            tinted.push_back(rgb[0] > 2 * rgb[1]);  // kCollidingColor against grey kPlainColor
        }
        if (markers) {
            std::vector<glm::ivec2>& marked = markers->emplace_back();
            for (int y = 0; y < height; ++y)
                for (int x = 0; x < width; ++x)
                    if (example::isMarkerPixel(pixels + (size_t(y) * width + x) * 4)) marked.push_back({x, y});
        }
        stbi_image_free(pixels);
        tints.push_back(tinted);
    }
    return tints;
}

TEST(ExampleRenderer, TintsExactlyTheObjectsOfTheOraclesPairsOfTheFrameItsResultsCameFrom) {
    auto scene = io::loadScene(test::sourcePath("tests/tools/scenes/example_growing.json"));
    ASSERT_TRUE(scene) << scene.status().describe();
    const auto tints = runAndReadTints("", scene.value());
    ASSERT_EQ(tints.size(), kFrames);
    std::set<std::set<uint32_t>> distinctAnswers;
    for (uint32_t f = 0; f < kFrames; ++f) {
        SCOPED_TRACE("frame " + std::to_string(f));
        const std::set<uint32_t> expected = f >= 2 ? oracleObjects(scene.value(), f - 2) : std::set<uint32_t>{};
        distinctAnswers.insert(expected);
        for (uint32_t o = 0; o < scene->objects.size(); ++o)
            EXPECT_EQ(tints[f][o], expected.count(o) == 1) << scene->objects[o].name;
    }
    // The growing pair is first apart, then touching: the detector read the deformed vertices.
    EXPECT_GE(distinctAnswers.size(), 3u);
}

// --window under a virtual X server (xvfb-run, installed by tools/install_deps.sh): every frame is
// blitted into the window's swapchain and presented, validation-clean (the presentation's
// semaphores and layouts included), and the PNGs still tint exactly the oracle's objects.
TEST(ExampleRenderer, WindowModePresentsEveryFrameAndTintsAsHeadless) {
    auto scene = io::loadScene(test::sourcePath("tests/tools/scenes/example_growing.json"));
    ASSERT_TRUE(scene) << scene.status().describe();
    const uint32_t frames = 5;
    std::string output;
    const auto tints = runAndReadTints("--window", scene.value(), frames, nullptr, "xvfb-run -a ", &output);
    ASSERT_EQ(tints.size(), frames) << output;
    for (uint32_t f = 0; f < frames; ++f) {
        SCOPED_TRACE("frame " + std::to_string(f));
        EXPECT_NE(output.find("frame " + std::to_string(f) + ": presented"), std::string::npos) << output;
        const std::set<uint32_t> expected = f >= 2 ? oracleObjects(scene.value(), f - 2) : std::set<uint32_t>{};
        for (uint32_t o = 0; o < scene->objects.size(); ++o)
            EXPECT_EQ(tints[f][o], expected.count(o) == 1) << scene->objects[o].name;
    }
}

// A volume method (ebpi, ldi), GPU-driven in the host's frame: an object is tinted when the exact
// intersection volume of one of its pairs exceeds `threshold` (each method reports every such pair:
// ebpi past its tolerance, ldi whatever volume its pixels sample), never when it touches nothing; a
// pair whose volume is within the threshold may go either way.
void expectVolumeTints(const std::string& methodOptions, double threshold) {
    constexpr uint32_t kVolumeFrames = 12;  // the growing pair's volume passes 1e-3 by frame 9
    auto scene = io::loadScene(test::sourcePath("tests/tools/scenes/example_growing.json"));
    ASSERT_TRUE(scene) << scene.status().describe();
    const auto tints = runAndReadTints(methodOptions, scene.value(), kVolumeFrames);
    ASSERT_EQ(tints.size(), kVolumeFrames);
    std::set<std::set<uint32_t>> distinctAnswers;
    for (uint32_t f = 2; f < kVolumeFrames; ++f) {
        SCOPED_TRACE("frame " + std::to_string(f));
        const FrameGeometry g = frameGeometry(scene.value(), f - 2);
        std::set<uint32_t> measured, touching = oracleObjects(scene.value(), f - 2);
        for (uint32_t a = 0; a < scene->objects.size(); ++a)
            for (uint32_t b = a + 1; b < scene->objects.size(); ++b) {
                if (touching.count(a) == 0 || touching.count(b) == 0) continue;
                auto volume = reference::intersectionVolume(g.meshOf(a), scene->frames[0].transforms[a], g.meshOf(b),
                                                            scene->frames[0].transforms[b]);
                ASSERT_TRUE(volume) << volume.status().describe();
                if (volume.value() > threshold) measured.insert({a, b});
            }
        distinctAnswers.insert(measured);
        for (uint32_t o = 0; o < scene->objects.size(); ++o) {
            if (measured.count(o)) EXPECT_TRUE(tints[f][o]) << scene->objects[o].name;
            if (!touching.count(o)) EXPECT_FALSE(tints[f][o]) << scene->objects[o].name;
        }
    }
    EXPECT_GE(distinctAnswers.size(), 2u);  // the growing pair's volume passes the threshold on the way
}

TEST(ExampleRenderer, EbpiTintsThePairsWhoseVolumeExceedsTheToleranceAndNothingApart) {
    constexpr double kTolerance = 1e-3;
    expectVolumeTints("--method ebpi --tolerance " + std::to_string(kTolerance), kTolerance);
}

TEST(ExampleRenderer, LdiTintsThePairsWithAVolumeAndNothingApart) { expectVolumeTints("--method ldi", 1e-3); }

// An image-space method (stencil, consistent-pairs), GPU-driven in the host's frame (views fitted
// and objects chosen on the GPU): the tinted objects are the oracle's, except the growing pair
// within two of the view's pixels of touching, where an edge point or surface sample lying on the
// other's surface may be seen either way (paper 1, 6.3; paper 3, 4.3's threshold). The point
// markers (frames with results) lie where the oracle's colliding pairs' boxes overlap, within the
// markers' own size and their normal markers' offset (0.2 world units here).
void expectImageSpaceTints(const std::string& method) {
    auto scene = io::loadScene(test::sourcePath("tests/tools/scenes/example_growing.json"));
    ASSERT_TRUE(scene) << scene.status().describe();
    std::vector<std::vector<glm::ivec2>> markers;
    const auto tints = runAndReadTints("--method " + method, scene.value(), kFrames, &markers);
    ASSERT_EQ(markers.size(), kFrames);
    std::vector<example::PlacedMesh> placed;
    for (uint32_t o = 0; o < scene->objects.size(); ++o) placed.push_back({&scene->meshOf(o), scene->frames[0].transforms[o]});
    const glm::mat4 camera = example::cameraWorldToClip(placed, example::cameraMargin(kGrowth, kFrames));
    ASSERT_EQ(tints.size(), kFrames);
    const double centres = glm::length(glm::dvec3(scene->frames[0].transforms[1][3] - scene->frames[0].transforms[0][3]));
    std::set<std::set<uint32_t>> distinctAnswers;
    for (uint32_t f = 2; f < kFrames; ++f) {
        SCOPED_TRACE("frame " + std::to_string(f));
        const std::set<uint32_t> expected = oracleObjects(scene.value(), f - 2);
        distinctAnswers.insert(expected);
        // The balls' surfaces (radius 0.5, the grower scaled): a pixel is under 0.01 here.
        const double gap = centres - 0.5 - 0.5 * example::deformScale(f - 2, kGrowth);
        for (uint32_t o = 0; o < scene->objects.size(); ++o) {
            if (o < 2 && std::abs(gap) < 0.02) continue;
            EXPECT_EQ(tints[f][o], expected.count(o) == 1) << scene->objects[o].name;
        }
        // The crates overlap on every frame: their edge points or surface samples are marked.
        EXPECT_FALSE(markers[f].empty());
        std::vector<std::pair<glm::ivec2, glm::ivec2>> overlaps;  // pixel rectangles, min and max corners
        for (const auto& [a, b] : oraclePairs(scene.value(), f - 2)) {
            const auto [loA, hiA] = worldBox(scene.value(), f - 2, a);
            const auto [loB, hiB] = worldBox(scene.value(), f - 2, b);
            const glm::ivec2 p0 = example::pixelOf(camera, glm::max(loA, loB) - 0.2);
            const glm::ivec2 p1 = example::pixelOf(camera, glm::min(hiA, hiB) + 0.2);
            overlaps.push_back({glm::min(p0, p1), glm::max(p0, p1)});
        }
        for (const glm::ivec2& pixel : markers[f]) {
            bool nearAnOverlap = false;
            for (const auto& [lo, hi] : overlaps)
                nearAnOverlap = nearAnOverlap || (glm::all(glm::greaterThanEqual(pixel, lo)) && glm::all(glm::lessThanEqual(pixel, hi)));
            EXPECT_TRUE(nearAnOverlap) << "marker at pixel " << pixel.x << ", " << pixel.y;
        }
    }
    EXPECT_GE(distinctAnswers.size(), 2u);
}

TEST(ExampleRenderer, StencilTintsTheOraclesObjectsAwayFromTheMomentOfContact) { expectImageSpaceTints("stencil"); }

TEST(ExampleRenderer, ConsistentPairsTintsTheOraclesObjectsAwayFromTheMomentOfContact) {
    expectImageSpaceTints("consistent-pairs");
}

TEST(ExampleRenderer, RefusesUnknownMethodsBadScenesAndAWindowWithoutADisplay) {
    const std::string scenePath = test::sourcePath("tests/tools/scenes/example_growing.json");
    test::CliRun run = test::runProgram(std::string(VKC_EXAMPLE_PATH) + " " + scenePath + " --method octree --frames 1");
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_NE(run.output.find("--method octree: not a method"), std::string::npos) << run.output;
    run = test::runProgram(std::string(VKC_EXAMPLE_PATH) + " " + scenePath + ".missing --frames 1");
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_NE(run.output.find(".missing"), std::string::npos) << run.output;
    // A window without a display: a clear error, not a crash.
    run = test::runProgram("env -u DISPLAY -u WAYLAND_DISPLAY " + std::string(VKC_EXAMPLE_PATH) + " " + scenePath +
                           " --window --frames 1 --out " + test::scratchDirectory().string());
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_NE(run.output.find("--window: no display"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace vkc
