// `vkcollide detect` end to end: the exact method reproduces the oracle library and the meshes
// README's reference volumes; the demo scene runs its frames with the GPU broadphase; bad scene
// files and unknown methods fail with a clear message and a non-zero exit, never a crash.
#include "collision/reference/pair_query.h"
#include "tests/tools/cli_runner.h"
#include "tools/io/scene_file.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>


namespace vkc {
namespace {

using test::readJson;
using test::runCli;
using test::sourcePath;

TEST(CliDetect, ExactMethodMatchesOracleAndReferenceVolumes) {
    const std::string scenePath = sourcePath("tests/tools/scenes/reference_volumes.json");
    const auto reportPath = test::scratchDirectory() / "reference_volumes.json";
    auto run = runCli("detect " + scenePath + " --method exact --report " + reportPath.string());
    ASSERT_EQ(run.exitCode, 0) << run.output;
    nlohmann::json report = readJson(reportPath);
    EXPECT_EQ(report["method"], "exact");
    ASSERT_EQ(report["frames"].size(), 1u);
    const nlohmann::json& pairs = report["frames"][0]["pairs"];

    // From ../shared/meshes/README.md (CGAL exact corefinement).
    struct Expected { uint32_t a, b; double volume, relativeTolerance; };
    const Expected expected[] = {
        {0, 1, 324.549994167, 1e-9},  // ballA ∩ ballB as is
        {2, 3, 0.125, 0.0},           // cube ∩ cube + (0.5, 0.5, 0.5): exactly
        {4, 5, 1.29100111077, 1e-9},  // sphere_ico4 ∩ itself + (1, 0, 0)
        {6, 7, 1.38331932222, 1e-9},  // torus ∩ itself + (1.5, 0, 0)
        // + 0.1: the README value, within the 1e-6 its digits and the float mesh coordinates allow.
        {8, 9, 0.0349967844596, 1e-6},
        {10, 11, 3299571.401, 1e-9},    // hull-body ∩ hull-mask as is
        {12, 13, 12.0632932633, 1e-7},  // fandisk ∩ itself + (1, 0, 0): float coordinates move it 2e-8
    };
    ASSERT_EQ(pairs.size(), std::size(expected)) << pairs.dump(1);
    auto scene = io::loadScene(scenePath);
    ASSERT_TRUE(scene) << scene.status().describe();
    for (size_t i = 0; i < std::size(expected); ++i) {
        const nlohmann::json& pair = pairs[i];
        EXPECT_EQ(pair["a"], expected[i].a);
        EXPECT_EQ(pair["b"], expected[i].b);
        double volume = pair["volume"];
        EXPECT_NEAR(volume, expected[i].volume, expected[i].volume * expected[i].relativeTolerance + 1e-15)
            << "pair " << expected[i].a << "-" << expected[i].b;
        // The report says exactly what the oracle library says for the same placement.
        auto oracle = reference::exactPair(scene->meshOf(expected[i].a), scene->frames[0].transforms[expected[i].a],
                                           scene->meshOf(expected[i].b), scene->frames[0].transforms[expected[i].b]);
        ASSERT_TRUE(oracle) << oracle.status().describe();
        EXPECT_EQ(pair["triangle_pairs"], oracle->trianglePairCount);
        ASSERT_TRUE(oracle->volume.has_value());
        EXPECT_EQ(volume, *oracle->volume);
        EXPECT_GT(oracle->trianglePairCount, 0u);
    }
    EXPECT_FALSE(report["frames"][0].contains("warnings")) << report["frames"][0]["warnings"].dump();
    EXPECT_TRUE(report["frames"][0]["timings_ms"]["gpu"].contains("broadphase-bounds"));
    EXPECT_FALSE(report["device"]["name"].get<std::string>().empty());
}

TEST(CliDetect, AabbTreeMethodAgreesWithExactTrianglePairCounts) {
    const std::string scenePath = sourcePath("tests/tools/scenes/reference_volumes.json");
    const std::filesystem::path dir = test::scratchDirectory();
    const auto exactPath = dir / "exact_counts.json", aabbPath = dir / "aabb_counts.json";
    auto exact = runCli("detect " + scenePath + " --method exact --report " + exactPath.string());
    ASSERT_EQ(exact.exitCode, 0) << exact.output;
    auto aabb = runCli("detect " + scenePath + " --method aabb-tree --report " + aabbPath.string());
    ASSERT_EQ(aabb.exitCode, 0) << aabb.output;
    const nlohmann::json exactPairs = readJson(exactPath)["frames"][0]["pairs"];
    const nlohmann::json aabbReport = readJson(aabbPath);
    EXPECT_EQ(aabbReport["method"], "aabb-tree");
    const nlohmann::json& aabbPairs = aabbReport["frames"][0]["pairs"];
    ASSERT_EQ(aabbPairs.size(), exactPairs.size()) << aabbPairs.dump(1);
    for (size_t i = 0; i < exactPairs.size(); ++i) {
        EXPECT_EQ(aabbPairs[i]["a"], exactPairs[i]["a"]);
        EXPECT_EQ(aabbPairs[i]["b"], exactPairs[i]["b"]);
        EXPECT_EQ(aabbPairs[i]["triangle_pairs"], exactPairs[i]["triangle_pairs"]) << "pair " << i;
        EXPECT_FALSE(aabbPairs[i].contains("volume")) << "aabb-tree computes no volume: the field must be absent";
    }
    EXPECT_TRUE(aabbReport["frames"][0]["timings_ms"]["gpu"].contains("aabb-traverse"));
    // The counts the paper read with occlusion queries, from the GPU's counters.
    const nlohmann::json& stats = aabbReport["frames"][0]["aabb_tree"];
    uint64_t sum = 0;
    for (const nlohmann::json& pair : aabbPairs) sum += pair["triangle_pairs"].get<uint64_t>();
    EXPECT_EQ(stats["triangle_pairs"].get<uint64_t>(), sum);
    ASSERT_EQ(stats["box_pairs_tested_per_level"].size(), stats["global_levels"].get<size_t>());
    EXPECT_GT(stats["box_pairs_overlapping_per_level"][0].get<uint64_t>(), 0u);
    EXPECT_FALSE(stats["node_pair_overflow"].get<bool>());
}

// The demo's overlaps are many pixels deep at 256 pixels per side and its separated pairs (the peg
// threading the ring) many pixels apart, so an image-space method's pairs must equal the exact
// ones. Runs both on the demo; returns the frames of the exact report and of `method`'s.
std::pair<nlohmann::json, nlohmann::json> demoFramesOfExactAnd(const std::string& method) {
    const std::string demo = sourcePath("tools/scenes/demo.json");
    const std::filesystem::path dir = test::scratchDirectory();
    const auto exactPath = dir / "demo_exact.json", methodPath = dir / ("demo_" + method + ".json");
    auto exact = runCli("detect " + demo + " --method exact --report " + exactPath.string());
    EXPECT_EQ(exact.exitCode, 0) << exact.output;
    auto run = runCli("detect " + demo + " --method " + method + " --resolution 256 --report " + methodPath.string());
    EXPECT_EQ(run.exitCode, 0) << run.output;
    if (exact.exitCode != 0 || run.exitCode != 0) return {};
    return {readJson(exactPath)["frames"], readJson(methodPath)["frames"]};
}

std::vector<std::pair<int, int>> pairsOf(const nlohmann::json& frame) {
    std::vector<std::pair<int, int>> pairs;
    for (const nlohmann::json& pair : frame["pairs"]) pairs.emplace_back(pair["a"], pair["b"]);
    return pairs;
}

TEST(CliDetect, ConsistentPairsMethodFindsTheExactPairsOfTheDemo) {
    const auto [exactFrames, cpFrames] = demoFramesOfExactAnd("consistent-pairs");
    ASSERT_FALSE(exactFrames.empty());
    ASSERT_EQ(cpFrames.size(), exactFrames.size());
    for (size_t f = 0; f < exactFrames.size(); ++f) {
        EXPECT_EQ(pairsOf(cpFrames[f]), pairsOf(exactFrames[f])) << "frame " << f;
        for (const nlohmann::json& pair : cpFrames[f]["pairs"]) {
            // Collision points come with the GPU's normals; a contained object has none.
            EXPECT_EQ(pair.value("normals", nlohmann::json::array()).size(),
                      pair.value("points", nlohmann::json::array()).size()) << "frame " << f;
            EXPECT_FALSE(pair.contains("triangle_pairs"));
        }
        EXPECT_GE(cpFrames[f]["consistent_pairs"]["iterations"].get<int>(), 1) << "frame " << f;
        EXPECT_FALSE(cpFrames[f]["consistent_pairs"]["iterations_truncated"].get<bool>());
    }
}

// Every ldi volume of the demo within its stated bound of the exact one, and the bound useful
// (issue 12's 20%): the ring, turned a quarter by its scene's quaternion, has faces 1e-16 off
// parallel to the rays, whose crease terms once stated 1.2e10 for the peg pushed into it.
TEST(CliDetect, LdiMethodStatesAUsefulBoundOnEveryDemoPair) {
    const auto [exactFrames, ldiFrames] = demoFramesOfExactAnd("ldi");
    ASSERT_FALSE(exactFrames.empty());
    ASSERT_EQ(ldiFrames.size(), exactFrames.size());
    for (size_t f = 0; f < exactFrames.size(); ++f) {
        EXPECT_EQ(pairsOf(ldiFrames[f]), pairsOf(exactFrames[f])) << "frame " << f;
        for (const nlohmann::json& pair : ldiFrames[f]["pairs"]) {
            const std::string name = "frame " + std::to_string(f) + " pair " + pair["a"].dump() + "-" + pair["b"].dump();
            const nlohmann::json* exact = nullptr;
            for (const nlohmann::json& e : exactFrames[f]["pairs"])
                if (e["a"] == pair["a"] && e["b"] == pair["b"]) exact = &e;
            ASSERT_NE(exact, nullptr) << name;
            const double volume = (*exact)["volume"], bound = pair["volume_error_bound"];
            EXPECT_LE(std::abs(pair["volume"].get<double>() - volume), bound) << name;
            EXPECT_LE(bound, 0.2 * volume) << name;
        }
    }
}

TEST(CliDetect, StencilMethodFindsTheExactPairsOfTheDemo) {
    const auto [exactFrames, stencilFrames] = demoFramesOfExactAnd("stencil");
    ASSERT_FALSE(exactFrames.empty());
    ASSERT_EQ(stencilFrames.size(), exactFrames.size());
    for (size_t f = 0; f < exactFrames.size(); ++f) {
        const std::vector<std::pair<int, int>> expected = pairsOf(exactFrames[f]), found = pairsOf(stencilFrames[f]);
        for (const nlohmann::json& pair : stencilFrames[f]["pairs"]) {
            EXPECT_FALSE(pair["points"].empty()) << "frame " << f << ": interfering edge points expected";
            EXPECT_FALSE(pair["penetrating"].empty());
            EXPECT_FALSE(pair.contains("triangle_pairs")) << "stencil computes no triangle pairs";
        }
        EXPECT_EQ(found, expected) << "frame " << f;
        EXPECT_EQ(stencilFrames[f]["colliding"], exactFrames[f]["colliding"]);
        // The occlusion-query boolean agrees with the pair list.
        EXPECT_EQ(stencilFrames[f]["stencil"]["interference"], !found.empty()) << "frame " << f;
        EXPECT_FALSE(stencilFrames[f]["stencil"]["penetrating_objects"].empty());
    }
}

TEST(CliDetect, DemoSceneRunsEveryFrameWithContainmentAndNoBroadphaseMiss) {
    const auto reportPath = test::scratchDirectory() / "demo.json";
    auto run = runCli("detect " + sourcePath("tools/scenes/demo.json") + " --method exact --report " +
                      reportPath.string());
    ASSERT_EQ(run.exitCode, 0) << run.output;
    nlohmann::json report = readJson(reportPath);
    auto scene = io::loadScene(sourcePath("tools/scenes/demo.json"));
    ASSERT_TRUE(scene);
    ASSERT_EQ(report["frames"].size(), scene->frameCount());
    for (const nlohmann::json& frame : report["frames"]) {
        EXPECT_TRUE(frame["colliding"].get<bool>());
        EXPECT_GE(frame["potentially_colliding_pairs"].get<uint32_t>(), frame["pairs"].size());
        EXPECT_FALSE(frame.contains("warnings")) << frame["warnings"].dump();
        for (const nlohmann::json& pair : frame["pairs"]) EXPECT_LT(pair["a"].get<int>(), pair["b"].get<int>());
    }
    // A contained pair interferes with zero intersecting triangle pairs (the cube inside the ring).
    bool containment = false;
    for (const nlohmann::json& pair : report["frames"][0]["pairs"])
        containment = containment || (pair["triangle_pairs"] == 0 && pair["volume"].get<double>() > 0.0);
    EXPECT_TRUE(containment) << report["frames"][0]["pairs"].dump();
}

// Detectors take the scene file's objects, however many: 5,000 boxes (above DetectorSettings'
// default 4,096) with one overlapping pair, the last two objects; stencil refuses a scene above
// its 16-bit ids naming the limit (checked in LargeScene; here the count is within it).
TEST(CliDetect, DetectorsTakeEveryObjectOfTheSceneFile) {
    const std::filesystem::path dir = test::scratchDirectory();
    nlohmann::json scene = {{"meshes", {{"box", {{"box", {{"size", {0.2, 0.2, 0.2}}}}}}}}, {"objects", nlohmann::json::array()}};
    for (int i = 0; i < 5000; ++i)
        scene["objects"].push_back({{"name", "b" + std::to_string(i)}, {"mesh", "box"},
                                    {"position", {double(i % 100), double(i / 100), 0.0}}});
    scene["objects"][4999]["position"] = {98.1, 49.05, 0.03};  // overlaps object 4998 at (98, 49, 0)
    std::ofstream(dir / "scene.json") << scene.dump();
    for (const char* method : {"aabb-tree", "stencil"}) {
        const std::filesystem::path reportPath = dir / (std::string(method) + ".json");
        auto run = runCli("detect " + (dir / "scene.json").string() + " --method " + method + " --report " +
                          reportPath.string());
        ASSERT_EQ(run.exitCode, 0) << method << ": " << run.output;
        const nlohmann::json frame = readJson(reportPath)["frames"][0];
        ASSERT_EQ(frame["pairs"].size(), 1u) << method << ": " << frame.dump(1);
        EXPECT_EQ(frame["pairs"][0]["a"], 4998) << method;
        EXPECT_EQ(frame["pairs"][0]["b"], 4999) << method;
    }
}

TEST(CliDetect, BadSceneFilesFailWithAMessageNamingTheProblem) {
    struct Case { const char* file; const char* mentions; };
    const Case cases[] = {
        {"missing_mesh.json", "missing_mesh.json"},   {"bad_json.json", "bad_json.json"},
        {"unknown_key.json", "unknown key"},           {"nan_transform.json", "nan_transform.json"},
        {"inf_transform.json", "inf_transform.json"}, {"duplicate_name.json", "duplicate"},
        {"zero_scale.json", "scale"},                  {"missing_file.json", "missing_file.json"},
    };
    for (const Case& c : cases) {
        auto run = runCli("detect " + sourcePath(std::string("tools/scenes/bad/") + c.file) + " --method exact");
        EXPECT_EQ(run.exitCode, 1) << c.file << ": " << run.output;  // not 0, not a crash
        EXPECT_NE(run.output.find(c.mentions), std::string::npos) << c.file << ": " << run.output;
    }
}

TEST(CliDetect, UnknownMethodsAreRefused) {
    auto unknown = runCli("detect " + sourcePath("tools/scenes/demo.json") + " --method magic");
    EXPECT_EQ(unknown.exitCode, 1);
    EXPECT_NE(unknown.output.find("unknown method \"magic\""), std::string::npos) << unknown.output;
}

// Command-line errors exit 1 (the documented status), not CLI11's own 105/106/109, with a short
// message; numeric ranges print as integers, not DBL_MAX's 309 digits.
TEST(CliOptions, CommandLineErrorsExitOneWithAShortMessage) {
    const std::string demo = sourcePath("tools/scenes/demo.json");
    struct Case { std::string arguments; const char* mentions; };
    const Case cases[] = {
        {"", "A subcommand is required"},
        {"detect", "scene is required"},
        {"detect /nonexistent/scene.json --method exact", "File does not exist"},
        {"detect " + demo + " --method exact --frames -1", "--frames: Value -1 not in range 1 to 4294967295"},
        {"detect " + demo + " --method exact --frames 0", "--frames: Value 0 not in range 1 to 4294967295"},
        {"detect " + demo + " --method exact --resolution 5", "--resolution: Value 5 not in range 16 to 16384"},
        {"detect " + demo + " --method stencil --views 2", "--views: 2 not in {1,3}"},
        {"info extra", "not expected: extra"},
    };
    for (const Case& c : cases) {
        auto run = runCli(c.arguments);
        EXPECT_EQ(run.exitCode, 1) << c.arguments << ": " << run.output;
        EXPECT_NE(run.output.find(c.mentions), std::string::npos) << c.arguments << ": " << run.output;
        EXPECT_LT(run.output.size(), 300u) << c.arguments << ": " << run.output;
    }
    EXPECT_EQ(runCli("--help").exitCode, 0);
}

TEST(CliInfo, ListsTheDeviceAndWhatItCanRun) {
    auto run = runCli("info");
    ASSERT_EQ(run.exitCode, 0) << run.output;
    EXPECT_NE(run.output.find("device 0:"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("exact: yes"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("stencil: yes"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("aabb-tree: yes"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("ldi: yes"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("ebpi: yes"), std::string::npos) << run.output;
    // The --ray-backend names; lavapipe has all three.
    for (const char* backend : {"ray-query: yes", "ray-tracing-pipeline: yes", "compute: yes"})
        EXPECT_NE(run.output.find(backend), std::string::npos) << backend << "\n" << run.output;
}

}  // namespace
}  // namespace vkc
