// Helpers of the stencil-method tests: a fixture with a scene builder, seeded random rigid
// motions, the exact oracle's verdict with a tolerance (a pair "clearly overlaps" when it still
// interferes after moving one object by the tolerance along any axis; it is "clearly separated"
// when it does not interfere after any such move), and point-to-volume distances for the points.
#pragma once

#include "collision/generated_solids.h"
#include "collision/reference/pair_query.h"
#include "collision/reference/point_classifier.h"
#include "tests/support/test_geometry.h"
#include "tests/support/vulkan_test.h"
#include "tools/io/mesh_loader.h"
#include "vkcollide/scene.h"
#include "vkcollide/stencil.h"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace vkc::stenciltest {

using test::distanceToTriangle;
using test::randomRigid;

enum class Verdict { ClearlyOverlapping, ClearlySeparated, Borderline };

// The exact oracle, at rest and with object b moved by +-tolerance along each world axis.
inline Verdict classifyPair(const MeshData& meshA, const glm::mat4& a, const MeshData& meshB, const glm::mat4& b,
                            float tolerance) {
    bool all = true, any = false;
    for (int k = 0; k < 7; ++k) {
        glm::vec3 shift(0.0f);
        if (k > 0) shift[(k - 1) / 2] = (k % 2 ? 1.0f : -1.0f) * tolerance;
        auto hit = reference::interferes(meshA, a, meshB, glm::translate(glm::mat4(1.0f), shift) * b);
        EXPECT_TRUE(hit) << hit.status().describe();
        bool value = hit && hit.value();
        all = all && value;
        any = any || value;
    }
    if (all) return Verdict::ClearlyOverlapping;
    if (!any) return Verdict::ClearlySeparated;
    return Verdict::Borderline;
}

inline double distanceToVolume(const MeshData& mesh, const glm::mat4& transform, glm::vec3 point) {
    auto inside = reference::pointInside(mesh, transform, glm::dvec3(point));
    EXPECT_TRUE(inside) << inside.status().describe();
    if (inside && inside.value()) return 0.0;
    double best = INFINITY;
    auto world = [&](uint32_t i) { return glm::dvec3(transform * glm::vec4(mesh.positions[i], 1.0f)); };
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3)
        best = std::min(best, distanceToTriangle(glm::dvec3(point), world(mesh.indices[t]), world(mesh.indices[t + 1]),
                                                 world(mesh.indices[t + 2])));
    return best;
}

// A shared mesh (VKC_SHARED_DIR) scaled to fit a box of side `size` centred at the origin.
inline std::optional<MeshData> sharedMesh(const char* file, float size) {
    std::string dir = test::sharedDir();
    if (dir.empty()) return std::nullopt;
    auto mesh = io::loadMesh(std::filesystem::path(dir) / "meshes" / file);
    if (!mesh) return std::nullopt;
    MeshData data = std::move(mesh.value());
    glm::vec3 lo(INFINITY), hi(-INFINITY);
    for (const glm::vec3& p : data.positions) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    const glm::vec3 centre = (lo + hi) * 0.5f;
    const float scale = size / std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
    for (glm::vec3& p : data.positions) p = (p - centre) * scale;
    return data;
}

class StencilTest : public test::VulkanTest {
protected:
    // Meshes are kept here so the oracle can see them; objects reference them by index.
    MeshId addMesh(Scene& scene, MeshData mesh) {
        meshes_.push_back(std::make_unique<MeshData>(std::move(mesh)));
        auto id = scene.addMesh({meshes_.back()->name.empty() ? "mesh" : meshes_.back()->name.c_str(),
                                 meshes_.back().get()});
        EXPECT_TRUE(id) << id.status().describe();
        meshOf_.push_back(meshes_.back().get());
        return id ? id.value() : 0;
    }
    void addObject(Scene& scene, MeshId mesh, const glm::mat4& transform) {
        auto id = scene.addObject(mesh, transform);
        ASSERT_TRUE(id) << id.status().describe();
        objectMesh_.push_back(meshOf_[mesh]);
        transforms_.push_back(transform);
    }
    const MeshData& objectMesh(uint32_t object) const { return *objectMesh_[object]; }
    const glm::mat4& objectTransform(uint32_t object) const { return transforms_[object]; }
    uint32_t objectCount() const { return uint32_t(objectMesh_.size()); }

    // Pairs the detector must find / must not report, over all object pairs whose boxes are near.
    void expectAgreesWithOracle(const FrameResults& results, const StencilFrameDetails& details,
                                float overlapPixels = 3.0f, float separationPixels = 2.0f) {
        std::set<std::pair<uint32_t, uint32_t>> found;
        for (const PairResult& pair : results.pairs) found.insert({pair.a, pair.b});
        int overlapping = 0, separated = 0;
        std::vector<std::pair<glm::vec3, glm::vec3>> boxes;
        for (uint32_t i = 0; i < objectCount(); ++i) {
            glm::vec3 lo(INFINITY), hi(-INFINITY);
            for (const glm::vec3& p : objectMesh(i).positions) {
                glm::vec3 w = glm::vec3(objectTransform(i) * glm::vec4(p, 1.0f));
                lo = glm::min(lo, w);
                hi = glm::max(hi, w);
            }
            boxes.push_back({lo, hi});
        }
        const float margin = std::max(overlapPixels, separationPixels) * details.pixelSize;
        for (uint32_t a = 0; a < objectCount(); ++a)
            for (uint32_t b = a + 1; b < objectCount(); ++b) {
                // Boxes apart by more than the tolerances: the oracle would say "separated".
                if (glm::any(glm::greaterThan(boxes[a].first, boxes[b].second + margin)) ||
                    glm::any(glm::greaterThan(boxes[b].first, boxes[a].second + margin))) {
                    EXPECT_FALSE(found.count({a, b})) << "pair (" << a << ", " << b << ") reported, boxes apart";
                    continue;
                }
                Verdict clear = classifyPair(objectMesh(a), objectTransform(a), objectMesh(b), objectTransform(b),
                                             overlapPixels * details.pixelSize);
                if (clear == Verdict::ClearlyOverlapping) {
                    ++overlapping;
                    EXPECT_TRUE(found.count({a, b})) << "missed pair (" << a << ", " << b << ")";
                    continue;
                }
                if (!found.count({a, b})) continue;
                Verdict apart = classifyPair(objectMesh(a), objectTransform(a), objectMesh(b), objectTransform(b),
                                             separationPixels * details.pixelSize);
                if (apart == Verdict::ClearlySeparated) {
                    ++separated;
                    ADD_FAILURE() << "pair (" << a << ", " << b << ") reported but separated by > "
                                  << separationPixels << " pixels";
                }
            }
        RecordProperty("clearly_overlapping_pairs", overlapping);
        std::printf("[ stencil  ] oracle: %d clearly overlapping pairs (all must be found), %zu reported\n",
                    overlapping, found.size());
        if (std::getenv("VKC_STENCIL_VERBOSE"))
            for (const auto& [a, b] : found) std::printf("[ stencil  ]   pair (%u, %u)\n", a, b);
        // The per-object occlusion queries (paper 5.1, 5.2) cover the ids the pair list names.
        for (const PairResult& pair : results.pairs) {
            EXPECT_FALSE(pair.penetrating.empty() && pair.penetrated.empty());
            for (uint32_t object : pair.penetrating)
                EXPECT_TRUE(std::count(details.penetratingObjects.begin(), details.penetratingObjects.end(), object))
                    << "object " << object << " penetrates in the id image but not in its occlusion query";
            for (uint32_t object : pair.penetrated)
                EXPECT_TRUE(std::count(details.penetratedObjects.begin(), details.penetratedObjects.end(), object))
                    << "object " << object << " is penetrated in the id image but not in its occlusion query";
        }
        // The occlusion-query boolean agrees with the pair list.
        EXPECT_EQ(results.colliding, !results.pairs.empty());
    }

    // Every point lies within a pixel (plus the edge offset and a depth tolerance) of both volumes:
    // it is an edge point of one object inside the other.
    void expectPointsNearVolumes(const FrameResults& results, const StencilFrameDetails& details,
                                 size_t maxPerPair = 64) {
        const double tolerance = 1.5 * details.pixelSize + 1e-4;
        for (const PairResult& pair : results.pairs) {
            EXPECT_FALSE(pair.points.empty()) << "pair (" << pair.a << ", " << pair.b << ") has no points";
            const size_t step = std::max<size_t>(1, pair.points.size() / maxPerPair);
            for (size_t i = 0; i < pair.points.size(); i += step) {
                const glm::vec3 p = pair.points[i];
                EXPECT_LE(distanceToVolume(objectMesh(pair.a), objectTransform(pair.a), p), tolerance)
                    << "point " << i << " of pair (" << pair.a << ", " << pair.b << ") far from object " << pair.a;
                EXPECT_LE(distanceToVolume(objectMesh(pair.b), objectTransform(pair.b), p), tolerance)
                    << "point " << i << " of pair (" << pair.a << ", " << pair.b << ") far from object " << pair.b;
            }
        }
    }

    std::vector<std::unique_ptr<MeshData>> meshes_;
    std::vector<const MeshData*> meshOf_;
    std::vector<const MeshData*> objectMesh_;
    std::vector<glm::mat4> transforms_;
};

}  // namespace vkc::stenciltest
