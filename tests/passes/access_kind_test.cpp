// Tests of the access-kind table (passes/graph/access_kind.h): rows the barrier logic depends on.
#include "passes/graph/access_kind.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace vkc {
namespace {

TEST(AccessKind, EveryKindHasAUniqueNameAndAStage) {
    std::set<std::string> names;
    for (uint32_t kind = 0; kind < kAccessKindCount; ++kind) {
        const AccessInfo& info = accessInfo(Access(kind));
        EXPECT_TRUE(names.insert(info.name).second) << info.name;
        EXPECT_NE(info.stages, 0u) << info.name;
        EXPECT_NE(info.access, 0u) << info.name;
        EXPECT_TRUE(info.forBuffers || info.forImages) << info.name;
        // A write kind must carry a write bit, or barriers after it would flush nothing.
        EXPECT_EQ(info.isWrite, writeAccessBits(info.access) != 0) << info.name;
        if (info.forImages) {
            EXPECT_NE(info.layout, VK_IMAGE_LAYOUT_UNDEFINED) << info.name;
        }
    }
}

TEST(AccessKind, RowsMatchVulkanMeaning) {
    EXPECT_EQ(accessInfo(Access::IndirectRead).stages, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
    EXPECT_EQ(accessInfo(Access::IndirectRead).access, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
    EXPECT_EQ(accessInfo(Access::IndirectRead).bufferUsage, VkBufferUsageFlags(VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT));
    EXPECT_EQ(accessInfo(Access::DepthStencilAttachment).layout, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
    EXPECT_EQ(accessInfo(Access::DepthStencilReadOnly).layout, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL);
    EXPECT_FALSE(accessInfo(Access::DepthStencilReadOnly).isWrite);
    EXPECT_EQ(accessInfo(Access::SampledRead).layout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    EXPECT_EQ(accessInfo(Access::TransferDst).layout, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    EXPECT_EQ(accessInfo(Access::HostRead).stages, VK_PIPELINE_STAGE_2_HOST_BIT);
    EXPECT_TRUE(accessInfo(Access::ComputeReadWrite).isWrite);
    EXPECT_TRUE(accessInfo(Access::ComputeReadWrite).readsContents);
    EXPECT_FALSE(accessInfo(Access::ComputeWrite).readsContents);
    EXPECT_FALSE(accessInfo(Access::VertexRead).forImages);
    EXPECT_FALSE(accessInfo(Access::ColorAttachment).forBuffers);
    EXPECT_EQ(std::string(accessName(Access::AccelStructBuild)), "AccelStructBuild");
}

TEST(AccessKind, SyncStateOfCopiesTheRow) {
    SyncState state = syncStateOf(Access::TransferDst);
    EXPECT_EQ(state.stages, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    EXPECT_EQ(state.access, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    EXPECT_EQ(state.layout, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
}

}  // namespace
}  // namespace vkc
