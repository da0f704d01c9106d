// Tier A (no device): self-collision from the order of front and back faces along each LDI ray
// (the paper's §7 idea): clean closed solids never break the front/back alternation; the shared
// closed-but-self-intersecting mesh does, in every view axis.
#include "collision/reference/ldi_cpu.h"
#include "tests/ldi/ldi_test_support.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace vkc {
namespace {

uint32_t invalidPixels(const MeshData& mesh, const glm::mat4& transform, uint32_t axis, uint32_t resolution) {
    Aabb box = placedMeshBounds(mesh, transform);
    auto voi = computeLdiVoi(box, box);
    EXPECT_TRUE(voi);
    if (!voi) return 0;
    voi->axis = axis;  // any axis: the object's own box is eligible from both sides
    uint32_t total = 0;
    for (bool forA : {true, false}) total += buildCpuLdi(mesh, transform, *voi, forA, resolution).invalidOrderPixels();
    return total;
}

TEST(LdiSelfCollision, CleanSolidsKeepTheFrontBackOrder) {
    const glm::mat4 turn = glm::rotate(glm::mat4(1.0f), 0.9f, glm::vec3(1, 2, 0.5f));
    for (const char* file : {"sphere_ico4.stl", "torus.stl", "knot.off", "bunny_60k.obj", "pinion_gear.off"}) {
        auto mesh = ldi_test::sharedMesh(file);
        VKC_REQUIRE_SHARED_MESH(mesh);
        for (uint32_t axis = 0; axis < 3; ++axis) EXPECT_EQ(invalidPixels(*mesh, turn, axis, 256), 0u) << file << " axis " << axis;
    }
}

TEST(LdiSelfCollision, SelfIntersectingMeshBreaksTheOrder) {
    auto mesh = ldi_test::sharedMesh("open-or-broken/self_intersectA.obj");
    VKC_REQUIRE_SHARED_MESH(mesh);
    for (uint32_t axis = 0; axis < 3; ++axis) {
        uint32_t invalid = invalidPixels(*mesh, glm::mat4(1.0f), axis, 256);
        std::printf("self_intersectA axis %u: %u of 2 x 65536 pixels with an invalid front/back order\n", axis, invalid);
        EXPECT_GT(invalid, 0u) << "axis " << axis;
    }
}

}  // namespace
}  // namespace vkc
