// world_mesh: double-precision placement, validation and winding under mirroring.
#include "collision/reference/world_mesh.h"

#include "tests/reference/test_shapes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace vkc::reference {
namespace {

using test::makeUnitCube;
using test::translation;

TEST(WorldMesh, TransformsInDoubleExactlyForDyadicInputs) {
    Result<WorldMesh> w = toWorld(makeUnitCube(), translation(0.5f, 0.5f, 0.5f));
    ASSERT_TRUE(w.ok()) << w.status().describe();
    ASSERT_EQ(w->positions.size(), 8u);
    EXPECT_EQ(w->positions[0], glm::dvec3(0.5, 0.5, 0.5));
    EXPECT_EQ(w->positions[7], glm::dvec3(1.5, 1.5, 1.5));
    EXPECT_FALSE(w->windingFlipped);
}

TEST(WorldMesh, UsesFloatEntriesPromotedToDouble) {
    // 0.1f promoted to double is 0.100000001490116..., not 0.1: the documented contract.
    Result<WorldMesh> w = toWorld(makeUnitCube(), translation(0.1f, 0.0f, 0.0f));
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w->positions[0].x, static_cast<double>(0.1f));
    EXPECT_EQ(w->positions[1].x, 1.0 + static_cast<double>(0.1f));  // exact in double, not in float
}

TEST(WorldMesh, MirroringTransformRewindsTriangles) {
    const MeshData cube = makeUnitCube();
    Result<WorldMesh> w = toWorld(cube, glm::scale(glm::mat4(1.0f), glm::vec3(-1, 1, 1)));
    ASSERT_TRUE(w.ok());
    EXPECT_TRUE(w->windingFlipped);
    EXPECT_EQ(w->indices[1], cube.indices[2]);
    EXPECT_EQ(w->indices[2], cube.indices[1]);
}

TEST(WorldMesh, RejectsBadInputNamingTheMesh) {
    MeshData bad = makeUnitCube("broken");
    bad.indices[5] = 99;
    Result<WorldMesh> w = toWorld(bad, glm::mat4(1.0f));
    ASSERT_FALSE(w.ok());
    EXPECT_EQ(w.status().code, ErrorCode::InvalidMesh);
    EXPECT_NE(w.status().message.find("broken"), std::string::npos);

    MeshData nan = makeUnitCube("nan");
    nan.positions[3].y = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(toWorld(nan, glm::mat4(1.0f)).status().code, ErrorCode::InvalidMesh);

    MeshData partial = makeUnitCube("partial");
    partial.indices.pop_back();
    EXPECT_EQ(toWorld(partial, glm::mat4(1.0f)).status().code, ErrorCode::InvalidMesh);

    EXPECT_EQ(toWorld(makeUnitCube(), glm::mat4(0.0f)).status().code, ErrorCode::InvalidArgument);
}

TEST(WorldMesh, BoundsOverlapIsClosed) {
    WorldBounds a{{0, 0, 0}, {1, 1, 1}};
    WorldBounds touching{{1, 0, 0}, {2, 1, 1}};
    WorldBounds apart{{1.0000001, 0, 0}, {2, 1, 1}};
    EXPECT_TRUE(a.overlaps(touching));
    EXPECT_FALSE(a.overlaps(apart));
    EXPECT_FALSE(a.overlaps(WorldBounds{}));
}

}  // namespace
}  // namespace vkc::reference
