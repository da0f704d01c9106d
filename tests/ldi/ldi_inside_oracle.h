// A pair's inside vertices (method ldi, paper 2 §3.3b: each object's vertices against the other's
// LDI) judged by the exact point classifier on the double world meshes, not by the CPU reference
// LDI: a vertex of one object the oracle puts inside the other must be reported and one outside
// must not, unless it lies within `margin` of the other's surface. No Vulkan: the GPU tests and
// the CLI tests both use it.
#pragma once

#include "collision/reference/point_classifier.h"
#include "tests/support/test_geometry.h"
#include "vkcollide/ldi.h"
#include "vkcollide/mesh.h"

#include <gtest/gtest.h>

#include <glm/mat4x4.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace vkc::ldi_test {

inline glm::dvec3 world(const glm::mat4& m, const glm::vec3& p) {
    return glm::dvec3(glm::dmat4(m) * glm::dvec4(glm::dvec3(p), 1.0));
}

inline double distanceToSurface(const MeshData& mesh, const glm::mat4& transform, const glm::dvec3& p) {
    double best = INFINITY;
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3)
        best = std::min(best, test::distanceToTriangle(p, world(transform, mesh.positions[mesh.indices[t]]),
                                                       world(transform, mesh.positions[mesh.indices[t + 1]]),
                                                       world(transform, mesh.positions[mesh.indices[t + 2]])));
    return best;
}

// The LDI's tolerance in a pair's view: half the pixel diagonal widened by the 1/256-pixel vertex
// snapping, plus float depth (1e-5 of the depth range).
inline double insideMargin(const Aabb& box, uint32_t axis, uint32_t resolution) {
    const uint32_t u = (axis + 1) % 3, v = (axis + 2) % 3;
    const double pixelU = (double(box.max[u]) - box.min[u]) / resolution;
    const double pixelV = (double(box.max[v]) - box.min[v]) / resolution;
    return (0.5 + 2.0 / 256) * std::hypot(pixelU, pixelV) + 1e-5 * (double(box.max[axis]) - box.min[axis]);
}

struct InsideJudgement {
    size_t inside = 0;   // vertices the oracle puts inside the other object, both objects
    size_t outside = 0;  // and outside it
    size_t listed = 0;   // vertices reported
    size_t differ = 0;   // reported != oracle (each within the margin, or a test failure)
};

// Adds a test failure for every reported vertex index out of range or listed twice, and every
// vertex classified differently from the oracle farther than `margin` from the other's surface.
inline InsideJudgement judgeInsideVertices(std::span<const uint32_t> insideVertices, const MeshData& a,
                                           const glm::mat4& ta, const MeshData& b, const glm::mat4& tb,
                                           double margin) {
    InsideJudgement out;
    std::vector<uint8_t> reported[2] = {std::vector<uint8_t>(a.positions.size(), 0),
                                        std::vector<uint8_t>(b.positions.size(), 0)};
    for (uint32_t code : insideVertices) {
        const bool ofB = (code & kLdiInsideVertexOfB) != 0;
        const uint32_t index = code & ~kLdiInsideVertexOfB;
        if (index >= reported[ofB].size()) {
            ADD_FAILURE() << "inside vertex " << index << (ofB ? " of b" : " of a") << " out of range";
            continue;
        }
        EXPECT_EQ(reported[ofB][index]++, 0) << "vertex " << index << " listed twice";
    }
    for (int side = 0; side < 2; ++side) {
        const MeshData& mesh = side == 0 ? a : b;
        const glm::mat4& transform = side == 0 ? ta : tb;
        const MeshData& other = side == 0 ? b : a;
        const glm::mat4& otherTransform = side == 0 ? tb : ta;
        std::vector<glm::dvec3> vertices;
        for (const glm::vec3& p : mesh.positions) vertices.push_back(world(transform, p));
        auto exact = reference::pointsInside(other, otherTransform, vertices);
        EXPECT_TRUE(exact) << exact.status().describe();
        if (!exact) return out;
        for (size_t i = 0; i < vertices.size(); ++i) {
            out.inside += exact.value()[i];
            out.outside += !exact.value()[i];
            out.listed += reported[side][i];
            if (reported[side][i] == exact.value()[i]) continue;
            ++out.differ;
            const double distance = distanceToSurface(other, otherTransform, vertices[i]);
            EXPECT_LE(distance, margin) << mesh.name << (side == 0 ? " (a)" : " (b)") << " vertex " << i
                                        << (exact.value()[i] ? " inside but not reported, " : " outside but reported, ")
                                        << distance / margin << " margins from the surface";
        }
    }
    return out;
}

}  // namespace vkc::ldi_test
