// `vkcollide detect` on the regression scenes of ../shared/scenes/regressions (shared meshes under
// random similarity transforms, with a truth computed by an independent CGAL program) and on a
// crowd of 1 cm objects far from the origin, for the methods whose contract is exact: the object
// pairs and every pair's triangle-pair count equal the truth's.
#include "tests/tools/cli_runner.h"
#include "tests/support/test_geometry.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>


namespace vkc {
namespace {

using Json = nlohmann::json;
using test::readJson;
using PairCounts = std::map<std::pair<int, int>, int64_t>;  // (a, b) → triangle pairs

std::filesystem::path sharedDir() {
    const char* env = std::getenv("VKC_SHARED_DIR");
    return env ? std::filesystem::path(env) : std::filesystem::path(VKC_SOURCE_DIR) / ".." / "shared";
}

PairCounts pairCounts(const Json& pairs) {
    PairCounts counts;
    for (const Json& pair : pairs) counts[{pair["a"].get<int>(), pair["b"].get<int>()}] = pair["triangle_pairs"].get<int64_t>();
    return counts;
}

// Runs `method` (with `options`) on `scene`, frame 0; fails the test (and returns nothing) on a
// non-zero exit.
std::optional<Json> detect(const std::filesystem::path& scene, const std::string& method, const std::string& options = "") {
    const auto report = test::scratchDirectory() / (scene.stem().string() + "." + method + ".json");
    auto run = test::runCli("detect " + scene.string() + " --method " + method + " " + options + " --report " +
                            report.string());
    EXPECT_EQ(run.exitCode, 0) << method << " on " << scene << ":\n" << run.output;
    if (run.exitCode != 0) return std::nullopt;
    Json frame = readJson(report)["frames"][0];
    std::filesystem::remove(report);
    return frame;
}

class RegressionScene : public ::testing::TestWithParam<std::tuple<const char*, const char*>> {};

TEST_P(RegressionScene, TrianglePairCountsEqualTheTruth) {
    const auto [name, method] = GetParam();
    const std::filesystem::path dir = sharedDir() / "scenes" / "regressions";
    ASSERT_TRUE(std::filesystem::exists(dir / (std::string(name) + ".json"))) << dir;
    const PairCounts truth = pairCounts(readJson(dir / "truth" / (std::string(name) + ".json"))["pairs"]);
    auto frame = detect(dir / (std::string(name) + ".json"), method);
    ASSERT_TRUE(frame);
    EXPECT_EQ(pairCounts((*frame)["pairs"]), truth) << method << " on " << name;
    EXPECT_EQ((*frame)["colliding"].get<bool>(), !truth.empty());
}

INSTANTIATE_TEST_SUITE_P(ExactMethods, RegressionScene,
                         ::testing::Combine(::testing::Values("pair_1_1", "pair_2_0", "pair_3_1", "crowd_0", "crowd_2"),
                                            ::testing::Values("exact", "aabb-tree")),
                         [](const auto& info) {
                             std::string method = std::get<1>(info.param);
                             std::erase(method, '-');
                             return std::string(std::get<0>(info.param)) + "_" + method;
                         });

// ldi on the 40-object crowds at 512^2, more pairs than lavapipe's 128 MiB storage binding holds
// in one detector (it used to exit 1 naming maxStorageBufferRange): the harness runs them in
// batches, and every pair of the truth comes back with its volume within the stated bound and
// within 1e-3 of the exact volume (the method's measured accuracy here is 4e-4 at worst).
TEST(CliLdiCrowds, EveryPairOfTheTruthWithinItsBoundAt512) {
    for (const char* name : {"crowd_0", "crowd_2"}) {
        const std::filesystem::path dir = sharedDir() / "scenes" / "regressions";
        const Json truth = readJson(dir / "truth" / (std::string(name) + ".json"))["pairs"];
        auto frame = detect(dir / (std::string(name) + ".json"), "ldi", "--resolution 512");
        ASSERT_TRUE(frame);
        std::map<std::pair<int, int>, Json> found;
        for (const Json& pair : (*frame)["pairs"]) found[{pair["a"].get<int>(), pair["b"].get<int>()}] = pair;
        EXPECT_EQ(found.size(), truth.size()) << name;
        for (const Json& expected : truth) {
            const auto key = std::make_pair(expected["a"].get<int>(), expected["b"].get<int>());
            auto it = found.find(key);
            ASSERT_NE(it, found.end()) << name << ": pair (" << key.first << ", " << key.second << ") missing";
            const double exact = expected["volume"].get<double>(), volume = it->second["volume"].get<double>();
            EXPECT_LE(std::abs(volume - exact), it->second["volume_error_bound"].get<double>()) << name;
            EXPECT_LE(std::abs(volume - exact), 1e-3 * exact) << name << ": pair (" << key.first << ", " << key.second << ")";
        }
    }
}

// ebpi on the regression pairs of pinion gears (nearly steep tooth flanks, where its bound is
// large): whatever it cannot bound it says (`truncated`, the reason as a warning, no volume);
// every volume it does state is within its bound of the truth's and the bound within the tolerance;
// every overlapping pair of the truth is listed.
TEST(CliEbpi, RegressionPairsAreWithinTheirBoundOrSayTruncated) {
    const double tolerance = 2e-4;
    for (const char* name : {"pair_1_1", "pair_2_0", "pair_3_1"}) {
        const std::filesystem::path dir = sharedDir() / "scenes" / "regressions";
        const Json truth = readJson(dir / "truth" / (std::string(name) + ".json"));
        auto frame = detect(dir / (std::string(name) + ".json"), "ebpi", "--tolerance 2e-4");
        ASSERT_TRUE(frame);
        std::map<std::pair<int, int>, double> volumes;  // the truth's, 0 for separated pairs
        for (const Json& pair : truth["pairs"]) volumes[{pair["a"].get<int>(), pair["b"].get<int>()}] = pair["volume"];
        for (const Json& pair : truth["separated"]) volumes[{pair["a"].get<int>(), pair["b"].get<int>()}] = 0.0;
        std::set<std::pair<int, int>> listed;
        for (const Json& pair : (*frame)["pairs"]) {
            const auto key = std::make_pair(pair["a"].get<int>(), pair["b"].get<int>());
            listed.insert(key);
            ASSERT_TRUE(volumes.count(key)) << name;
            if (pair.value("truncated", false)) {
                EXPECT_FALSE(pair.contains("volume")) << name;
                EXPECT_FALSE((*frame)["warnings"].empty()) << name << ": a truncated pair without a warning";
                continue;
            }
            EXPECT_LE(std::abs(pair["volume"].get<double>() - volumes[key]), pair["volume_error_bound"].get<double>())
                << name;
            EXPECT_LE(pair["volume_error_bound"].get<double>(), tolerance) << name;
        }
        for (const Json& pair : truth["pairs"])
            EXPECT_TRUE(listed.count({pair["a"].get<int>(), pair["b"].get<int>()})) << name << ": overlapping pair missing";
    }
}

// consistent-pairs at 1024^2 on every regression scene: every pair of the truth is found, and no
// pair the truth lists as separated by more than 2 pixels of the fitted view is reported. Before
// the grazing-silhouette rule, pair_1_1 (gears 383 pixels apart), pair_3_1 and both crowds each
// reported such a pair from a few silhouette pixels.
TEST(CliConsistentPairs, TheTruthsPairsAndNoSeparatedOnesAt1024) {
    for (const char* name : {"pair_1_1", "pair_2_0", "pair_3_1", "crowd_0", "crowd_2"}) {
        const std::filesystem::path dir = sharedDir() / "scenes" / "regressions";
        const Json truth = readJson(dir / "truth" / (std::string(name) + ".json"));
        auto frame = detect(dir / (std::string(name) + ".json"), "consistent-pairs", "--resolution 1024");
        ASSERT_TRUE(frame);
        const double pixel = (*frame)["consistent_pairs"]["pixel_size"].get<double>();
        std::set<std::pair<int, int>> found;
        for (const Json& pair : (*frame)["pairs"]) found.insert({pair["a"].get<int>(), pair["b"].get<int>()});
        for (const Json& pair : truth["pairs"])
            EXPECT_TRUE(found.count({pair["a"].get<int>(), pair["b"].get<int>()}))
                << name << ": overlapping pair (" << pair["a"] << ", " << pair["b"] << ") missed";
        for (const Json& pair : truth["separated"]) {
            const double pixels = pair["distance"].get<double>() / pixel;
            if (pixels > 2.0)
                EXPECT_FALSE(found.count({pair["a"].get<int>(), pair["b"].get<int>()}))
                    << name << ": pair (" << pair["a"] << ", " << pair["b"] << ") reported, " << pixels << " pixels apart";
        }
    }
}

// A crowd of 1 cm objects written once near the origin and once around kFarOrigin, where float
// spacing is about a tenth of an object: the same scene moved, so the same exact answer. With
// float transforms `exact` disagreed with a double-precision oracle here.
Json crowdScene(glm::dvec3 origin, uint32_t seed) {
    Json scene;
    const std::string meshes = (sharedDir() / "meshes").string();
    // Scales bring each mesh to about 1 cm (pinion_gear spans ~2.3 units, knot ~6).
    scene["meshes"] = {{"gear", {{"file", meshes + "/pinion_gear.off"}}}, {"knot", {{"file", meshes + "/knot.off"}}}};
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> position(-0.01, 0.01), unit(-1.0, 1.0);
    for (int i = 0; i < 20; ++i) {
        const bool gear = i % 2 == 0;
        glm::dvec4 q(unit(rng), unit(rng), unit(rng), unit(rng));
        q /= glm::length(q);
        scene["objects"].push_back({{"name", "o" + std::to_string(i)},
                                    {"mesh", gear ? "gear" : "knot"},
                                    {"position", {origin.x + position(rng), origin.y + position(rng), origin.z + position(rng)}},
                                    {"rotation", {q.w, q.x, q.y, q.z}},
                                    {"scale", gear ? 0.01 / 2.3 : 0.01 / 6.0}});
    }
    return scene;
}

TEST(CliFarFromOrigin, ExactAndAabbTreeGiveTheSameAnswerAsAtTheOrigin) {
    size_t contacts = 0;
    for (const char* method : {"exact", "aabb-tree"}) {
        PairCounts answers[2];
        for (int far = 0; far < 2; ++far) {
            const auto path = test::scratchDirectory() / (std::string(far ? "far" : "near") + ".json");
            std::ofstream(path) << crowdScene(far ? test::kFarOrigin : glm::dvec3(0.0), 20261124).dump(1);
            auto frame = detect(path, method);
            ASSERT_TRUE(frame);
            answers[far] = pairCounts((*frame)["pairs"]);
            std::filesystem::remove(path);
        }
        EXPECT_EQ(answers[1], answers[0]) << method << ": the crowd moved to (1e4, -5e3, 3e3) answers differently";
        contacts += answers[0].size();
    }
    EXPECT_GT(contacts, 4u) << "the crowd should have contacts";
}

}  // namespace
}  // namespace vkc
