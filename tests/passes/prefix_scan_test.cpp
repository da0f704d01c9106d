// The GPU prefix scan (passes/shared/prefix_scan_passes.h) on a device under the validation layer,
// against std::exclusive_scan: counts within one block, on and off the 4,096-value blocks, and
// past 256 blocks (where each thread of the block-sums step takes several), with sums that wrap
// past 2^32 as uints do.
#include "collision/frames/vulkan_graph.h"
#include "passes/shared/prefix_scan_passes.h"
#include "tests/support/graph_run.h"
#include "tests/support/pass_test_descriptors.h"
#include "tests/support/vulkan_test.h"

#include <gtest/gtest.h>

#include <numeric>
#include <random>

namespace vkc {
namespace {

class PrefixScanTest : public test::VulkanTest {
protected:
    void SetUp() override {
        test::VulkanTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        auto pipelines = createPrefixScanPipelines(vk());
        ASSERT_TRUE(pipelines) << pipelines.status().describe();
        pipelines_ = pipelines.value();
        ASSERT_TRUE(descriptors_.create(vk(), 1, 2, "prefix scan test").ok());
        auto made = descriptors_.allocate(pipelines_.apply.setLayouts[0], "prefix scan test set");
        ASSERT_TRUE(made);
        set_ = made.value();
    }

    void TearDown() override {
        descriptors_.destroy();
        destroyPrefixScanPipelines(vk(), pipelines_);
        test::VulkanTest::TearDown();
    }

    std::vector<uint32_t> scanOnGpu(const std::vector<uint32_t>& values) {
        const uint32_t count = uint32_t(values.size());
        const VkDeviceSize bytes = std::max<VkDeviceSize>(16, VkDeviceSize(count) * 4);
        auto output = createBuffer(vk(), BufferDesc{bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage{}, "scanned"});
        EXPECT_TRUE(output);
        if (!output) return {};
        std::vector<uint32_t> scanned(count);
        {
            Graph graph;
            PrefixScanInputs in;
            in.pipelines = &pipelines_;
            in.set = set_;
            in.count = count;
            in.data = test::hostInput(graph, "values", bytes);
            in.blockSums = graph.createBuffer("block sums", GraphBufferDesc{prefixScanBlockSumsBytes(count)});
            in.label = "test-scan";
            const BufferHandle result = addPrefixScanPasses(graph, in).data;
            const BufferHandle readBack = test::readBackOutput(graph, "scanned", output.value());
            PassBuilder copy = graph.addPass("copy out");
            copy.read(result, Access::TransferSrc);
            const BufferHandle written = copy.write(readBack, Access::TransferDst);
            copy.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
                const VkBufferCopy region = {r.bufferOffset(result), r.bufferOffset(written), bytes};
                r.device().vkCmdCopyBuffer(cmd, r.buffer(result), r.buffer(written), 1, &region);
            });
            VulkanGraphAllocator allocator(vk());
            const Status compiled = graph.compile(&allocator);
            EXPECT_TRUE(compiled.ok()) << compiled.describe();
            if (!compiled.ok()) return {};
            EXPECT_TRUE(fillHostBuffer(allocator, graph, in.data, std::span<const uint32_t>(values)).ok());
            GraphDescriptors descriptors(vk(), graph, descriptors_.placeholder());
            descriptors.storageBuffer(set_, gpu::kScanBindingData, in.data);
            descriptors.storageBuffer(set_, gpu::kScanBindingBlockSums, in.blockSums);
            const Status executed = test::runGraphOnce(vk(), graph, "prefix scan test");
            EXPECT_TRUE(executed.ok()) << executed.describe();
            EXPECT_TRUE(readBuffer(vk(), output.value(), scanned.data(), size_t(count) * 4).ok());
        }
        destroyBuffer(vk(), output.value());
        return scanned;
    }

    PrefixScanPipelines pipelines_;
    test::PassTestDescriptors descriptors_;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
};

TEST_F(PrefixScanTest, ScansLikeStdExclusiveScan) {
    std::mt19937 rng(11);
    const uint32_t block = gpu::kScanBlockSize;
    for (uint32_t count : {1u, 17u, block - 1, block, block + 1, 3 * block + 17, 300 * block + 5}) {
        // Small values mostly, and now and then a large one, so the running sums wrap.
        std::uniform_int_distribution<uint32_t> small(0, 9), large(0, 1u << 24);
        std::vector<uint32_t> values(count);
        for (uint32_t& v : values) v = rng() % 64 == 0 ? large(rng) : small(rng);
        std::vector<uint32_t> expected(count);
        std::exclusive_scan(values.begin(), values.end(), expected.begin(), 0u);
        const std::vector<uint32_t> scanned = scanOnGpu(values);
        ASSERT_EQ(scanned.size(), size_t(count));
        for (uint32_t i = 0; i < count; ++i) ASSERT_EQ(scanned[i], expected[i]) << count << " values, position " << i;
    }
}

}  // namespace
}  // namespace vkc
