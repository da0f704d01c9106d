// `vkcollide detect --method ebpi --tolerance V` end to end (paper 5): every pair's volume within
// the volume_error_bound the report states, the bound within the tolerance, against the cube pair's
// exact 0.125 and the exact method's volume of a cube against a turned cube; `--gradient` against
// the cube pair's analytic derivative and the translation identity; `--images` PNGs per pair and
// direction; the method's `ebpi` frame fields; `--directions axes` measuring along the world axes; a
// missing or bad tolerance refused with the reason.
#include "tests/tools/cli_runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

namespace vkc {
namespace {

using test::readJson;
using test::runCli;
using test::sourcePath;

// The exact method's pairs (volumes) of the ebpi_volumes scene, run into `dir`.
nlohmann::json exactVolumePairs(const std::string& scene, const std::filesystem::path& dir) {
    auto exact = runCli("detect " + scene + " --method exact --report " + (dir / "exact.json").string());
    EXPECT_EQ(exact.exitCode, 0) << exact.output;
    return exact.exitCode == 0 ? readJson(dir / "exact.json")["frames"][0]["pairs"] : nlohmann::json::array();
}

TEST(CliDetect, EbpiMethodMeetsTheExactVolumesWithinItsBoundAndTheTolerance) {
    const std::filesystem::path dir = test::scratchDirectory();
    const std::string scene = sourcePath("tests/tools/scenes/ebpi_volumes.json");
    const nlohmann::json truth = exactVolumePairs(scene, dir);
    ASSERT_EQ(truth.size(), 2u) << truth.dump(1);

    const double tolerance = 1e-3;
    // The compute backend: any device, the same hits as ray queries (tests/ebpi/ebpi_detector_test.cpp).
    auto run = runCli("detect " + scene + " --method ebpi --tolerance 1e-3 --resolution 64 --ray-backend compute " +
                      "--gradient " + (dir / "gradient.json").string() + " --images " + (dir / "images").string() +
                      " --report " + (dir / "report.json").string());
    ASSERT_EQ(run.exitCode, 0) << run.output;
    const nlohmann::json report = readJson(dir / "report.json");
    EXPECT_EQ(report["method"], "ebpi");
    EXPECT_EQ(report["settings"]["tolerance"], tolerance);
    EXPECT_EQ(report["settings"]["ray_backend"], "compute");
    const nlohmann::json& frame = report["frames"][0];
    ASSERT_EQ(frame["pairs"].size(), 2u) << frame.dump(1);
    for (size_t i = 0; i < 2; ++i) {
        const nlohmann::json& pair = frame["pairs"][i];
        EXPECT_EQ(pair["a"], truth[i]["a"]);
        EXPECT_EQ(pair["b"], truth[i]["b"]);
        const double volume = pair["volume"], bound = pair["volume_error_bound"], expected = truth[i]["volume"];
        std::printf("pair %d-%d: volume %.9g (exact %.9g) error %.2g bound %.3g\n", pair["a"].get<int>(),
                    pair["b"].get<int>(), volume, expected, std::abs(volume - expected), bound);
        EXPECT_LE(std::abs(volume - expected), bound);
        EXPECT_LE(bound, tolerance);
        EXPECT_FALSE(frame["ebpi"]["pairs"][i]["truncated"]);
        EXPECT_GT(frame["ebpi"]["pairs"][i]["rays"].get<uint64_t>(), 0u);
    }
    EXPECT_DOUBLE_EQ(truth[0]["volume"].get<double>(), 0.125);
    // Paper Table 1's stages: each ran and was timed; the compute backend builds no BVH.
    const nlohmann::json& stages = frame["ebpi"]["stage_timings_ms"];
    for (const char* stage : {"image", "rays", "casting", "volume", "readback"})
        EXPECT_GT(stages[stage].get<double>(), 0.0) << stage;
    EXPECT_EQ(stages["bvh"].get<double>(), 0.0);

    // --images: per pair and direction, the EBPI bound and the rays per pixel, PNGs of the view's size.
    for (int pair = 0; pair < 2; ++pair)
        for (int direction = 0; direction < 3; ++direction)
            for (const char* kind : {"bound", "rays"}) {
                const std::string name = "frame0_pair" + std::to_string(2 * pair) + "-" + std::to_string(2 * pair + 1) +
                                         "_dir" + std::to_string(direction) + "_ebpi_" + kind + ".png";
                std::ifstream png(dir / "images" / name, std::ios::binary);
                ASSERT_TRUE(png) << name;
                unsigned char header[24] = {};
                png.read(reinterpret_cast<char*>(header), sizeof(header));
                EXPECT_EQ(std::string(reinterpret_cast<char*>(header) + 1, 3), "PNG") << name;
                const uint32_t width = uint32_t(header[16]) << 24 | header[17] << 16 | header[18] << 8 | header[19];
                EXPECT_GE(width, 1u);
                EXPECT_LE(width, 64u) << name << ": the EBPI's pixels along its longer side";
            }

    // dV/d(translation of b) = -(1 - 0.5)^2 per axis for the cube pair; both objects' sums cancel.
    const nlohmann::json gradient = readJson(dir / "gradient.json")["frames"][0]["pairs"];
    ASSERT_EQ(gradient.size(), 2u);
    for (const nlohmann::json& pair : gradient) {
        double sumA[3] = {0, 0, 0}, sumB[3] = {0, 0, 0};
        for (const nlohmann::json& g : pair["gradient_a"])
            for (int k = 0; k < 3; ++k) sumA[k] += g[k + 1].get<double>();
        for (const nlohmann::json& g : pair["gradient_b"])
            for (int k = 0; k < 3; ++k) sumB[k] += g[k + 1].get<double>();
        for (int k = 0; k < 3; ++k) {
            EXPECT_NEAR(sumA[k] + sumB[k], 0.0, 1e-6) << "pair " << pair["a"] << " axis " << k;
            if (pair["a"] == 0) EXPECT_NEAR(sumB[k], -0.25, 0.01) << "axis " << k;
        }
    }
}

// More overlapping pairs than one detector holds (maxPairs 4): the harness runs them in batches,
// and every pair comes back with its volume within its bound of the exact 0.125.
TEST(CliDetect, EbpiRunsMorePairsThanADetectorHoldsInBatches) {
    const std::filesystem::path dir = test::scratchDirectory();
    auto run = runCli("detect " + sourcePath("tests/tools/scenes/ebpi_batches.json") +
                      " --method ebpi --tolerance 1e-3 --report " + (dir / "report.json").string());
    ASSERT_EQ(run.exitCode, 0) << run.output;
    const nlohmann::json frame = readJson(dir / "report.json")["frames"][0];
    ASSERT_EQ(frame["pairs"].size(), 5u) << frame.dump(1);
    for (size_t i = 0; i < 5; ++i) {
        const nlohmann::json& pair = frame["pairs"][i];
        EXPECT_EQ(pair["a"], 2 * i);
        EXPECT_EQ(pair["b"], 2 * i + 1);
        EXPECT_LE(std::abs(pair["volume"].get<double>() - 0.125), pair["volume_error_bound"].get<double>()) << i;
        EXPECT_LE(pair["volume_error_bound"].get<double>(), 1e-3) << i;
    }
}

// --ray-backend: each backend runs, says which it used, and gives the compute backend's volumes
// exactly; a name that is no backend is refused listing the ones there are.
TEST(CliDetect, EbpiRayBackendsGiveTheSameVolumes) {
    const std::filesystem::path dir = test::scratchDirectory();
    const std::string scene = sourcePath("tests/tools/scenes/ebpi_volumes.json");
    std::vector<double> reference;
    for (const char* backend : {"compute", "ray-query", "ray-tracing-pipeline"}) {
        const std::filesystem::path report = dir / (std::string(backend) + ".json");
        auto run = runCli("detect " + scene + " --method ebpi --tolerance 1e-3 --ray-backend " + backend +
                          " --report " + report.string());
        ASSERT_EQ(run.exitCode, 0) << backend << ": " << run.output;
        const nlohmann::json json = readJson(report);
        EXPECT_EQ(json["settings"]["ray_backend"], backend);
        std::vector<double> volumes;
        for (const nlohmann::json& pair : json["frames"][0]["pairs"]) volumes.push_back(pair["volume"]);
        ASSERT_EQ(volumes.size(), 2u) << backend;
        if (reference.empty()) reference = volumes;
        EXPECT_EQ(volumes, reference) << backend;
    }
    auto bad = runCli("detect " + scene + " --method ebpi --tolerance 1e-3 --ray-backend optix");
    EXPECT_NE(bad.exitCode, 0);
    EXPECT_NE(bad.output.find("ray-tracing-pipeline"), std::string::npos) << bad.output;
}

// --directions axes: every pair is measured along the world axes (the default turns them away from
// the cubes' faces), still within its bound of the exact volume; a name that is no choice is
// refused naming the option and the choices.
TEST(CliDetect, EbpiDirectionsAxesKeepTheWorldAxes) {
    const std::filesystem::path dir = test::scratchDirectory();
    const std::string scene = sourcePath("tests/tools/scenes/ebpi_volumes.json");
    const nlohmann::json truth = exactVolumePairs(scene, dir);
    ASSERT_EQ(truth.size(), 2u) << truth.dump(1);
    const std::vector<std::vector<double>> worldAxes = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (const std::string choice : {"optimised", "axes"}) {
        const std::filesystem::path report = dir / (choice + ".json");
        auto run = runCli("detect " + scene + " --method ebpi --tolerance 1e-2 --ray-backend compute --directions " +
                          choice + " --report " + report.string());
        ASSERT_EQ(run.exitCode, 0) << choice << ": " << run.output;
        const nlohmann::json json = readJson(report);
        EXPECT_EQ(json["settings"]["directions"], choice);
        const nlohmann::json& frame = json["frames"][0];
        ASSERT_EQ(frame["pairs"].size(), 2u) << choice << ": " << frame.dump(1);
        for (size_t i = 0; i < 2; ++i) {
            const nlohmann::json& details = frame["ebpi"]["pairs"][i];
            const auto directions = details["directions"].get<std::vector<std::vector<double>>>();
            EXPECT_EQ(directions == worldAxes, choice == "axes")
                << choice << " pair " << i << ": " << details["directions"];
            EXPECT_FALSE(details["truncated"]) << choice << " pair " << i;
            const nlohmann::json& pair = frame["pairs"][i];
            EXPECT_LE(std::abs(pair["volume"].get<double>() - truth[i]["volume"].get<double>()),
                      pair["volume_error_bound"].get<double>())
                << choice << " pair " << i;
            EXPECT_LE(pair["volume_error_bound"].get<double>(), 1e-2) << choice << " pair " << i;
        }
    }
    auto bad = runCli("detect " + scene + " --method ebpi --tolerance 1e-3 --directions diagonal");
    EXPECT_NE(bad.exitCode, 0);
    EXPECT_NE(bad.output.find("--directions"), std::string::npos) << bad.output;
    EXPECT_NE(bad.output.find("optimised"), std::string::npos) << bad.output;
}

TEST(CliDetect, EbpiRefusesAMissingOrBadToleranceWithTheReason) {
    const std::string scene = sourcePath("tests/tools/scenes/ebpi_volumes.json");
    auto missing = runCli("detect " + scene + " --method ebpi");
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_NE(missing.output.find("--method ebpi needs --tolerance"), std::string::npos) << missing.output;
    for (const char* bad : {"0", "-1", "nan"}) {
        auto run = runCli("detect " + scene + " --method ebpi --tolerance " + std::string(bad));
        EXPECT_NE(run.exitCode, 0) << bad;
        EXPECT_NE(run.output.find("--tolerance"), std::string::npos) << bad << ": " << run.output;
    }
}

}  // namespace
}  // namespace vkc
