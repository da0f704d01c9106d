// `vkcollide detect --method ldi` end to end (paper 2): the meshes README's reference volumes
// within the volume_error_bound the report states, the method's `ldi` frame fields (layer counts,
// no truncation), and `--images` writing one intersection-depth PNG per pair.
#include "tests/tools/cli_runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace vkc {
namespace {

using test::runCli;
using test::sourcePath;

TEST(CliDetect, LdiMethodMeetsReferenceVolumesWithinItsBound) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "vkc_cli_tests" / "ldi";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::filesystem::path reportPath = dir / "report.json";
    auto run = runCli("detect " + sourcePath("tests/tools/scenes/ldi_volumes.json") + " --method ldi --resolution 256 " +
                      "--layer-cap 8 --images " + (dir / "images").string() + " --report " + reportPath.string());
    ASSERT_EQ(run.exitCode, 0) << run.output;
    std::ifstream file(reportPath);
    nlohmann::json report = nlohmann::json::parse(file);
    EXPECT_EQ(report["method"], "ldi");
    EXPECT_EQ(report["settings"]["resolution"], 256);
    EXPECT_EQ(report["settings"]["layer_cap"], 8);
    const nlohmann::json& frame = report["frames"][0];
    EXPECT_TRUE(frame["colliding"]);
    struct Expected { uint32_t a, b; double volume; };
    const Expected expected[] = {{0, 1, 0.125}, {2, 3, 1.29100111077}, {4, 5, 1.38331932222}};  // meshes README
    ASSERT_EQ(frame["pairs"].size(), std::size(expected)) << frame.dump(1);
    for (size_t i = 0; i < std::size(expected); ++i) {
        const nlohmann::json& pair = frame["pairs"][i];
        EXPECT_EQ(pair["a"], expected[i].a);
        EXPECT_EQ(pair["b"], expected[i].b);
        double volume = pair["volume"], bound = pair["volume_error_bound"];
        EXPECT_GT(bound, 0.0);
        EXPECT_LE(std::abs(volume - expected[i].volume), bound) << "pair " << expected[i].a << "-" << expected[i].b;
    }
    const nlohmann::json& ldi = frame["ldi"];
    ASSERT_EQ(ldi["pairs"].size(), 3u);
    for (const nlohmann::json& pair : ldi["pairs"]) {
        EXPECT_FALSE(pair["truncated"]);
        EXPECT_GE(pair["layers"][0].get<int>(), 1);
    }
    EXPECT_TRUE(ldi["self_intersections"].empty());
    EXPECT_TRUE(frame["timings_ms"]["gpu"].contains("ldi-count"));
    EXPECT_TRUE(frame["timings_ms"]["gpu"].contains("ldi-volume"));
    for (const char* name : {"frame0_pair0-1_intersection_depth.png", "frame0_pair2-3_intersection_depth.png",
                             "frame0_pair4-5_intersection_depth.png"})
        EXPECT_GT(std::filesystem::file_size(dir / "images" / name), 100u) << name;
}

}  // namespace
}  // namespace vkc
