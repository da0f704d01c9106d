// The pair selection (passes/shared/pair_selection_passes.h, through the detectors' frame helper
// collision/frames/pair_selection_frame.h) on a device under the validation layer, against the
// rule it implements, computed on the CPU: of the stored candidates (any order) with their
// verdicts, the first maxPairs accepted in (a, b) order, the accepted and open counts and the
// smallest open pair. Lists in random order and in the broadphase's grouped order, a cut inside
// one object's thousands of accepted partners, a list stored past its capacity, and object counts
// whose scans take several blocks.
#include "collision/frames/pair_selection_frame.h"
#include "shaders_glsl/shared/broadphase.h"
#include "tests/support/graph_run.h"
#include "tests/support/pass_test_descriptors.h"
#include "tests/support/vulkan_test.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace vkc {
namespace {

struct SelectionCase {
    std::string name;
    uint32_t objectCount = 0;
    uint32_t maxPairs = 0;
    std::vector<glm::uvec2> pairs;  // stored candidates, a < b, distinct
    std::vector<uint32_t> verdicts;
    uint32_t listedCount = 0;       // the header's count (past the stored pairs: a truncated list)
};

struct Selection {
    gpu::PairSelectionStateGpu state{};
    std::vector<glm::uvec2> pairs;
};

bool pairLess(const glm::uvec2& x, const glm::uvec2& y) { return x.x < y.x || (x.x == y.x && x.y < y.y); }

Selection referenceSelection(const SelectionCase& c) {
    Selection out;
    std::vector<glm::uvec2> accepted, open;
    for (size_t i = 0; i < c.pairs.size(); ++i) {
        if (c.verdicts[i] == gpu::kPairAccepted) accepted.push_back(c.pairs[i]);
        if (c.verdicts[i] == gpu::kPairOpen) open.push_back(c.pairs[i]);
    }
    std::sort(accepted.begin(), accepted.end(), pairLess);
    std::sort(open.begin(), open.end(), pairLess);
    out.state.accepted = uint32_t(accepted.size());
    out.state.open = uint32_t(open.size());
    out.state.firstOpenA = open.empty() ? gpu::kPairSelectNone : open[0].x;
    out.state.firstOpenB = open.empty() ? gpu::kPairSelectNone : open[0].y;
    out.pairs.assign(accepted.begin(), accepted.begin() + std::min<size_t>(accepted.size(), c.maxPairs));
    out.state.selected = uint32_t(out.pairs.size());
    return out;
}

// `count` distinct pairs of `objects` objects, a < b, in random order; verdicts accepted with
// probability `acceptedShare`, open with `openShare`.
SelectionCase randomCase(std::string name, uint32_t objects, uint32_t count, uint32_t maxPairs, double acceptedShare,
                         double openShare, uint32_t seed) {
    SelectionCase c{std::move(name), objects, maxPairs, {}, {}, count};
    std::mt19937 rng(seed);
    std::uniform_int_distribution<uint32_t> object(0, objects - 1);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::set<std::pair<uint32_t, uint32_t>> seen;
    while (c.pairs.size() < count) {
        uint32_t a = object(rng), b = object(rng);
        if (a == b) continue;
        if (a > b) std::swap(a, b);
        if (!seen.insert({a, b}).second) continue;
        c.pairs.push_back({a, b});
        const double u = unit(rng);
        c.verdicts.push_back(u < acceptedShare ? gpu::kPairAccepted
                                               : (u < acceptedShare + openShare ? gpu::kPairOpen : gpu::kPairRejected));
    }
    return c;
}

class PairSelectionTest : public test::VulkanTest {
protected:
    void SetUp() override {
        test::VulkanTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        auto programs = createPairSelectionPrograms(vk());
        ASSERT_TRUE(programs) << programs.status().describe();
        programs_ = programs.value();
        ASSERT_TRUE(descriptors_.create(vk(), kPairSelectionSets, kPairSelectionStorageBuffers, "pair selection test").ok());
        // The helper's own slot creation, with a FrameSlotResources of slot 0.
        const FrameSlotResources make(vk(), 0);
        ASSERT_TRUE(createPairSelectionSlot(make, descriptors_.pool(), programs_, "test", slot_).ok());
    }

    void TearDown() override {
        descriptors_.destroy();
        destroyPairSelectionPrograms(vk(), programs_);
        test::VulkanTest::TearDown();
    }

    Selection selectOnGpu(const SelectionCase& c) {
        const uint32_t stored = uint32_t(c.pairs.size());
        std::vector<uint32_t> list = {c.listedCount, stored, 0u, 0u};
        for (const glm::uvec2& p : c.pairs) list.insert(list.end(), {p.x, p.y});
        const VkDeviceSize stateBytes = sizeof(gpu::PairSelectionStateGpu);
        const VkDeviceSize pairBytes = VkDeviceSize(c.maxPairs) * 8;
        auto output = createBuffer(vk(), BufferDesc{stateBytes + std::max<VkDeviceSize>(pairBytes, 16),
                                                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage{}, "selection"});
        EXPECT_TRUE(output);
        if (!output) return {};
        std::vector<uint8_t> bytes(stateBytes + pairBytes);
        {
            Graph graph;
            const BufferHandle candidates = test::hostInput(graph, "candidates", list.size() * 4);
            PairSelectionInputs in = declarePairSelection(graph, programs_, slot_, "test", candidates, stored,
                                                          c.objectCount, c.maxPairs, 65535);
            in.verdicts = test::hostInput(graph, "verdicts", VkDeviceSize(stored) * 4);
            const PairSelectionOutputs out = addPairSelectionPasses(graph, in);
            const BufferHandle readBack = test::readBackOutput(graph, "selection", output.value());
            PassBuilder copy = graph.addPass("copy out");
            copy.read(out.state, Access::TransferSrc);
            copy.read(out.selected, Access::TransferSrc);
            const BufferHandle written = copy.write(readBack, Access::TransferDst);
            const uint32_t maxPairs = c.maxPairs;
            copy.setRecord([=, state = out.state, selected = out.selected](VkCommandBuffer cmd, const PassResources& r) {
                const VkBufferCopy stateRegion = {r.bufferOffset(state), r.bufferOffset(written), stateBytes};
                r.device().vkCmdCopyBuffer(cmd, r.buffer(state), r.buffer(written), 1, &stateRegion);
                if (pairBytes == 0) return;
                const VkBufferCopy pairRegion = {r.bufferOffset(selected) + pairSelectionSortedOffset(maxPairs),
                                                 r.bufferOffset(written) + stateBytes, pairBytes};
                r.device().vkCmdCopyBuffer(cmd, r.buffer(selected), r.buffer(written), 1, &pairRegion);
            });
            VulkanGraphAllocator allocator(vk());
            const Status compiled = graph.compile(&allocator);
            EXPECT_TRUE(compiled.ok()) << compiled.describe();
            if (!compiled.ok()) return {};
            EXPECT_TRUE(fillHostBuffer(allocator, graph, candidates, std::span<const uint32_t>(list)).ok());
            EXPECT_TRUE(fillHostBuffer(allocator, graph, in.verdicts, std::span<const uint32_t>(c.verdicts)).ok());
            writePairSelectionDescriptors(GraphDescriptors(vk(), graph, descriptors_.placeholder()), slot_, in);
            const Status executed = test::runGraphOnce(vk(), graph, "pair selection test");
            EXPECT_TRUE(executed.ok()) << executed.describe();
            EXPECT_TRUE(readBuffer(vk(), output.value(), bytes.data(), bytes.size()).ok());
        }
        destroyBuffer(vk(), output.value());
        Selection got;
        std::memcpy(&got.state, bytes.data(), stateBytes);
        got.pairs.resize(std::min(got.state.selected, c.maxPairs));
        if (!got.pairs.empty()) std::memcpy(got.pairs.data(), bytes.data() + stateBytes, got.pairs.size() * 8);
        return got;
    }

    void expectSelection(const SelectionCase& c) {
        SCOPED_TRACE(c.name);
        const Selection expected = referenceSelection(c);
        const Selection got = selectOnGpu(c);
        EXPECT_EQ(got.state.accepted, expected.state.accepted);
        EXPECT_EQ(got.state.open, expected.state.open);
        EXPECT_EQ(got.state.firstOpenA, expected.state.firstOpenA);
        EXPECT_EQ(got.state.firstOpenB, expected.state.firstOpenB);
        ASSERT_EQ(got.state.selected, expected.state.selected);
        for (size_t i = 0; i < expected.pairs.size(); ++i)
            ASSERT_EQ(got.pairs[i], expected.pairs[i]) << "selected pair " << i;
    }

    PairSelectionPrograms programs_;
    test::PassTestDescriptors descriptors_;
    PairSelectionSlot slot_;
};

TEST_F(PairSelectionTest, FirstAcceptedPairsInOrder) {
    expectSelection(randomCase("fewer accepted than slots", 40, 60, 64, 0.5, 0.1, 1));
    expectSelection(randomCase("more accepted than slots", 40, 300, 4, 0.6, 0.1, 2));
    expectSelection(randomCase("one slot", 100, 500, 1, 0.3, 0.0, 3));
    expectSelection(randomCase("nothing accepted", 50, 200, 8, 0.0, 0.2, 4));
    expectSelection(randomCase("nothing stored", 10, 0, 4, 0.5, 0.5, 5));
    // Past one scan block of objects (4,096) and of candidates, as the broadphase's lists get.
    expectSelection(randomCase("70,000 objects", 70000, 100000, 1024, 0.7, 0.01, 6));
}

TEST_F(PairSelectionTest, CutInsideOneObjectsPartners) {
    // Object 3 overlaps 5,000 others (a ground plane): the slots run out among its partners, which
    // come in no order, after object 1's and 2's pairs.
    SelectionCase c{"ground plane", 6000, 100, {}, {}, 0};
    for (uint32_t b = 5999; b >= 1000; --b) c.pairs.push_back({3, b});
    for (uint32_t b = 10; b < 50; ++b) c.pairs.push_back({1, b}), c.pairs.push_back({2, b + 100});
    std::mt19937 rng(7);
    std::shuffle(c.pairs.begin(), c.pairs.end(), rng);
    for (size_t i = 0; i < c.pairs.size(); ++i) c.verdicts.push_back(i % 5 == 0 ? gpu::kPairRejected : gpu::kPairAccepted);
    c.listedCount = uint32_t(c.pairs.size());
    expectSelection(c);

    // The broadphase's grouped order (by a, each group in no order), the cut on a group's edge.
    SelectionCase grouped = randomCase("grouped", 300, 2000, 0, 1.0, 0.0, 8);
    std::stable_sort(grouped.pairs.begin(), grouped.pairs.end(), [](auto& x, auto& y) { return x.x < y.x; });
    std::vector<glm::uvec2> sorted = grouped.pairs;
    std::sort(sorted.begin(), sorted.end(), pairLess);
    uint32_t edge = 0;
    while (edge < sorted.size() && sorted[edge].x == sorted[0].x) ++edge;
    grouped.maxPairs = edge;  // exactly the first object's pairs
    expectSelection(grouped);
}

TEST_F(PairSelectionTest, StoredPairsOnlyPastCapacity) {
    // The header counts 5,000 pairs, the list stored 800: the counts are of the stored ones.
    SelectionCase c = randomCase("truncated", 500, 800, 16, 0.5, 0.2, 9);
    c.listedCount = 5000;
    expectSelection(c);
}

}  // namespace
}  // namespace vkc
