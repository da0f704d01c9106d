// The GPU radix sort (passes/shared/radix_sort_passes.h) on a device under the validation layer,
// against std::stable_sort: keys with many equal values (the order of equal keys kept, which the
// values show), counts on and off the 1024-key blocks and past one scan block of histogram, keys
// of 32 bits and of 30.
#include "collision/frames/vulkan_graph.h"
#include "passes/shared/radix_sort_passes.h"
#include "tests/support/graph_run.h"
#include "tests/support/pass_test_descriptors.h"
#include "tests/support/vulkan_test.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

namespace vkc {
namespace {

class RadixSortTest : public test::VulkanTest {
protected:
    void SetUp() override {
        test::VulkanTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        auto pipelines = createRadixSortPipelines(vk());
        ASSERT_TRUE(pipelines) << pipelines.status().describe();
        pipelines_ = pipelines.value();
        ASSERT_TRUE(descriptors_.create(vk(), 3, 8, "radix sort test").ok());
        for (VkDescriptorSet* set : {&forward_, &backward_}) {
            auto made = descriptors_.allocate(pipelines_.scatter.setLayouts[0], "radix sort test set");
            ASSERT_TRUE(made);
            *set = made.value();
        }
        auto scan = descriptors_.allocate(pipelines_.scan.apply.setLayouts[0], "radix sort test scan set");
        ASSERT_TRUE(scan);
        histogramScan_ = scan.value();
    }

    void TearDown() override {
        descriptors_.destroy();
        destroyRadixSortPipelines(vk(), pipelines_);
        test::VulkanTest::TearDown();
    }

    // Sorts keys of `keyBits` bits (values: their input positions) on the GPU; the keys then the
    // values, as the sort leaves them.
    std::vector<uint32_t> sortOnGpu(const std::vector<uint32_t>& keys, uint32_t keyBits) {
        const uint32_t count = uint32_t(keys.size());
        std::vector<uint32_t> input(keys);
        for (uint32_t i = 0; i < count; ++i) input.push_back(i);
        auto output = createBuffer(vk(), BufferDesc{radixSortBufferBytes(count), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                    MemoryUsage{}, "sorted"});
        EXPECT_TRUE(output);
        if (!output) return {};
        std::vector<uint32_t> sorted(2 * count);
        {
            Graph graph;
            RadixSortInputs in;
            in.pipelines = &pipelines_;
            in.keysToScratch = forward_;
            in.scratchToKeys = backward_;
            in.histogramScan = histogramScan_;
            in.count = count;
            in.keyBits = keyBits;
            in.keys = test::hostInput(graph, "keys", radixSortBufferBytes(count));
            in.scratch = graph.createBuffer("scratch", GraphBufferDesc{radixSortBufferBytes(count)});
            in.histogram = graph.createBuffer("histogram", GraphBufferDesc{radixSortHistogramBytes(count)});
            in.histogramBlockSums =
                graph.createBuffer("histogram block sums", GraphBufferDesc{radixSortHistogramBlockSumsBytes(count)});
            in.label = "test-sort";
            const BufferHandle result = addRadixSortPasses(graph, in);
            const BufferHandle readBack = test::readBackOutput(graph, "sorted", output.value());
            PassBuilder copy = graph.addPass("copy out");
            copy.read(result, Access::TransferSrc);
            const BufferHandle written = copy.write(readBack, Access::TransferDst);
            copy.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
                const VkBufferCopy region = {r.bufferOffset(result), r.bufferOffset(written), radixSortBufferBytes(count)};
                r.device().vkCmdCopyBuffer(cmd, r.buffer(result), r.buffer(written), 1, &region);
            });
            VulkanGraphAllocator allocator(vk());
            const Status compiled = graph.compile(&allocator);
            EXPECT_TRUE(compiled.ok()) << compiled.describe();
            if (!compiled.ok()) return {};
            EXPECT_TRUE(fillHostBuffer(allocator, graph, in.keys, std::span<const uint32_t>(input)).ok());
            GraphDescriptors descriptors(vk(), graph, descriptors_.placeholder());
            for (const auto& [set, from, to] : {std::tuple{forward_, in.keys, in.scratch}, std::tuple{backward_, in.scratch, in.keys}}) {
                descriptors.storageBuffer(set, gpu::kRadixBindingSource, from);
                descriptors.storageBuffer(set, gpu::kRadixBindingDestination, to);
                descriptors.storageBuffer(set, gpu::kRadixBindingHistogram, in.histogram);
            }
            descriptors.storageBuffer(histogramScan_, gpu::kScanBindingData, in.histogram);
            descriptors.storageBuffer(histogramScan_, gpu::kScanBindingBlockSums, in.histogramBlockSums);
            const Status executed = test::runGraphOnce(vk(), graph, "radix sort test");
            EXPECT_TRUE(executed.ok()) << executed.describe();
            EXPECT_TRUE(readBuffer(vk(), output.value(), sorted.data(), sorted.size() * 4).ok());
        }
        destroyBuffer(vk(), output.value());
        return sorted;
    }

    RadixSortPipelines pipelines_;
    test::PassTestDescriptors descriptors_;
    VkDescriptorSet forward_ = VK_NULL_HANDLE, backward_ = VK_NULL_HANDLE, histogramScan_ = VK_NULL_HANDLE;
};

TEST_F(RadixSortTest, SortsLikeAStableSortOfTheKeysLowBits) {
    std::mt19937 rng(5);
    // 70,000 keys: a histogram of 69 blocks' digits, which the scan spreads over several workgroups.
    for (uint32_t count : {1u, 2u, 255u, 1023u, 1024u, 1025u, 5000u, 70000u}) {
        for (uint32_t keyBits : {30u, 32u}) {
            // Few distinct keys (many equal) of keyBits bits, spread over the high ones too.
            const uint32_t mask = keyBits == 32 ? ~0u : (1u << keyBits) - 1;
            std::uniform_int_distribution<uint32_t> pick(0, 40);
            std::vector<uint32_t> keys(count);
            for (uint32_t& k : keys) k = (pick(rng) * 0x9ab3c5e7u) & mask;
            const std::vector<uint32_t> sorted = sortOnGpu(keys, keyBits);
            ASSERT_EQ(sorted.size(), 2u * count);
            std::vector<uint32_t> order(count);
            std::iota(order.begin(), order.end(), 0u);
            std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
            for (uint32_t i = 0; i < count; ++i) {
                ASSERT_EQ(sorted[count + i], order[i]) << count << " keys, " << keyBits << " bits, position " << i;
                ASSERT_EQ(sorted[i], keys[order[i]]) << count << " keys, position " << i;
            }
        }
    }
}

}  // namespace
}  // namespace vkc
