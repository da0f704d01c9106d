// Helpers of the AabbTreeDetector tests: shared meshes (VKC_SHARED_DIR) normalised to a unit box,
// seeded random rigid motions, and the exact oracle's triangle pairs per object pair, compared
// with what the detector returned (sets of [triangle of a, triangle of b]).
#pragma once

#include "collision/reference/triangle_pairs.h"
#include "tests/aabb_tree/aabb_test_support.h"
#include "tests/support/vulkan_test.h"
#include "tools/io/mesh_loader.h"
#include "vkcollide/aabb_tree.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/scene.h"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <vector>

namespace vkc::aabbtest {

using TriSet = std::set<std::array<uint32_t, 2>>;

// Exact-enough (double) distance between two closed triangles: the minimum over the 6 vertex-to-
// triangle and 9 edge-to-edge distances (the closest points of two disjoint triangles are among these).
inline double segmentSegmentDistance(glm::dvec3 p1, glm::dvec3 q1, glm::dvec3 p2, glm::dvec3 q2) {
    const glm::dvec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
    const double a = glm::dot(d1, d1), e = glm::dot(d2, d2), f = glm::dot(d2, r);
    double s = 0.0, t = 0.0;
    if (a <= 0.0 && e <= 0.0) return glm::length(r);
    if (a <= 0.0) {
        t = std::clamp(f / e, 0.0, 1.0);
    } else {
        const double c = glm::dot(d1, r);
        if (e <= 0.0) {
            s = std::clamp(-c / a, 0.0, 1.0);
        } else {
            const double b = glm::dot(d1, d2), denom = a * e - b * b;
            s = denom > 0.0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0) t = 0.0, s = std::clamp(-c / a, 0.0, 1.0);
            else if (t > 1.0) t = 1.0, s = std::clamp((b - c) / a, 0.0, 1.0);
        }
    }
    return glm::length((p1 + d1 * s) - (p2 + d2 * t));
}
inline double pointTriangleDistance(glm::dvec3 p, glm::dvec3 a, glm::dvec3 b, glm::dvec3 c) {
    const glm::dvec3 n = glm::cross(b - a, c - a);
    const double len = glm::length(n);
    if (len > 0.0) {
        const glm::dvec3 u = n / len;
        const glm::dvec3 q = p - u * glm::dot(p - a, u);
        const bool inside = glm::dot(glm::cross(b - a, q - a), n) >= 0.0 && glm::dot(glm::cross(c - b, q - b), n) >= 0.0 &&
                            glm::dot(glm::cross(a - c, q - c), n) >= 0.0;
        if (inside) return std::abs(glm::dot(p - a, u));
    }
    return std::min({segmentSegmentDistance(p, p, a, b), segmentSegmentDistance(p, p, b, c), segmentSegmentDistance(p, p, c, a)});
}
inline double triangleDistance(const glm::dvec3 a[3], const glm::dvec3 b[3]) {
    double best = INFINITY;
    for (int i = 0; i < 3; ++i) {
        best = std::min(best, pointTriangleDistance(a[i], b[0], b[1], b[2]));
        best = std::min(best, pointTriangleDistance(b[i], a[0], a[1], a[2]));
        for (int j = 0; j < 3; ++j)
            best = std::min(best, segmentSegmentDistance(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3]));
    }
    return best;
}

// Tolerance policy (shaders_glsl/shared/tri_tri.h): the predicates run in double and call a
// determinant within 2^-48 of its terms "touching"; the detector moves B's vertices into A's space
// in float (~1e-7 relative), while the oracle places both in double. So a pair whose closed
// triangles are closer than that rounding may come out either way. An extra pair is accepted only
// when its exact separation is below kNearTouchRelative x the largest coordinate magnitude; a pair
// the oracle has and the detector lacks is always a failure. (With float predicates, one such
// extra showed at these seeds, 2.9e-6 apart; with double ones none does.)
inline constexpr double kNearTouchRelative = 1e-6;

// The exact-in-double separation of triangle ta of object a and tb of object b, and the largest
// coordinate magnitude of the six vertices relative to object a's origin (the detector works in
// a's space, so its rounding follows that magnitude, not the distance from the world origin).
inline std::pair<double, double> worldTriangleSeparation(const Scene& scene, uint32_t a, uint32_t ta, uint32_t b,
                                                         uint32_t tb) {
    glm::dvec3 pa[3], pb[3];
    double magnitude = 0.0;
    for (int k = 0; k < 3; ++k) {
        const MeshData& ma = scene.mesh(scene.objectMesh(a));
        const MeshData& mb = scene.mesh(scene.objectMesh(b));
        pa[k] = glm::dvec3(scene.transform(a) * glm::dvec4(glm::dvec3(ma.positions[ma.indices[3 * ta + k]]), 1.0));
        pb[k] = glm::dvec3(scene.transform(b) * glm::dvec4(glm::dvec3(mb.positions[mb.indices[3 * tb + k]]), 1.0));
        const glm::dvec3 originA(scene.transform(a)[3]);
        for (int axis = 0; axis < 3; ++axis)
            magnitude = std::max({magnitude, std::abs(pa[k][axis] - originA[axis]), std::abs(pb[k][axis] - originA[axis])});
    }
    return {triangleDistance(pa, pb), magnitude};
}

// Loads ../shared/meshes/<name>; std::nullopt (and a test failure naming it) when missing.
inline std::optional<MeshData> loadSharedMesh(const char* name, bool normalise = true) {
    // VKC_SHARED_DIR when set, else ../shared beside the source tree (CMake passes its path).
    const std::string env = test::sharedDir();
    const std::filesystem::path path = std::filesystem::path(env.empty() ? VKC_AABB_DEFAULT_SHARED_DIR : env) / "meshes" / name;
    auto mesh = io::loadMesh(path);
    if (!mesh) {
        ADD_FAILURE() << "cannot load " << path << ": " << mesh.status().describe();
        return std::nullopt;
    }
    if (normalise) {  // centre and scale so the longest side is 1: shared meshes' units differ widely
        glm::vec3 lo(INFINITY), hi(-INFINITY);
        for (const glm::vec3& p : mesh->positions) lo = glm::min(lo, p), hi = glm::max(hi, p);
        const glm::vec3 centre = (lo + hi) * 0.5f;
        const float scale = 1.0f / std::max(hi.x - lo.x, std::max(hi.y - lo.y, hi.z - lo.z));
        for (glm::vec3& p : mesh->positions) p = (p - centre) * scale;
    }
    mesh->name = name;
    return std::move(mesh.value());
}

// The oracle's pairs for objects a < b of `scene` at their current transforms and positions.
inline TriSet oraclePairs(const Scene& scene, uint32_t a, uint32_t b) {
    auto result = reference::intersectingTrianglePairs(scene.mesh(scene.objectMesh(a)), scene.transform(a),
                                                       scene.mesh(scene.objectMesh(b)), scene.transform(b));
    EXPECT_TRUE(result) << result.status().describe();
    TriSet set;
    if (result)
        for (const reference::TrianglePair& p : result->pairs) set.insert({p.a, p.b});
    return set;
}

// Near-touching extras accepted so far (tests print and bound them).
inline size_t& nearTouchExtras() {
    static size_t count = 0;
    return count;
}

// Every object pair: the detector's list (complete, not truncated) equals the oracle's, up to
// near-touching extras (see kNearTouchRelative), and its count equals the list's size. Returns the total number of intersecting triangle pairs.
inline size_t expectMatchesOracle(const Scene& scene, const FrameResults& results, const char* what) {
    std::map<std::pair<uint32_t, uint32_t>, const PairResult*> found;
    for (const PairResult& r : results.pairs) {
        EXPECT_LT(r.a, r.b) << what;
        EXPECT_TRUE(found.emplace(std::make_pair(r.a, r.b), &r).second) << what << ": pair listed twice";
        EXPECT_FALSE(r.truncated) << what;
    }
    EXPECT_TRUE(results.warnings.empty()) << what << ": " << (results.warnings.empty() ? "" : results.warnings[0]);
    size_t total = 0;
    for (uint32_t a = 0; a < scene.objectCount(); ++a) {
        for (uint32_t b = a + 1; b < scene.objectCount(); ++b) {
            const TriSet expected = oraclePairs(scene, a, b);
            total += expected.size();
            auto it = found.find({a, b});
            if (it == found.end()) {
                EXPECT_TRUE(expected.empty()) << what << ": pair (" << a << ", " << b << ") missed, oracle has "
                                              << expected.size() << " triangle pairs";
                continue;
            }
            const PairResult& r = *it->second;
            TriSet gpu(r.trianglePairList.begin(), r.trianglePairList.end());
            EXPECT_EQ(gpu.size(), r.trianglePairList.size()) << what << ": duplicates in the list";
            EXPECT_EQ(r.trianglePairs.value_or(0), r.trianglePairList.size()) << what;
            std::vector<std::array<uint32_t, 2>> onlyGpu, onlyOracle;
            std::set_difference(gpu.begin(), gpu.end(), expected.begin(), expected.end(), std::back_inserter(onlyGpu));
            std::set_difference(expected.begin(), expected.end(), gpu.begin(), gpu.end(), std::back_inserter(onlyOracle));
            for (const auto& p : onlyOracle)
                ADD_FAILURE() << what << ": pair (" << a << ", " << b << "): missed triangle pair [" << p[0] << ", " << p[1] << "]";
            for (const auto& p : onlyGpu) {
                const auto [distance, magnitude] = worldTriangleSeparation(scene, a, p[0], b, p[1]);
                if (distance <= kNearTouchRelative * magnitude) {
                    std::printf("[ aabb ] %s: near-touching extra [%u, %u] of pair (%u, %u): %.3g apart at magnitude %.3g\n",
                                what, p[0], p[1], a, b, distance, magnitude);
                    ++nearTouchExtras();
                } else {
                    ADD_FAILURE() << what << ": pair (" << a << ", " << b << "): extra triangle pair [" << p[0] << ", "
                                  << p[1] << "], " << distance << " apart (magnitude " << magnitude << ")";
                }
            }
        }
    }
    return total;
}

// `pairs` as a detector's candidates, with every object's world box from its CPU positions (what
// a broadphase would give for a scene the host does not deform).
inline BroadphaseResults withPlacedBounds(const Scene& scene, std::vector<ObjectPair> pairs) {
    BroadphaseResults candidates;
    for (uint32_t object = 0; object < scene.objectCount(); ++object)
        candidates.worldBounds.push_back(placedMeshBounds(scene.mesh(scene.objectMesh(object)), scene.transform(object)));
    candidates.pairCount = uint32_t(pairs.size());
    candidates.pairs = std::move(pairs);
    return candidates;
}

}  // namespace vkc::aabbtest
