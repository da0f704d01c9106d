// Every GPU detector on the same scene at unit scale near the origin, scaled from millimetres to
// kilometres, and moved to kFarOrigin (1e4 from the origin, where float spacing is a millimetre): the answers must be the oracle's each time. Four pairs of spheres, two
// overlapping by a fifth of their diameter and two a third of a diameter apart, so every image-space
// method's pixel bound is far from deciding (about 8 pixels either way at its default resolution).
// GPU passes work in coordinates rebased on the centre of the scene's objects (candidateOrigin) and
// aabb-tree on each pair's relative transform in double; with world coordinates in float the far
// scenes lost their shape.
#include "collision/scene/generated_solids.h"
#include "collision/reference/intersection_volume.h"
#include "collision/reference/triangle_pairs.h"
#include "tests/support/test_geometry.h"
#include "tests/support/vulkan_test.h"
#include "vkcollide/aabb_tree.h"
#include "vkcollide/consistent_pairs.h"
#include "vkcollide/ldi.h"
#include "vkcollide/scene.h"
#include "vkcollide/stencil.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <utility>

namespace vkc {
namespace {

using PairSet = std::set<std::pair<uint32_t, uint32_t>>;

// Unit-scale poses: cluster k at (3k, 0, 0), its second sphere along a random direction at centre
// distance 0.8 (k even: overlapping) or 1.3 (k odd: apart). Radius 0.5.
std::vector<glm::mat4> unitPoses() {
    std::mt19937 rng(424242);
    std::normal_distribution<float> normal;
    std::vector<glm::mat4> poses;
    for (int k = 0; k < 4; ++k) {
        const glm::vec3 centre(3.0f * k, 0.0f, 0.0f);
        const glm::vec3 direction = glm::normalize(glm::vec3(normal(rng), normal(rng), normal(rng)));
        const float distance = k % 2 == 0 ? 0.8f : 1.3f;
        poses.push_back(test::randomRigid(rng, 0.0f));
        poses.back()[3] = glm::vec4(centre, 1.0f);
        poses.push_back(test::randomRigid(rng, 0.0f));
        poses.back()[3] = glm::vec4(centre + distance * direction, 1.0f);
    }
    return poses;
}

const PairSet kOverlapping = {{0, 1}, {4, 5}};

template <class Detector>
class ScaledFarDetector : public test::VulkanTest {
protected:
    // The detector's answer on the scene scaled by `scale` and moved by `origin`; checks volumes
    // and triangle-pair counts against the oracle where the method gives them.
    PairSet detect(double scale, glm::dvec3 origin) {
        auto scene = Scene::create(context_, kVolumeMethodRequirements);
        EXPECT_TRUE(scene);
        const MeshData sphere = solids::sphere(0.5f, 3);
        auto mesh = scene->addMesh({"sphere", &sphere});
        EXPECT_TRUE(mesh) << mesh.status().describe();
        for (const glm::mat4& pose : unitPoses())
            EXPECT_TRUE(scene->addObject(mesh.value(), test::scaledAndMoved(pose, scale, origin)));
        auto detector = Detector::create(context_);
        EXPECT_TRUE(detector) << detector.status().describe();
        auto results = detector->run(scene.value());
        EXPECT_TRUE(results) << results.status().describe();
        PairSet found;
        if (!results) return found;
        for (const PairResult& pair : results->pairs) {
            found.insert({pair.a, pair.b});
            if (pair.trianglePairs) {  // aabb-tree: the exact count of intersecting triangle pairs
                auto exact = reference::intersectingTrianglePairs(sphere, scene->transform(pair.a), sphere,
                                                                  scene->transform(pair.b));
                EXPECT_TRUE(exact) << exact.status().describe();
                if (exact)
                    EXPECT_EQ(*pair.trianglePairs, exact->pairs.size())
                        << "pair (" << pair.a << ", " << pair.b << ") at scale " << scale;
            }
            if (!pair.volume) continue;
            auto exact = reference::intersectionVolume(sphere, scene->transform(pair.a), sphere, scene->transform(pair.b));
            EXPECT_TRUE(exact) << exact.status().describe();
            if (!exact) continue;
            EXPECT_LE(std::abs(*pair.volume - exact.value()), pair.volumeErrorBound.value_or(0.0))
                << "pair (" << pair.a << ", " << pair.b << ") at scale " << scale;
            // The method's real accuracy on this lens, far tighter than its bound.
            EXPECT_LE(std::abs(*pair.volume - exact.value()), 1e-3 * exact.value())
                << "pair (" << pair.a << ", " << pair.b << ") at scale " << scale;
        }
        return found;
    }
};

// ldi GPU-driven: run(scene) with the drawn-triangle bound sets the pairs, VoIs and views up on the
// GPU from the broadphase's boxes (ldi_pair_setup.comp).
struct LdiGpuDriven {
    static Result<LdiDetector> create(Context& context) {
        LdiSettings settings;
        settings.errorBound = LdiErrorBound::DrawnTriangles;
        return LdiDetector::create(context, settings);
    }
};

using ScaledFarDetectors = ::testing::Types<StencilDetector, ConsistentPairsDetector, LdiDetector, LdiGpuDriven, AabbTreeDetector>;
TYPED_TEST_SUITE(ScaledFarDetector, ScaledFarDetectors);

TYPED_TEST(ScaledFarDetector, FindsTheOraclesPairsAtAnyScaleAndDistance) {
    struct Placement { double scale; glm::dvec3 origin; };
    // The last three at the limits of vkcollide/scene.h: 1 mm spheres 1.9 times as far as
    // kFarOrigin (just inside kMinObjectSizeToDistance), the smallest scale, and the largest scale
    // with the farthest sphere near the largest translation.
    for (Placement at : {Placement{1.0, glm::dvec3(0.0)}, Placement{1e-3, test::kFarOrigin},
                         Placement{1e-2, test::kFarOrigin}, Placement{50.0, test::kFarOrigin},
                         Placement{1e3, glm::dvec3(0.0)}, Placement{1e-3, 1.9 * test::kFarOrigin},
                         Placement{kMinObjectScale, glm::dvec3(10.0, -5.0, 3.0)},
                         Placement{kMaxObjectScale, glm::dvec3(kMaxObjectTranslation - 2e7, -5e7, 3e7)}}) {
        EXPECT_EQ(this->detect(at.scale, at.origin), kOverlapping)
            << "scale " << at.scale << " at (" << at.origin.x << ", " << at.origin.y << ", " << at.origin.z << ")";
    }
}

}  // namespace
}  // namespace vkc
