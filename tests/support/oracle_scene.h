// Helpers of the image-space method tests (stencil, consistent pairs): a fixture that keeps the
// meshes and poses of the objects it adds so the exact oracle can see them, the oracle's verdict
// with a tolerance (a pair "clearly overlaps" when it still interferes after moving one object by
// the tolerance along any axis; it is "clearly separated" when it does not interfere after any such
// move), point-to-volume distances, and shared meshes scaled to a size.
#pragma once

#include "collision/reference/pair_query.h"
#include "collision/reference/point_classifier.h"
#include "tests/support/test_geometry.h"
#include "tests/support/vulkan_test.h"
#include "tools/io/mesh_loader.h"
#include "vkcollide/results.h"
#include "vkcollide/scene.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace vkc::test {

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

// Distance from `point` to the surface of the placed mesh (brute force over its triangles).
inline double distanceToSurface(const MeshData& mesh, const glm::mat4& transform, glm::vec3 point) {
    double best = INFINITY;
    auto world = [&](uint32_t i) { return glm::dvec3(transform * glm::vec4(mesh.positions[i], 1.0f)); };
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3)
        best = std::min(best, distanceToTriangle(glm::dvec3(point), world(mesh.indices[t]), world(mesh.indices[t + 1]),
                                                 world(mesh.indices[t + 2])));
    return best;
}

// 0 inside the closed placed mesh, else the distance to its surface.
inline double distanceToVolume(const MeshData& mesh, const glm::mat4& transform, glm::vec3 point) {
    auto inside = reference::pointInside(mesh, transform, glm::dvec3(point));
    EXPECT_TRUE(inside) << inside.status().describe();
    if (inside && inside.value()) return 0.0;
    return distanceToSurface(mesh, transform, point);
}

// A shared mesh (VKC_SHARED_DIR) scaled to fit a box of side `size` centred at the origin.
inline std::optional<MeshData> sharedMesh(const char* file, float size) {
    std::string dir = sharedDir();
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

// Success when `results` holds exactly the pair (a, b).
inline ::testing::AssertionResult onlyPair(const FrameResults& results, uint32_t a, uint32_t b) {
    if (results.pairs.size() != 1)
        return ::testing::AssertionFailure() << results.pairs.size() << " pairs, expected only (" << a << ", " << b
                                             << ")";
    if (results.pairs[0].a != a || results.pairs[0].b != b)
        return ::testing::AssertionFailure() << "pair (" << results.pairs[0].a << ", " << results.pairs[0].b
                                             << "), expected (" << a << ", " << b << ")";
    return ::testing::AssertionSuccess();
}

class OracleSceneTest : public VulkanTest {
protected:
    // Meshes are kept here so the oracle can see them; objects reference them by index. With
    // `hostVertices`, the scene reads the positions in place from that buffer.
    MeshId addMesh(Scene& scene, MeshData mesh, VkBuffer hostVertices = VK_NULL_HANDLE, VkDeviceSize offset = 0,
                   uint32_t stride = 0) {
        meshes_.push_back(std::make_unique<MeshData>(std::move(mesh)));
        auto id = scene.addMesh({meshes_.back()->name.empty() ? "mesh" : meshes_.back()->name.c_str(),
                                 meshes_.back().get(), hostVertices, offset, stride});
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
    void clearObjects() {
        meshes_.clear();
        meshOf_.clear();
        objectMesh_.clear();
        transforms_.clear();
    }

    // World boxes of every object, from its transformed vertices.
    std::vector<std::pair<glm::vec3, glm::vec3>> worldBoxes() const {
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
        return boxes;
    }

    // Over all object pairs: every pair that clearly overlaps by `overlapPixels` must be in
    // `results`, none clearly separated by `separationPixels` may be. Returns how many pairs clearly
    // overlap (recorded as a test property).
    int expectPairsAgreeWithOracle(const FrameResults& results, float pixelSize, float overlapPixels,
                                   float separationPixels) {
        std::set<std::pair<uint32_t, uint32_t>> found;
        for (const PairResult& pair : results.pairs) found.insert({pair.a, pair.b});
        int overlapping = 0;
        const auto boxes = worldBoxes();
        const float margin = std::max(overlapPixels, separationPixels) * pixelSize;
        for (uint32_t a = 0; a < objectCount(); ++a)
            for (uint32_t b = a + 1; b < objectCount(); ++b) {
                // Boxes apart by more than the tolerances: the oracle would say "separated".
                if (glm::any(glm::greaterThan(boxes[a].first, boxes[b].second + margin)) ||
                    glm::any(glm::greaterThan(boxes[b].first, boxes[a].second + margin))) {
                    EXPECT_FALSE(found.count({a, b})) << "pair (" << a << ", " << b << ") reported, boxes apart";
                    continue;
                }
                Verdict clear = classifyPair(objectMesh(a), objectTransform(a), objectMesh(b), objectTransform(b),
                                             overlapPixels * pixelSize);
                if (clear == Verdict::ClearlyOverlapping) {
                    ++overlapping;
                    EXPECT_TRUE(found.count({a, b})) << "missed pair (" << a << ", " << b << ")";
                    continue;
                }
                if (!found.count({a, b})) continue;
                Verdict apart = classifyPair(objectMesh(a), objectTransform(a), objectMesh(b), objectTransform(b),
                                             separationPixels * pixelSize);
                if (apart == Verdict::ClearlySeparated)
                    ADD_FAILURE() << "pair (" << a << ", " << b << ") reported but separated by > " << separationPixels
                                  << " pixels";
            }
        RecordProperty("clearly_overlapping_pairs", overlapping);
        return overlapping;
    }

    std::vector<std::unique_ptr<MeshData>> meshes_;
    std::vector<const MeshData*> meshOf_;
    std::vector<const MeshData*> objectMesh_;
    std::vector<glm::mat4> transforms_;
};

}  // namespace vkc::test
