// Helpers of the AabbTreeDetector tests: shared meshes (VKC_SHARED_DIR) normalised to a unit box,
// seeded random rigid motions, and the exact oracle's triangle pairs per object pair, compared
// with what the detector returned (sets of [triangle of a, triangle of b]).
#pragma once

#include "collision/reference/triangle_pairs.h"
#include "tests/support/vulkan_test.h"
#include "tools/io/mesh_loader.h"
#include "vkcollide/aabb_tree.h"
#include "vkcollide/scene.h"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <vector>

namespace vkc::aabbtest {

using TriSet = std::set<std::array<uint32_t, 2>>;

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

inline glm::mat4 randomRigidMotion(std::mt19937& rng, float spread) {
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::uniform_real_distribution<float> uniform(-spread, spread);
    glm::mat4 m = glm::mat4_cast(glm::normalize(glm::quat(normal(rng), normal(rng), normal(rng), normal(rng))));
    m[3] = glm::vec4(uniform(rng), uniform(rng), uniform(rng), 1.0f);
    return m;
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

// Every object pair: the detector's list (complete, not truncated) equals the oracle's, and its
// count equals the list's size. Returns the total number of intersecting triangle pairs.
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
            if (gpu != expected) {
                std::vector<std::array<uint32_t, 2>> onlyGpu, onlyOracle;
                std::set_difference(gpu.begin(), gpu.end(), expected.begin(), expected.end(), std::back_inserter(onlyGpu));
                std::set_difference(expected.begin(), expected.end(), gpu.begin(), gpu.end(), std::back_inserter(onlyOracle));
                ADD_FAILURE() << what << ": pair (" << a << ", " << b << "): gpu " << gpu.size() << ", oracle "
                              << expected.size() << "; only gpu " << onlyGpu.size()
                              << (onlyGpu.empty() ? std::string() : " e.g. [" + std::to_string(onlyGpu[0][0]) + ", " + std::to_string(onlyGpu[0][1]) + "]")
                              << ", only oracle " << onlyOracle.size()
                              << (onlyOracle.empty() ? std::string() : " e.g. [" + std::to_string(onlyOracle[0][0]) + ", " + std::to_string(onlyOracle[0][1]) + "]");
            }
        }
    }
    return total;
}

}  // namespace vkc::aabbtest
