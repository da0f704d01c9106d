// Compute pipelines from embedded SPIR-V (with specialization, push constants, timestamps and
// pipeline statistics), and the reflection check of a PipelineLayoutDesc.
#include "tests/support/reflection_check.h"
#include "tests/support/vulkan_test.h"
#include "vk/buffer.h"
#include "vk/commands.h"
#include "vk/debug.h"
#include "vk/descriptors.h"
#include "vk/pipeline.h"
#include "vk/query_pool.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "spirv/test_double.comp.h"
#include "spirv/test_quad.vert.h"

namespace vkc {
namespace {

const PipelineLayoutDesc kDoubleLayout = {{{0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}}, sizeof(uint32_t)};

class PipelineTest : public test::VulkanTest {};

TEST_F(PipelineTest, ComputeDoublesValuesBetweenATimestampPair) {
    const uint32_t count = 1u << 20;  // enough work for a measurable interval on a CPU device
    SpecConstant multiplier = {0, 2};
    Result<Pipeline> pipeline = createComputePipeline(vk(), kSpirv_test_double_comp, kDoubleLayout, {&multiplier, 1}, "double");
    ASSERT_TRUE(pipeline.ok()) << pipeline.status().describe();
    EXPECT_EQ(pipeline->localSize[0], 64u);  // read from the SPIR-V

    std::vector<float> values(count);
    for (uint32_t i = 0; i < count; ++i) values[i] = float(i % 1000) - 250.0f;
    Result<Buffer> buffer = createBuffer(vk(), {count * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                MemoryUsage::DeviceLocal, "values"});
    ASSERT_TRUE(buffer.ok()) << buffer.status().describe();
    ASSERT_TRUE(uploadBuffer(vk(), buffer.value(), values.data(), count * sizeof(float)).ok());

    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    Result<VkDescriptorPool> pool = createDescriptorPool(vk(), 1, {&size, 1}, "double pool");
    ASSERT_TRUE(pool.ok());
    Result<VkDescriptorSet> set = allocateDescriptorSet(vk(), pool.value(), pipeline->setLayouts[0], "double set");
    ASSERT_TRUE(set.ok());
    writeBufferDescriptor(vk(), set.value(), 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, buffer.value());

    Result<QueryPool> timestamps = createQueryPool(vk(), VK_QUERY_TYPE_TIMESTAMP, 2, "double timestamps");
    ASSERT_TRUE(timestamps.ok()) << timestamps.status().describe();
    Result<QueryPool> statistics = createQueryPool(vk(), VK_QUERY_TYPE_PIPELINE_STATISTICS, 1, "double statistics",
                                                   VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT);
    ASSERT_TRUE(statistics.ok()) << statistics.status().describe();

    Status status = submitAndWait(vk(), [&](VkCommandBuffer cmd) {
        resetQueries(vk(), cmd, timestamps.value());
        resetQueries(vk(), cmd, statistics.value());
        beginLabel(vk(), cmd, "double");
        vk().vkd.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->pipeline);
        vk().vkd.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->layout, 0, 1, &set.value(), 0,
                                         nullptr);
        vk().vkd.vkCmdPushConstants(cmd, pipeline->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(count), &count);
        beginTimestamp(vk(), cmd, timestamps.value(), 0);
        beginStatistics(vk(), cmd, statistics.value(), 0);
        dispatchThreads(vk(), cmd, pipeline.value(), count);
        endQuery(vk(), cmd, statistics.value(), 0);
        endTimestamp(vk(), cmd, timestamps.value(), 0);
        endLabel(vk(), cmd);
    });
    ASSERT_TRUE(status.ok()) << status.describe();

    std::vector<float> out(count);
    ASSERT_TRUE(readBuffer(vk(), buffer.value(), out.data(), count * sizeof(float)).ok());
    uint32_t wrong = 0;
    for (uint32_t i = 0; i < count; ++i) wrong += out[i] != 2.0f * values[i];
    EXPECT_EQ(wrong, 0u);

    uint64_t ticks[2] = {};
    ASSERT_TRUE(readQueries(vk(), timestamps.value(), 0, 2, ticks, QueryWait::Yes).ok());
    double ms = timestampsToMs(vk(), ticks[0], ticks[1]);
    EXPECT_GT(ms, 0.0);
    EXPECT_LT(ms, 60000.0);
    uint64_t invocations = 0;
    ASSERT_TRUE(readQueries(vk(), statistics.value(), 0, 1, {&invocations, 1}, QueryWait::Yes).ok());
    EXPECT_GE(invocations, count);  // whole groups: count rounded up to 64
    EXPECT_LT(invocations, count + 64);

    destroyQueryPool(vk(), statistics.value());
    destroyQueryPool(vk(), timestamps.value());
    destroyDescriptorPool(vk(), pool.value());
    destroyBuffer(vk(), buffer.value());
    destroyPipeline(vk(), pipeline.value());
}

TEST_F(PipelineTest, GarbageSpirvIsAnErrorNamingThePipeline) {
    const uint32_t garbage[] = {1, 2, 3, 4, 5, 6};
    Result<Pipeline> pipeline = createComputePipeline(vk(), garbage, kDoubleLayout, {}, "broken");
    ASSERT_FALSE(pipeline.ok());
    EXPECT_NE(pipeline.status().message.find("broken"), std::string::npos) << pipeline.status().message;
}

TEST(ReflectionCheckTest, MatchingLayoutPasses) {
    Status status = test::checkPipelineLayout(kSpirv_test_double_comp, kDoubleLayout, "test_double.comp");
    EXPECT_TRUE(status.ok()) << status.describe();
    PipelineLayoutDesc quad = {{}, 20};  // vec4 rect + float depth
    status = test::checkPipelineLayout(kSpirv_test_quad_vert, quad, "test_quad.vert");
    EXPECT_TRUE(status.ok()) << status.describe();
}

TEST(ReflectionCheckTest, CatchesWrongTypeMissingBindingAndPushSize) {
    PipelineLayoutDesc wrongType = {{{0, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1}}, sizeof(uint32_t)};
    Status status = test::checkPipelineLayout(kSpirv_test_double_comp, wrongType, "test_double.comp");
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.message.find("set 0 binding 0"), std::string::npos) << status.message;
    EXPECT_NE(status.message.find("storage buffer"), std::string::npos) << status.message;
    EXPECT_NE(status.message.find("uniform buffer"), std::string::npos) << status.message;

    PipelineLayoutDesc wrongBinding = {{{0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}}, sizeof(uint32_t)};
    status = test::checkPipelineLayout(kSpirv_test_double_comp, wrongBinding, "test_double.comp");
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.message.find("no such binding"), std::string::npos) << status.message;

    PipelineLayoutDesc wrongPush = {{{0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}}, 16};
    status = test::checkPipelineLayout(kSpirv_test_double_comp, wrongPush, "test_double.comp");
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.message.find("push constants"), std::string::npos) << status.message;
    EXPECT_NE(status.message.find("4 bytes"), std::string::npos) << status.message;
}

}  // namespace
}  // namespace vkc
