// Helpers of the consistent-pairs tests: the method-scene fixture (tests/support/method_scenes.h)
// with a detector at a test resolution run once, the pair check against the exact oracle, the
// collision point checks (both surfaces within the threshold, normals of the nearest triangles),
// and the hollow solid of the paper's hard cases.
#pragma once

#include "collision/scene/generated_solids.h"
#include "tests/support/detector_contract.h"
#include "tests/support/method_scenes.h"
#include "vkcollide/consistent_pairs.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>
#include <vector>

namespace vkc::consistent_pairs_test {

using test::sharedMesh;

// A box of outer size `outer` with a box-shaped cavity of size `inner` (both centred): two closed
// components, the cavity's faces wound to face into the cavity (outward from the solid material).
inline MeshData hollowBox(glm::vec3 outer, glm::vec3 inner) {
    MeshData shell = solids::box(outer);
    MeshData cavity = solids::box(inner);
    const uint32_t base = uint32_t(shell.positions.size());
    shell.positions.insert(shell.positions.end(), cavity.positions.begin(), cavity.positions.end());
    for (size_t t = 0; t < cavity.indices.size(); t += 3) {
        shell.indices.push_back(base + cavity.indices[t]);
        shell.indices.push_back(base + cavity.indices[t + 2]);
        shell.indices.push_back(base + cavity.indices[t + 1]);
    }
    shell.name = "hollow box";
    return shell;
}

inline ConsistentPairsSettings testSettings(uint32_t resolution = 256) {
    ConsistentPairsSettings settings;
    settings.resolution = resolution;
    settings.maxObjects = 512;
    settings.pointCapacity = 1u << 17;
    return settings;
}

class ConsistentPairsTest : public test::MethodSceneTest {
protected:
    // One frame of a fresh detector with `settings` on `scene`.
    Result<FrameResults> detect(const Scene& scene, ConsistentPairsFrameDetails& details,
                                const ConsistentPairsSettings& settings = testSettings()) {
        auto detector = ConsistentPairsDetector::create(context_, settings);
        if (!detector) return detector.status();
        return detector->run(scene, &details);
    }

    // A hollow box (outer 4, cavity 3) holding two overlapping unit boxes in its cavity, one behind
    // the other along the view (z): along rays through their overlap the front faces are the
    // shell's outside (layer 1), the first box (2), the second (3) and the shell's far inner wall
    // (4, the last). With three layers an iteration the first box's back face, whose nearest front
    // face is layer 3, belongs to the second window. Pair (1, 2) only.
    void buildNestedScene(Scene& scene) {
        MeshId shell = addMesh(scene, hollowBox({4.0f, 4.0f, 4.0f}, {3.0f, 3.0f, 3.0f}));
        MeshId box = addMesh(scene, solids::box({1.0f, 1.0f, 1.0f}));
        addObject(scene, shell, glm::mat4(1.0f));
        addObject(scene, box, glm::translate(glm::mat4(1.0f), {0.1f, 0.0f, -0.4f}));
        addObject(scene, box, glm::translate(glm::mat4(1.0f), {0.3f, 0.2f, 0.2f}) *
                                  glm::rotate(glm::mat4(1.0f), 0.4f, glm::vec3(0.0f, 0.0f, 1.0f)));
    }

    // Pairs that overlap by more than 3 pixels (they still interfere after a 3-pixel shift of one
    // object along any axis) must be found; pairs still apart after any 2-pixel shift must not be.
    void expectAgreesWithOracle(const FrameResults& results, const ConsistentPairsFrameDetails& details) {
        const int overlapping = expectPairsAgreeWithOracle(results, details.pixelSize, 3.0f, 2.0f);
        // Reported pairs that do not interfere exactly: allowed when within 2 pixels, counted for the record.
        int touching = 0;
        for (const PairResult& pair : results.pairs) {
            auto exact = reference::interferes(objectMesh(pair.a), objectTransform(pair.a), objectMesh(pair.b),
                                               objectTransform(pair.b));
            touching += exact && !exact.value();
        }
        std::printf("[ cp       ] oracle: %d clearly overlapping pairs (all must be found), %zu reported (%d of "
                    "them apart by under 2 pixels), %u iterations, pixel %.4f\n",
                    overlapping, results.pairs.size(), touching, details.iterationsRun, details.pixelSize);
        EXPECT_EQ(results.colliding, !results.pairs.empty());
        EXPECT_FALSE(details.iterationsTruncated);
        // Every reported pair came from inconsistent back-face fragments.
        if (!results.pairs.empty()) EXPECT_GT(details.inconsistentPixels, 0u);
    }

    // Every sampled collision point lies on its own object's surface (within depth precision) and
    // within the distance threshold (plus that precision) of the other object's surface; its normal
    // is the normal of a triangle of its object nearest to it (the triangle hit). Returns the
    // number of points checked.
    size_t expectPointsOnBothSurfaces(const ConsistentPairsFrameDetails& details, size_t maxPoints = 64) {
        // Depth is exact to float rounding; the pixel centre lies on the triangle hit.
        const double onSurface = 1e-4 + 1e-3 * details.pixelSize;
        const double threshold = details.distanceThreshold + onSurface;
        const size_t step = std::max<size_t>(1, details.points.size() / maxPoints);
        size_t checked = 0;
        for (size_t i = 0; i < details.points.size(); i += step, ++checked) {
            const ConsistentPairsPoint& point = details.points[i];
            SCOPED_TRACE("point " + std::to_string(i) + " objects " + std::to_string(point.objectP) + ", " +
                         std::to_string(point.objectT));
            EXPECT_NE(point.objectP, point.objectT);
            for (auto [position, own, other, normal] :
                 {std::tuple{point.p, point.objectP, point.objectT, point.normalP},
                  std::tuple{point.t, point.objectT, point.objectP, point.normalT}}) {
                EXPECT_LE(test::distanceToSurface(objectMesh(own), objectTransform(own), position), onSurface);
                EXPECT_LE(test::distanceToSurface(objectMesh(other), objectTransform(other), position), threshold);
                EXPECT_TRUE(normalOfNearestTriangle(own, position, normal, onSurface))
                    << "normal (" << normal.x << ", " << normal.y << ", " << normal.z << ") at (" << position.x << ", "
                    << position.y << ", " << position.z << ")";
            }
        }
        return checked;
    }

    // Whether `normal` is the outward unit normal (within 0.5 degrees) of a triangle of `object`
    // among those nearest to `position` (within `tolerance` of the nearest distance).
    bool normalOfNearestTriangle(uint32_t object, glm::vec3 position, glm::vec3 normal, double tolerance) {
        const MeshData& mesh = objectMesh(object);
        const glm::mat4& transform = objectTransform(object);
        auto world = [&](uint32_t i) { return glm::dvec3(transform * glm::vec4(mesh.positions[i], 1.0f)); };
        std::vector<std::pair<double, glm::dvec3>> triangles;
        double nearest = INFINITY;
        for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
            glm::dvec3 a = world(mesh.indices[t]), b = world(mesh.indices[t + 1]), c = world(mesh.indices[t + 2]);
            double distance = test::distanceToTriangle(glm::dvec3(position), a, b, c);
            nearest = std::min(nearest, distance);
            triangles.push_back({distance, glm::normalize(glm::cross(b - a, c - a))});
        }
        for (const auto& [distance, triangleNormal] : triangles)
            if (distance <= nearest + tolerance && glm::dot(triangleNormal, glm::dvec3(normal)) > std::cos(0.5 * M_PI / 180))
                return true;
        return false;
    }
};

}  // namespace vkc::consistent_pairs_test
