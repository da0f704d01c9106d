// Tier A: a frame whose AABB trees do not fit one storage-buffer binding is refused with the bytes
// it needs and the largest mesh named (on lavapipe a binding reaches 128 MiB: about 4 million
// nodes or 8 million leaves, one leaf per triangle), and one that fits is accepted up to the last
// byte.
#include "collision/aabb_tree/aabb_traversal_frame.h"

#include <gtest/gtest.h>

namespace vkc {
namespace {

const std::vector<AabbTreeFootprint> kTrees = {{"small", 100, 50, 25}, {"large", 1000, 500, 250}};
constexpr VkDeviceSize kNodeBytes = (50 + 500) * sizeof(gpu::AabbNodeGpu);
constexpr VkDeviceSize kLeafBytes = (25 + 250) * sizeof(glm::uvec4);

TEST(AabbTreeBindings, TreesUpToTheLimitAreAccepted) {
    EXPECT_TRUE(aabbTreesFitBindings("aabb-tree", kTrees, std::max(kNodeBytes, kLeafBytes)).ok());
}

TEST(AabbTreeBindings, NodesPastTheLimitAreRefusedWithTheBytesAndTheLargestMesh) {
    const Status refused = aabbTreesFitBindings("aabb-tree", kTrees, kNodeBytes - 1);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.code, ErrorCode::Unsupported);
    const std::string message = refused.describe();
    EXPECT_NE(message.find(std::to_string(kNodeBytes) + " bytes of nodes"), std::string::npos) << message;
    EXPECT_NE(message.find("mesh \"large\", 1000 triangles"), std::string::npos) << message;
    EXPECT_NE(message.find(std::to_string(kNodeBytes - 1) + " bytes one storage-buffer binding"), std::string::npos)
        << message;
}

TEST(AabbTreeBindings, LeavesPastTheLimitAreRefusedToo) {
    const std::vector<AabbTreeFootprint> leafy = {{"leafy", 4000, 2, 4000}};
    const Status refused = aabbTreesFitBindings("ebpi", leafy, 4000 * sizeof(glm::uvec4) - 1);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.describe().find("ebpi: the AABB trees"), std::string::npos) << refused.describe();
    EXPECT_NE(refused.describe().find("bytes of leaves"), std::string::npos) << refused.describe();
}

}  // namespace
}  // namespace vkc
