// submitAndWait keeps its command buffers for the next call instead of freeing them: freeing one
// the moment its fence signals races in Debian 12's validation layer (vk/commands.cpp), and a
// nested call (one made while another records) must still get a command buffer of its own.
#include "tests/support/vulkan_test.h"
#include "vk/commands.h"
#include "vk/debug.h"

#include <gtest/gtest.h>

#include <vector>

namespace vkc {
namespace {

class SubmitAndWaitTest : public test::VulkanTest {};

TEST_F(SubmitAndWaitTest, ReusesOneCommandBufferAndGivesANestedCallAnother) {
    VkCommandBuffer first = VK_NULL_HANDLE, outer = VK_NULL_HANDLE, inner = VK_NULL_HANDLE;
    ASSERT_TRUE(submitAndWait(vk(), [&](VkCommandBuffer cmd) { first = cmd; }).ok());
    EXPECT_EQ(vk().idleOneShotCommandBuffers, std::vector<VkCommandBuffer>{first});
    Status nested = makeError(ErrorCode::InvalidArgument, "the nested call did not run");
    ASSERT_TRUE(submitAndWait(vk(), [&](VkCommandBuffer cmd) {
                    outer = cmd;
                    nested = submitAndWait(vk(), [&](VkCommandBuffer innerCmd) { inner = innerCmd; });
                }).ok());
    ASSERT_TRUE(nested.ok()) << nested.describe();
    EXPECT_EQ(outer, first);
    EXPECT_NE(inner, VK_NULL_HANDLE);
    EXPECT_NE(inner, outer);
    // Both kept, not freed: the next two calls, one nested in the other, record into them again.
    EXPECT_EQ(vk().idleOneShotCommandBuffers.size(), 2u);
    VkCommandBuffer again = VK_NULL_HANDLE, againInner = VK_NULL_HANDLE;
    ASSERT_TRUE(submitAndWait(vk(), [&](VkCommandBuffer cmd) {
                    again = cmd;
                    nested = submitAndWait(vk(), [&](VkCommandBuffer innerCmd) { againInner = innerCmd; });
                }).ok());
    ASSERT_TRUE(nested.ok()) << nested.describe();
    EXPECT_TRUE((again == outer && againInner == inner) || (again == inner && againInner == outer));
}

// Labelled one-shot submissions back to back, as a detector's run() makes them every frame: the
// pattern that, with a command buffer freed per call, let the layer's queue thread erase the labels
// of the next command buffer while it recorded them. Validation-clean, and always the same buffer.
TEST_F(SubmitAndWaitTest, LabelledSubmissionsBackToBackRecordIntoTheSameBuffer) {
    VkCommandBuffer first = VK_NULL_HANDLE;
    for (int call = 0; call < 200; ++call) {
        VkCommandBuffer used = VK_NULL_HANDLE;
        ASSERT_TRUE(submitAndWait(vk(), [&](VkCommandBuffer cmd) {
                        used = cmd;
                        for (const char* pass : {"first pass", "second pass", "third pass"}) {
                            beginLabel(vk(), cmd, pass);
                            endLabel(vk(), cmd);
                        }
                    }).ok());
        if (call == 0) first = used;
        ASSERT_EQ(used, first) << "call " << call;
        ASSERT_EQ(vk().idleOneShotCommandBuffers, std::vector<VkCommandBuffer>{first}) << "call " << call;
    }
}

}  // namespace
}  // namespace vkc
