// selfIntersectingTrianglePairs against the counts in ../shared/meshes/README.md.
#include "collision/reference/self_intersections.h"

#include "tests/reference/test_mesh_loader.h"
#include "tests/reference/test_shapes.h"

#include <gtest/gtest.h>

namespace vkc::reference {
namespace {

TEST(SelfIntersections, ReadmeCounts) {
    std::optional<MeshData> bad = test::loadMeshForTest(test::sharedMeshDir() + "open-or-broken/self_intersectA.obj");
    ASSERT_TRUE(bad);
    Result<size_t> n = selfIntersectingTrianglePairs(*bad);
    ASSERT_TRUE(n.ok()) << n.status().describe();
    EXPECT_EQ(*n, 338u);  // README: closed, 338 self-intersecting triangle pairs

    std::optional<MeshData> knot = test::loadMeshForTest(test::sharedMeshDir() + "knot.off");
    ASSERT_TRUE(knot);
    EXPECT_EQ(*selfIntersectingTrianglePairs(*knot), 0u);
    EXPECT_EQ(*selfIntersectingTrianglePairs(test::makeUnitCube()), 0u);
}

TEST(SelfIntersections, OpenMeshIsAnError) {
    MeshData open = test::makeUnitCube("open cube");
    open.indices.resize(open.indices.size() - 3);
    Result<size_t> n = selfIntersectingTrianglePairs(open);
    ASSERT_FALSE(n.ok());
    EXPECT_EQ(n.status().code, ErrorCode::InvalidMesh);
}

}  // namespace
}  // namespace vkc::reference
