// Budgets that follow the need (tools/cli/grow_to_need.h): `detect` started with capacities far
// below what a frame needs (ebpi's rays and hit slots, ldi's layers, stencil's points, aabb-tree's
// candidate pairs) answers every pair anyway, nothing `truncated`, and the answers are the exact
// method's: every stored pair compared, not only counts. And ebpi's tolerance as a percentage of
// each pair's own volume.
#include "tests/tools/cli_runner.h"

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace vkc {
namespace {

using test::readJson;
using test::runCli;
using test::sourcePath;

using PairKey = std::pair<int, int>;

// `detect --method <method> <options>` on `scene`; the report's first frame.
nlohmann::json detectFirstFrame(const std::string& scene, const std::string& method, const std::string& options,
                           const std::filesystem::path& dir, nlohmann::json* settings = nullptr) {
    const std::filesystem::path report = dir / (method + ".json");
    auto run = runCli("detect " + scene + " --method " + method + " " + options + " --report " + report.string());
    EXPECT_EQ(run.exitCode, 0) << run.output;
    if (run.exitCode != 0) return nlohmann::json::object();
    const nlohmann::json document = readJson(report);
    if (settings) *settings = document["settings"];
    return document["frames"][0];
}

std::map<PairKey, nlohmann::json> pairsByKey(const nlohmann::json& frame) {
    std::map<PairKey, nlohmann::json> pairs;
    for (const nlohmann::json& pair : frame["pairs"]) pairs[{pair["a"].get<int>(), pair["b"].get<int>()}] = pair;
    return pairs;
}

// Every pair of `frame` has a volume within its bound of the exact one, none is truncated, and
// the pairs are the exact method's.
void expectVolumesOfTheExactPairs(const nlohmann::json& frame, const std::map<PairKey, nlohmann::json>& exact, const char* method) {
    const auto pairs = pairsByKey(frame);
    ASSERT_EQ(pairs.size(), exact.size()) << method << ": " << frame["pairs"].dump();
    for (const auto& [key, truth] : exact) {
        auto found = pairs.find(key);
        ASSERT_NE(found, pairs.end()) << method << " missed pair " << key.first << "-" << key.second;
        const nlohmann::json& pair = found->second;
        EXPECT_FALSE(pair.value("truncated", false)) << method << " " << pair.dump();
        EXPECT_LE(std::abs(pair["volume"].get<double>() - truth["volume"].get<double>()),
                  pair["volume_error_bound"].get<double>())
            << method << " " << pair.dump() << " exact " << truth["volume"];
    }
}

// A method's first frame on a test scene beside the exact method's, its volumes checked against it.
struct Measured {
    std::map<PairKey, nlohmann::json> exact;
    nlohmann::json frame, settings;
};
Measured measureAgainstExact(const char* scene, const std::string& method, const std::string& options,
                             size_t exactPairs) {
    const std::filesystem::path dir = test::scratchDirectory();
    const std::string path = sourcePath(std::string("tests/tools/scenes/") + scene);
    Measured m;
    m.exact = pairsByKey(detectFirstFrame(path, "exact", "", dir));
    EXPECT_EQ(m.exact.size(), exactPairs) << scene;
    m.frame = detectFirstFrame(path, method, options, dir, &m.settings);
    expectVolumesOfTheExactPairs(m.frame, m.exact, method.c_str());
    return m;
}

TEST(CliBudgets, EbpiGrowsRaysAndHitSlotsToTheFramesNeed) {
    const auto [exact, frame, settings] =
        measureAgainstExact("ebpi_volumes.json", "ebpi", "--tolerance 1e-3 --max-rays 256 --hit-capacity 1", 2);
    for (const nlohmann::json& pair : frame["pairs"]) EXPECT_LE(pair["volume_error_bound"].get<double>(), 1e-3);
    EXPECT_FALSE(frame["ebpi"]["rays_truncated"].get<bool>());
    // A ray through two boxes meets four surfaces: the slots grew from 1, the rays from 256.
    EXPECT_GE(settings["hit_capacity"].get<uint32_t>(), 4u) << settings.dump();
    EXPECT_GE(settings["max_rays"].get<uint64_t>(), frame["ebpi"]["total_rays"].get<uint64_t>()) << settings.dump();
    EXPECT_GT(frame["ebpi"]["total_rays"].get<uint64_t>(), 256u);
}

TEST(CliBudgets, EbpiToleranceAsAPercentageOfEachPairsVolume) {
    const auto [exact, frame, settings] = measureAgainstExact("ebpi_volumes.json", "ebpi", "--tolerance 2%", 2);
    EXPECT_EQ(settings["tolerance"], "2%");
    for (const nlohmann::json& pair : frame["pairs"]) {
        const double volume = exact.at({pair["a"].get<int>(), pair["b"].get<int>()})["volume"];
        EXPECT_LE(pair["volume_error_bound"].get<double>(), 0.02 * volume) << pair.dump();
        // Not the loosest that passes: at least a tenth of the tolerance is spent (rays are not free).
        EXPECT_GE(pair["volume_error_bound"].get<double>(), 0.002 * volume) << pair.dump();
    }
    for (const char* bad : {"0%", "150%", "x%", "%", "2%%"}) {
        auto run = runCli("detect " + sourcePath("tests/tools/scenes/ebpi_volumes.json") + " --method ebpi --tolerance " +
                          std::string(bad));
        EXPECT_NE(run.exitCode, 0) << bad;
        EXPECT_NE(run.output.find("percentage"), std::string::npos) << bad << ": " << run.output;
    }
}

TEST(CliBudgets, LdiGrowsItsLayerCapToTheDeepestPair) {
    // Every closed solid needs at least two layers: a cap of one truncates every pair.
    const auto [exact, frame, settings] =
        measureAgainstExact("ldi_volumes.json", "ldi", "--layer-cap 1 --resolution 128", 3);
    uint32_t deepest = 0;
    for (const nlohmann::json& pair : frame["ldi"]["pairs"])
        for (const nlohmann::json& layers : pair["layers"]) deepest = std::max(deepest, layers.get<uint32_t>());
    EXPECT_GE(deepest, 2u);
    EXPECT_GE(settings["layer_cap"].get<uint32_t>(), deepest) << settings.dump();
}

// At 32 pixels ldi's bounds are a large part of the volumes; each pair whose bound is above 20%
// of its volume runs again at finer resolutions until it is not (--max-bound 0: measured at 32).
TEST(CliBudgets, LdiRefinesEveryPairToABoundOfAFifthOfItsVolume) {
    const auto [exact, frame, settings] = measureAgainstExact("ldi_volumes.json", "ldi", "--resolution 32", 3);
    for (const nlohmann::json& pair : frame["pairs"]) {
        const double volume = exact.at({pair["a"].get<int>(), pair["b"].get<int>()})["volume"];
        EXPECT_LE(pair["volume_error_bound"].get<double>(), 0.2 * volume) << pair.dump();
    }
    const auto [exactAgain, coarse, coarseSettings] =
        measureAgainstExact("ldi_volumes.json", "ldi", "--resolution 32 --max-bound 0", 3);
    size_t refined = 0, loose = 0;
    for (size_t p = 0; p < coarse["ldi"]["pairs"].size(); ++p) {
        const nlohmann::json& pair = coarse["pairs"][p];
        loose += pair["volume_error_bound"].get<double>() >
                 0.2 * exact.at({pair["a"].get<int>(), pair["b"].get<int>()})["volume"].get<double>();
        EXPECT_EQ(coarse["ldi"]["pairs"][p]["resolution"], 32);
        refined += frame["ldi"]["pairs"][p]["resolution"].get<uint32_t>() > 32;
    }
    EXPECT_GT(loose, 0u) << "32 pixels must leave some bound above a fifth of its volume";
    EXPECT_GE(refined, loose);
}

TEST(CliBudgets, StencilGrowsItsPointCapacityAndKeepsEveryPair) {
    const std::filesystem::path dir = test::scratchDirectory();
    const std::string scene = sourcePath("tests/tools/scenes/ldi_volumes.json");
    const auto exact = pairsByKey(detectFirstFrame(scene, "exact", "", dir));
    const nlohmann::json frame = detectFirstFrame(scene, "stencil", "--point-capacity 1", dir);
    const auto pairs = pairsByKey(frame);
    EXPECT_EQ(pairs.size(), exact.size()) << frame["pairs"].dump();
    for (const auto& [key, truth] : exact) {
        ASSERT_TRUE(pairs.count(key)) << "stencil missed " << key.first << "-" << key.second;
        EXPECT_FALSE(pairs.at(key).value("truncated", false)) << pairs.at(key).dump();
    }
    EXPECT_GT(frame["stencil"]["points"].get<uint64_t>(), 1u);
    EXPECT_FALSE(frame["stencil"]["points_truncated"].get<bool>());
}

// 100 unit cubes about one centre, each turned differently: every pair's surfaces cross, 4,950
// candidate pairs, more than AabbTreeSettings' default 4,096.
TEST(CliBudgets, AabbTreeTakesMoreCandidatePairsThanItsDefault) {
    const std::filesystem::path dir = test::scratchDirectory();
    nlohmann::json scene = {{"meshes", {{"cube", {{"file", sourcePath("../shared/meshes/cube.stl")}}}}},
                            {"objects", nlohmann::json::array()}};
    constexpr int kCubes = 100;
    for (int i = 0; i < kCubes; ++i) {
        const double angle = 0.37 * i, norm = std::sqrt(14.0);
        const double s = std::sin(angle / 2) / norm;
        scene["objects"].push_back({{"name", "cube" + std::to_string(i)},
                                    {"mesh", "cube"},
                                    {"position", {0.001 * i, 0.0007 * i, 0.0013 * i}},
                                    {"rotation", {std::cos(angle / 2), s, 2 * s, 3 * s}}});
    }
    const std::filesystem::path path = dir / "cubes.json";
    std::ofstream(path) << scene.dump();
    const nlohmann::json frame = detectFirstFrame(path.string(), "aabb-tree", "", dir);
    ASSERT_EQ(frame["pairs"].size(), size_t(kCubes * (kCubes - 1) / 2));
    for (const nlohmann::json& pair : frame["pairs"]) {
        EXPECT_GT(pair["triangle_pairs"].get<uint64_t>(), 0u) << pair.dump();
        EXPECT_FALSE(pair.value("truncated", false)) << pair.dump();
    }
}

// Two pairs of shared meshes at arbitrary poses, the second 10 units from the first (so that it
// takes the frame's second pair slot), each pair's b moved by `shift`.
nlohmann::json posedPairs(const glm::dvec3& shift) {
    const std::string meshes = sourcePath("../shared/meshes/");
    nlohmann::json scene = {
        {"meshes", {{"torus", {{"file", meshes + "torus.stl"}}}, {"sphere", {{"file", meshes + "sphere_ico4.stl"}}}}},
        {"objects", nlohmann::json::array()}};
    for (double x : {0.0, 10.0}) {
        scene["objects"].push_back({{"name", "torus" + std::to_string(int(x))}, {"mesh", "torus"},
                                    {"position", {x + 0.1, -0.2, 0.05}},
                                    {"rotation", {0.8823391, 0.2409992, 0.361549, -0.1807745}}});
        scene["objects"].push_back({{"name", "sphere" + std::to_string(int(x))}, {"mesh", "sphere"},
                                    {"position", {x + 0.9 + shift.x, 0.3 + shift.y, -0.1 + shift.z}},
                                    {"rotation", {0.7082915, -0.5008377, 0.3005026, 0.3964631}}});
    }
    return scene;
}

// --gradient at half a percent of each pair's volume: b's per-vertex dV/dx summed over its
// vertices is dV/d(translation of b), which agrees with central differences of the exact (CGAL)
// volume within 10% per axis, for both pairs (the second in the frame's second slot); the two
// objects' sums cancel (translating both changes nothing).
TEST(CliBudgets, EbpiGradientAtHalfAPercentAgreesWithTheExactVolumesCentralDifferences) {
    const std::filesystem::path dir = test::scratchDirectory();
    auto write = [&](const std::string& name, const glm::dvec3& shift) {
        const std::filesystem::path path = dir / name;
        std::ofstream(path) << posedPairs(shift).dump();
        return path.string();
    };
    auto exactVolumes = [&](const std::string& scene) {
        const nlohmann::json frame = detectFirstFrame(scene, "exact", "", dir);
        std::vector<double> volumes;
        for (const nlohmann::json& pair : frame["pairs"]) volumes.push_back(pair["volume"]);
        return volumes;
    };
    const std::string scene = write("pairs.json", glm::dvec3(0.0));
    const std::vector<double> volumes = exactVolumes(scene);
    ASSERT_EQ(volumes.size(), 2u);
    const nlohmann::json frame =
        detectFirstFrame(scene, "ebpi", "--tolerance 0.5% --gradient " + (dir / "gradient.json").string(), dir);
    ASSERT_EQ(frame["pairs"].size(), 2u);
    const nlohmann::json gradient = readJson(dir / "gradient.json")["frames"][0]["pairs"];
    ASSERT_EQ(gradient.size(), 2u);
    glm::dvec3 central[2];
    for (int axis = 0; axis < 3; ++axis) {
        glm::dvec3 step(0.0);
        step[axis] = 2e-3;
        const std::vector<double> plus = exactVolumes(write("plus.json", step));
        const std::vector<double> minus = exactVolumes(write("minus.json", -step));
        ASSERT_EQ(plus.size(), 2u);
        ASSERT_EQ(minus.size(), 2u);
        for (int p = 0; p < 2; ++p) central[p][axis] = (plus[p] - minus[p]) / (2 * step[axis]);
    }
    for (int p = 0; p < 2; ++p) {
        EXPECT_LE(frame["pairs"][p]["volume_error_bound"].get<double>(), 0.005 * volumes[p]) << "pair " << p;
        glm::dvec3 sumA(0.0), sumB(0.0);
        for (const nlohmann::json& g : gradient[p]["gradient_a"]) sumA += glm::dvec3(g[1], g[2], g[3]);
        for (const nlohmann::json& g : gradient[p]["gradient_b"]) sumB += glm::dvec3(g[1], g[2], g[3]);
        for (int axis = 0; axis < 3; ++axis) {
            std::printf("pair %d axis %d: dV/db %.6g, central difference %.6g, sum over a %.6g\n", p, axis, sumB[axis],
                        central[p][axis], sumA[axis]);
            EXPECT_NEAR(sumB[axis], central[p][axis], 0.1 * std::abs(central[p][axis]) + 1e-3 * glm::length(sumB))
                << "pair " << p << " axis " << axis;
            EXPECT_NEAR(sumA[axis] + sumB[axis], 0.0, 0.02 * glm::length(sumB)) << "pair " << p << " axis " << axis;
        }
    }
}

}  // namespace
}  // namespace vkc
