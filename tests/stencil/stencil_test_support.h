// Helpers of the stencil-method tests: the method-scene fixture (tests/support/method_scenes.h) with
// a detector run once, and the stencil method's checks against the exact oracle (pairs,
// occlusion-query objects, points).
#pragma once

#include "collision/scene/generated_solids.h"
#include "tests/support/detector_contract.h"
#include "tests/support/method_scenes.h"
#include "vkcollide/stencil.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace vkc::stenciltest {

using test::classifyPair;
using test::distanceToVolume;
using test::sharedMesh;
using test::Verdict;

// Default settings but for the resolution (pixels per side).
inline StencilSettings settingsAt(uint32_t resolution) {
    StencilSettings settings;
    settings.resolution = resolution;
    return settings;
}

class StencilTest : public test::MethodSceneTest {
protected:
    // One frame of a fresh detector with `settings` on `scene`.
    Result<FrameResults> detect(const Scene& scene, StencilFrameDetails& details, const StencilSettings& settings) {
        auto detector = StencilDetector::create(context_, settings);
        if (!detector) return detector.status();
        return detector->run(scene, &details);
    }

    // Pairs the detector must find / must not report, over all object pairs whose boxes are near.
    // Returns how many pairs the oracle says clearly overlap (a scene test asserts it found some).
    int expectAgreesWithOracle(const FrameResults& results, const StencilFrameDetails& details,
                               float overlapPixels = 3.0f, float separationPixels = 2.0f) {
        const int overlapping = expectPairsAgreeWithOracle(results, details.pixelSize, overlapPixels, separationPixels);
        std::printf("[ stencil  ] oracle: %d clearly overlapping pairs (all must be found), %zu reported\n",
                    overlapping, results.pairs.size());
        if (std::getenv("VKC_STENCIL_VERBOSE"))
            for (const PairResult& pair : results.pairs) std::printf("[ stencil  ]   pair (%u, %u)\n", pair.a, pair.b);
        // The scans' per-object flags (paper 5.1, 5.2, read from id images A and B) cover the ids
        // the pair list names.
        for (const PairResult& pair : results.pairs) {
            EXPECT_FALSE(pair.penetrating.empty() && pair.penetrated.empty());
            for (uint32_t object : pair.penetrating)
                EXPECT_TRUE(std::count(details.penetratingObjects.begin(), details.penetratingObjects.end(), object))
                    << "object " << object << " penetrates in a pair but is not flagged penetrating";
            for (uint32_t object : pair.penetrated)
                EXPECT_TRUE(std::count(details.penetratedObjects.begin(), details.penetratedObjects.end(), object))
                    << "object " << object << " is penetrated in a pair but not flagged penetrated";
        }
        // The occlusion-query boolean agrees with the pair list.
        EXPECT_EQ(results.colliding, !results.pairs.empty());
        return overlapping;
    }

    // Every point is an edge point of one of the pair's penetrating objects inside the other: it
    // lies within a pixel (plus the edge offset and a depth tolerance) of that object's surface and
    // of both volumes. Every pair has points unless `everyPairHasPoints` is false (a truncated list).
    void expectPointsNearVolumes(const FrameResults& results, const StencilFrameDetails& details,
                                 size_t maxPerPair = 64, bool everyPairHasPoints = true) {
        const double tolerance = 1.5 * details.pixelSize + 1e-4;
        for (const PairResult& pair : results.pairs) {
            if (everyPairHasPoints)
                EXPECT_FALSE(pair.points.empty()) << "pair (" << pair.a << ", " << pair.b << ") has no points";
            const size_t step = std::max<size_t>(1, pair.points.size() / maxPerPair);
            for (size_t i = 0; i < pair.points.size(); i += step) {
                const glm::vec3 p = pair.points[i];
                EXPECT_LE(distanceToVolume(objectMesh(pair.a), objectTransform(pair.a), p), tolerance)
                    << "point " << i << " of pair (" << pair.a << ", " << pair.b << ") far from object " << pair.a;
                EXPECT_LE(distanceToVolume(objectMesh(pair.b), objectTransform(pair.b), p), tolerance)
                    << "point " << i << " of pair (" << pair.a << ", " << pair.b << ") far from object " << pair.b;
                double edge = INFINITY;
                for (uint32_t object : pair.penetrating)
                    edge = std::min(edge, test::distanceToSurface(objectMesh(object), objectTransform(object), p));
                EXPECT_LE(edge, tolerance) << "point " << i << " of pair (" << pair.a << ", " << pair.b
                                           << ") is on the surface of no penetrating object";
            }
        }
    }
};

}  // namespace vkc::stenciltest
