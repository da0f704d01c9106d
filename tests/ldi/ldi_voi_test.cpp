// Tier A (no device): the volume of interest and its outside faces (paper 2, §3.1, Fig. 2).
#include "collision/ldi/ldi_voi.h"

#include <gtest/gtest.h>

namespace vkc {
namespace {

// Each object's near plane must lie on its own box (outside the object): a's at box.min[axis]
// when aFromMin, b's on the opposite face.
void expectOutsideFaces(const LdiVoi& voi, const Aabb& a, const Aabb& b) {
    uint32_t k = voi.axis;
    float aNear = voi.aFromMin ? voi.box.min[k] : voi.box.max[k];
    float bNear = voi.aFromMin ? voi.box.max[k] : voi.box.min[k];
    EXPECT_EQ(aNear, voi.aFromMin ? a.min[k] : a.max[k]);
    EXPECT_EQ(bNear, voi.aFromMin ? b.max[k] : b.min[k]);
    for (uint32_t j = 0; j < 3; ++j) {
        EXPECT_LE(voi.box.min[j], voi.overlap.min[j]);
        EXPECT_GE(voi.box.max[j], voi.overlap.max[j]);
        if (j != k) {  // only the depth axis may be extended: the footprint is the overlap's
            EXPECT_EQ(voi.box.min[j], voi.overlap.min[j]);
            EXPECT_EQ(voi.box.max[j], voi.overlap.max[j]);
        }
    }
}

TEST(LdiVoi, OverlapPicksTheClosestEligibleOppositeFaces) {
    Aabb a{{0, 0, 0}, {4, 4, 4}}, b{{3, 1, 2}, {6, 5, 7}};
    auto voi = computeLdiVoi(a, b);
    ASSERT_TRUE(voi);
    EXPECT_FALSE(voi->extended);
    EXPECT_EQ(voi->overlap.min, glm::vec3(3, 1, 2));
    EXPECT_EQ(voi->overlap.max, glm::vec3(4, 4, 4));
    // Along x the overlap is 1 deep (a ends at 4, b starts at 3): a from max, b from min.
    EXPECT_EQ(voi->axis, 0u);
    EXPECT_FALSE(voi->aFromMin);
    EXPECT_EQ(voi->depthExtent(), 1.0f);
    expectOutsideFaces(*voi, a, b);
    // Swapping the objects mirrors the choice.
    auto swapped = computeLdiVoi(b, a);
    ASSERT_TRUE(swapped);
    EXPECT_EQ(swapped->axis, 0u);
    EXPECT_TRUE(swapped->aFromMin);
    expectOutsideFaces(*swapped, b, a);
}

TEST(LdiVoi, ContainmentExtendsTheOppositeFace) {
    // Fig. 2b: b inside a. No face of the overlap (b's box) lies on a's box, so the face opposite
    // b's outside face moves out to a's box, along the axis where that costs least (y: a spans 0..3).
    Aabb a{{0, 0, 0}, {10, 3, 10}}, b{{4, 1, 4}, {5, 2, 5}};
    auto voi = computeLdiVoi(a, b);
    ASSERT_TRUE(voi);
    EXPECT_TRUE(voi->extended);
    EXPECT_EQ(voi->axis, 1u);
    EXPECT_EQ(voi->overlap.min, b.min);
    EXPECT_EQ(voi->overlap.max, b.max);
    // a from min (0) to b's max (2) is 2 long; b from min (1) to a's max (3) is 2 long too: ties keep
    // the first option found.
    EXPECT_EQ(voi->depthExtent(), 2.0f);
    expectOutsideFaces(*voi, a, b);
}

TEST(LdiVoi, EligibleFacesWinOverAShorterExtension) {
    // Along x, b is inside a (extension needed, 0.5 + 1 deep); along z they overlap 5 deep without
    // extension. The paper looks for eligible faces first.
    Aabb a{{0, 0, 0}, {2, 10, 10}}, b{{0.5f, 1, 5}, {1.5f, 9, 20}};
    auto voi = computeLdiVoi(a, b);
    ASSERT_TRUE(voi);
    EXPECT_FALSE(voi->extended);
    EXPECT_EQ(voi->axis, 2u);
    expectOutsideFaces(*voi, a, b);
}

TEST(LdiVoi, DisjointOrTouchingBoxesHaveNoVolume) {
    Aabb a{{0, 0, 0}, {1, 1, 1}};
    EXPECT_FALSE(computeLdiVoi(a, Aabb{{2, 0, 0}, {3, 1, 1}}));
    EXPECT_FALSE(computeLdiVoi(a, Aabb{{1, 0, 0}, {2, 1, 1}}));  // touching along a face
    EXPECT_FALSE(computeLdiVoi(a, Aabb{{0.5f, 0.5f, NAN}, {2, 2, 2}}));
}

TEST(LdiVoi, IdenticalBoxesAreEligible) {
    Aabb a{{0, 0, 0}, {1, 2, 3}};
    auto voi = computeLdiVoi(a, a);
    ASSERT_TRUE(voi);
    EXPECT_FALSE(voi->extended);
    EXPECT_EQ(voi->axis, 0u);
    expectOutsideFaces(*voi, a, a);
}

}  // namespace
}  // namespace vkc
