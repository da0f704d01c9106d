// `vkcollide compare` end to end on a tiny scene with known truth: every method the device runs;
// each frame's table rows exactly the pairs the oracle and the methods reported (one of them only
// an image-space method reports), every cell what that method's own frame says, volumes within
// their bounds of the exact ones, aabb-tree's triangle pairs equal to the oracle's; the printed
// table, the `--images` PNGs of every method that has images, the ebpi tolerance derived from the
// scene; named methods only with --methods, an unknown one and a missing scene refused by name.
#include "tests/tools/cli_runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>


namespace vkc {
namespace {

using test::readJson;
using test::runCli;
using test::sourcePath;

using PairKey = std::pair<int, int>;

PairKey keyOf(const nlohmann::json& pair) { return {pair["a"].get<int>(), pair["b"].get<int>()}; }

std::set<PairKey> pairsOf(const nlohmann::json& methodFrame) {
    std::set<PairKey> pairs;
    for (const nlohmann::json& pair : methodFrame["pairs"]) pairs.insert(keyOf(pair));
    return pairs;
}

// A PNG's size from its header; 0 x 0 when the file is missing or is no PNG.
struct PngSize {
    uint32_t width = 0, height = 0;
};
PngSize pngSize(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    unsigned char header[24] = {};
    if (!file.read(reinterpret_cast<char*>(header), sizeof(header))) return {};
    if (std::string(reinterpret_cast<char*>(header) + 1, 3) != "PNG") return {};
    auto bigEndian = [&](int at) {
        return uint32_t(header[at]) << 24 | uint32_t(header[at + 1]) << 16 | uint32_t(header[at + 2]) << 8 | header[at + 3];
    };
    return {bigEndian(16), bigEndian(20)};
}

const nlohmann::json* findPair(const nlohmann::json& methodFrame, const PairKey& key) {
    for (const nlohmann::json& pair : methodFrame["pairs"])
        if (pair["a"] == key.first && pair["b"] == key.second) return &pair;
    return nullptr;
}

TEST(CliCompare, TablesShowEveryReportedPairWithVolumesWithinTheirBounds) {
    const std::filesystem::path dir = test::scratchDirectory();
    auto run = runCli("compare " + sourcePath("tests/tools/scenes/compare.json") + " --resolution 256 --images " +
                      (dir / "images").string() + " --report " + (dir / "report.json").string());
    ASSERT_EQ(run.exitCode, 0) << run.output;
    const nlohmann::json report = readJson(dir / "report.json");
    const std::vector<std::string> everyMethod = {"exact", "stencil", "ldi", "consistent-pairs", "aabb-tree", "ebpi"};
    EXPECT_EQ(report["methods"].get<std::vector<std::string>>(), everyMethod);
    EXPECT_FALSE(report.contains("unavailable")) << report["unavailable"].dump();
    EXPECT_FALSE(report.contains("failed")) << report["failed"].dump();
    // ebpi's default tolerance: 2% of each pair's own volume.
    const nlohmann::json& settings = report.at("settings");
    EXPECT_EQ(settings.at("ebpi").at("tolerance"), "2%");
    EXPECT_EQ(settings.at("ldi").at("resolution"), 256);
    EXPECT_EQ(settings.at("stencil").at("resolution"), 256);

    // Frame 0: the cube pair, the turned pair, the contained core; frame 1: the cube pair apart.
    const std::set<PairKey> truth[] = {{{0, 1}, {2, 3}, {4, 5}}, {{2, 3}, {4, 5}}};
    ASSERT_EQ(report["frames"].size(), 2u);
    for (size_t f = 0; f < 2; ++f) {
        const nlohmann::json& frame = report["frames"][f];
        const nlohmann::json& methods = frame["methods"];
        EXPECT_EQ(pairsOf(methods["exact"]), truth[f]) << "frame " << f;
        std::set<PairKey> reported;
        for (const std::string& method : everyMethod) {
            ASSERT_TRUE(methods.contains(method)) << "frame " << f << ": " << method;
            for (const PairKey& pair : pairsOf(methods[method])) reported.insert(pair);
        }
        std::set<PairKey> rows;
        for (const nlohmann::json& row : frame.at("table")) {
            const PairKey key = keyOf(row);
            rows.insert(key);
            EXPECT_EQ(row.at("objects").size(), 2u);
            const nlohmann::json* exact = findPair(methods["exact"], key);
            const double exactVolume = exact ? exact->at("volume").get<double>() : 0.0;
            for (const std::string& method : everyMethod) {
                const nlohmann::json& cell = row.at("methods").at(method);
                const nlohmann::json* pair = findPair(methods[method], key);
                const std::string where = "frame " + std::to_string(f) + " pair " + std::to_string(key.first) + "-" +
                                          std::to_string(key.second) + " " + method;
                if (!pair) {
                    EXPECT_TRUE(cell.at("found") == "no" || cell.at("found") == "undecided") << where << ": " << cell.dump();
                    EXPECT_FALSE(cell.contains("volume")) << where;
                    continue;
                }
                EXPECT_EQ(cell.at("found"), pair->value("truncated", false) ? "truncated" : "yes") << where;
                EXPECT_FALSE(pair->value("truncated", false)) << where << ": compare grows every budget to the need";
                EXPECT_EQ(cell.contains("volume"), pair->contains("volume")) << where;
                EXPECT_EQ(cell.value("triangle_pairs", -1), pair->value("triangle_pairs", -1)) << where;
                if (method == "exact" || !pair->contains("volume")) continue;
                const double volume = pair->at("volume"), bound = pair->at("volume_error_bound");
                EXPECT_EQ(cell.at("volume").get<double>(), volume) << where;
                EXPECT_DOUBLE_EQ(cell.at("volume_error").get<double>(), std::abs(volume - exactVolume)) << where;
                EXPECT_LE(std::abs(volume - exactVolume), bound) << where;
                EXPECT_TRUE(cell.at("within_bound").get<bool>()) << where;
                if (volume != exactVolume)  // how conservative the bound was, reported per pair
                    EXPECT_DOUBLE_EQ(cell.at("bound_over_error").get<double>(), bound / std::abs(volume - exactVolume))
                        << where;
                // At compare's defaults the volume methods' bounds are a small part of the volume.
                EXPECT_LE(bound, (method == "ebpi" ? 0.02 : 0.1) * exactVolume) << where;
            }
            // aabb-tree counts exactly the oracle's triangle pairs, and reports no pair without any
            // (the contained core touches no surface).
            const int exactTrianglePairs = exact ? exact->at("triangle_pairs").get<int>() : 0;
            const nlohmann::json& aabb = row.at("methods").at("aabb-tree");
            EXPECT_EQ(aabb.at("found"), exactTrianglePairs > 0 ? "yes" : "no") << "frame " << f << " " << row.dump();
            EXPECT_EQ(aabb.value("triangle_pairs", 0), exactTrianglePairs) << "frame " << f << " " << row.dump();
            if (key == PairKey{4, 5}) EXPECT_EQ(exactTrianglePairs, 0) << "frame " << f;
        }
        // The near cubes, a small fraction of a pixel apart: no pair for the oracle, but within what an
        // image-space method may report (stencil's edges move outward by half a pixel), so a row.
        EXPECT_EQ(reported.count({7, 8}), 1u) << "frame " << f;
        reported.insert(truth[f].begin(), truth[f].end());
        EXPECT_EQ(rows, reported) << "frame " << f;
        // The volume methods find every pair here: each overlap is many pixels deep.
        for (const char* method : {"ldi", "ebpi"}) EXPECT_EQ(pairsOf(methods[method]), truth[f]) << method;
    }
    const nlohmann::json& exactPairs = report.at("frames").at(0).at("methods").at("exact").at("pairs");
    EXPECT_DOUBLE_EQ(exactPairs.at(0).at("volume").get<double>(), 0.125);
    EXPECT_NEAR(exactPairs.at(2).at("volume").get<double>(), 0.064, 1e-7);

    // The printed table: names, not indices, a row per method, the disagreement marked.
    for (const char* text : {"frame 0 (1 of 2)", "frame 1 (2 of 2)", "pair", "bound/|error|", "triangle pairs", "cube / cube+0.5",
                             "cube-2 / cube-2 turned", "shell / core", "near / near+gap", "consistent-pairs",
                             "* differs from exact", "wall ms: exact", "compare: frame 1 (2 of 2): ebpi"})
        EXPECT_NE(run.output.find(text), std::string::npos) << text << "\n" << run.output;
    EXPECT_EQ(run.output.find("alone"), std::string::npos) << run.output;

    // --images, a folder per method that has images: stencil's counts per view and consistent-pairs'
    // inconsistent fragments (the 256-pixel views), ldi's intersection depth per pair (its 256-pixel
    // LDIs), ebpi's bound and rays per pair and direction (its own EBPI size); none for the others.
    for (const char* image : {"stencil/frame0_viewz_stencil_counts.png", "stencil/frame1_viewy_stencil_counts.png",
                              "consistent-pairs/frame0_inconsistent_pixels.png",
                              "consistent-pairs/frame1_inconsistent_pixels.png",
                              "ldi/frame0_pair0-1_intersection_depth.png", "ldi/frame1_pair4-5_intersection_depth.png"}) {
        const PngSize size = pngSize(dir / "images" / image);
        EXPECT_EQ(size.width, 256u) << image;
        EXPECT_EQ(size.height, 256u) << image;
    }
    for (const char* image : {"ebpi/frame0_pair2-3_dir0_ebpi_bound.png", "ebpi/frame1_pair4-5_dir2_ebpi_rays.png"})
        EXPECT_GT(pngSize(dir / "images" / image).width, 0u) << image;
    for (const char* method : {"exact", "aabb-tree"}) EXPECT_FALSE(std::filesystem::exists(dir / "images" / method));
}

TEST(CliCompare, RunsTheNamedMethodsBesideExactAndRefusesBadInput) {
    const std::filesystem::path dir = test::scratchDirectory();
    const std::string scene = sourcePath("tests/tools/scenes/compare.json");
    auto run = runCli("compare " + scene + " --methods aabb-tree --frames 1 --report " + (dir / "report.json").string());
    ASSERT_EQ(run.exitCode, 0) << run.output;
    const nlohmann::json report = readJson(dir / "report.json");
    EXPECT_EQ(report["methods"].get<std::vector<std::string>>(), (std::vector<std::string>{"exact", "aabb-tree"}));
    ASSERT_EQ(report["frames"].size(), 1u);
    for (const nlohmann::json& row : report.at("frames").at(0).at("table"))
        EXPECT_EQ(row.at("methods").size(), 2u) << row.dump();
    EXPECT_EQ(run.output.find("stencil"), std::string::npos) << run.output;

    auto unknown = runCli("compare " + scene + " --methods ldi,magic");
    EXPECT_EQ(unknown.exitCode, 1) << unknown.output;
    EXPECT_NE(unknown.output.find("unknown method \"magic\""), std::string::npos) << unknown.output;

    auto missing = runCli("compare " + (dir / "no-such-scene.json").string());
    EXPECT_EQ(missing.exitCode, 1) << missing.output;
    EXPECT_NE(missing.output.find("no-such-scene.json"), std::string::npos) << missing.output;
    EXPECT_NE(missing.output.find("does not exist"), std::string::npos) << missing.output;
}

}  // namespace
}  // namespace vkc
