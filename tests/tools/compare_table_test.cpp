// Tier A (no device): `vkcollide compare`'s table of one frame, from hand-written method frames
// whose answers are known: a row per pair any method reported, each cell what its method said
// (yes, no, stencil's undecided, truncated), volume errors against the exact volume and whether
// they are within the method's bound, and the printed table marking only plain disagreements.
#include "tools/cli/compare_table.h"
#include "tools/cli/compare_table_text.h"

#include <gtest/gtest.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace vkc::tools {
namespace {

PairResult pair(uint32_t a, uint32_t b, std::optional<double> volume = {}, std::optional<double> bound = {},
                std::optional<uint64_t> trianglePairs = {}, bool truncated = false) {
    PairResult result;
    result.a = a;
    result.b = b;
    result.volume = volume;
    result.volumeErrorBound = bound;
    result.trianglePairs = trianglePairs;
    result.truncated = truncated;
    return result;
}

FrameReport frame(std::vector<PairResult> pairs, nlohmann::json extra = nlohmann::json::object()) {
    FrameReport report;
    report.results.pairs = std::move(pairs);
    report.extra = std::move(extra);
    return report;
}

class CompareTableTest : public ::testing::Test {
protected:
    // The truth: (0, 1) overlapping, (2, 3) one inside the other (no triangle pairs); (4, 5) apart.
    const FrameReport exact = frame({pair(0, 1, 0.125, {}, 18), pair(2, 3, 0.064, {}, 0)});
    const FrameReport stencil =
        frame({pair(0, 1), pair(4, 5)},
              {{"stencil", {{"undecided_pairs", nlohmann::json::array({nlohmann::json::array({2, 3})})}}}});
    const FrameReport ldi = frame({pair(0, 1, 0.13, 0.01), pair(2, 3, 0.07, 0.001)});
    const FrameReport aabbTree = frame({pair(0, 1, {}, {}, 18)});
    const FrameReport ebpi = frame({pair(0, 1, {}, {}, {}, true), pair(2, 3, 0.0641, 0.001)});
    const std::vector<MethodFrame> methods = {
        {"stencil", &stencil}, {"ldi", &ldi}, {"aabb-tree", &aabbTree}, {"ebpi", &ebpi}};
    const std::vector<std::string> names = {"a", "b", "ring", "core", "near", "far"};
};

TEST_F(CompareTableTest, RowsAreThePairsAnyMethodReportedWithEachMethodsAnswer) {
    const CompareTable table = buildCompareTable(exact, methods);
    EXPECT_EQ(table.methods, (std::vector<std::string>{"exact", "stencil", "ldi", "aabb-tree", "ebpi"}));
    ASSERT_EQ(table.rows.size(), 3u);
    std::vector<std::vector<std::string>> found;
    for (const CompareRow& row : table.rows) {
        std::vector<std::string>& answers = found.emplace_back();
        for (const CompareCell& cell : row.cells) answers.push_back(cell.found);
    }
    EXPECT_EQ(found[0], (std::vector<std::string>{"yes", "yes", "yes", "yes", "truncated"}));
    EXPECT_EQ(found[1], (std::vector<std::string>{"yes", "undecided", "yes", "no", "yes"}));
    EXPECT_EQ(found[2], (std::vector<std::string>{"no", "yes", "no", "no", "no"}));
    EXPECT_EQ(table.rows[2].a, 4u);
    EXPECT_EQ(table.rows[2].b, 5u);

    const CompareRow& overlap = table.rows[0];
    EXPECT_FALSE(overlap.cells[0].volumeError) << "the exact volume is the truth, with no error of its own";
    EXPECT_EQ(overlap.cells[0].trianglePairs, 18u);
    EXPECT_NEAR(*overlap.cells[2].volumeError, 0.005, 1e-12);
    EXPECT_TRUE(overlap.cells[2].withinBound());
    EXPECT_EQ(overlap.cells[3].trianglePairs, 18u);
    EXPECT_FALSE(overlap.cells[4].volume) << "a truncated pair has no volume";

    const CompareRow& contained = table.rows[1];
    EXPECT_NEAR(*contained.cells[2].volumeError, 0.006, 1e-12);
    EXPECT_FALSE(contained.cells[2].withinBound()) << "0.006 is past ldi's stated 0.001";
    EXPECT_NEAR(*contained.cells[4].volumeError, 0.0001, 1e-12);
    EXPECT_TRUE(contained.cells[4].withinBound());
}

TEST_F(CompareTableTest, PrintedTableMarksOnlyPlainDisagreements) {
    const CompareTable table = buildCompareTable(exact, methods);
    std::ostringstream out;
    const std::vector<double> wallMs = {1.0, 2.0, 3.0, 4.0, 5.0};
    printCompareTable(out, "frame 0 (1 of 1)", table, names, wallMs);
    std::vector<std::string> lines;
    std::istringstream text(out.str());
    for (std::string line; std::getline(text, line);) lines.push_back(line);
    ASSERT_EQ(lines.size(), 1u + 1u + 3u * 5u + 2u) << out.str();  // title, header, 5 methods per pair, note, times
    EXPECT_EQ(lines[0], "frame 0 (1 of 1)");
    auto rowOf = [&](size_t pairIndex, size_t method) { return lines[2 + 5 * pairIndex + method]; };
    EXPECT_NE(rowOf(0, 0).find("a / b"), std::string::npos) << rowOf(0, 0);
    EXPECT_EQ(rowOf(0, 4).find('*'), std::string::npos) << "truncated is no disagreement: " << rowOf(0, 4);
    EXPECT_EQ(rowOf(1, 1).find('*'), std::string::npos) << "undecided is no disagreement: " << rowOf(1, 1);
    EXPECT_NE(rowOf(1, 2).find(" NO"), std::string::npos) << "outside its bound: " << rowOf(1, 2);
    EXPECT_NE(rowOf(1, 3).find("no *"), std::string::npos) << rowOf(1, 3);
    EXPECT_NE(rowOf(2, 0).find("near / far"), std::string::npos) << rowOf(2, 0);
    EXPECT_NE(rowOf(2, 1).find("yes *"), std::string::npos) << rowOf(2, 1);
    EXPECT_EQ(rowOf(2, 2).find('*'), std::string::npos) << rowOf(2, 2);
    EXPECT_EQ(lines[lines.size() - 2], "  * differs from exact");
    EXPECT_EQ(lines.back(), "  wall ms: exact 1, stencil 2, ldi 3, aabb-tree 4, ebpi 5");
}

TEST_F(CompareTableTest, ReportRowsNameTheObjectsAndKeepOnlyWhatEachMethodGives) {
    const nlohmann::json rows = toJson(buildCompareTable(exact, methods), names);
    ASSERT_EQ(rows.size(), 3u);
    const nlohmann::json& contained = rows[1];
    EXPECT_EQ(contained["objects"], nlohmann::json({"ring", "core"}));
    EXPECT_EQ(contained["methods"]["exact"], nlohmann::json({{"found", "yes"}, {"volume", 0.064}, {"triangle_pairs", 0}}));
    EXPECT_EQ(contained["methods"]["stencil"], nlohmann::json({{"found", "undecided"}}));
    const nlohmann::json& ldi = contained["methods"]["ldi"];
    EXPECT_EQ(ldi["within_bound"], false);
    EXPECT_NEAR(ldi["volume_error"].get<double>(), 0.006, 1e-12);
    EXPECT_EQ(ldi["volume_error_bound"], 0.001);
}

}  // namespace
}  // namespace vkc::tools
