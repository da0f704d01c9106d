// SAT lite (paper 4, Appendix A) against a brute-force separating-axis test with all 15 axes in
// double: it must never reject overlapping boxes (also right at contact, where float rounding
// bites), and it must reject boxes that a face axis separates clearly (else it culls nothing).
#include "aabb_test_support.h"

#include <gtest/gtest.h>

#include <glm/gtc/matrix_access.hpp>

namespace vkc {
namespace {

struct Box {
    glm::dvec3 center, extent;
};

// Largest gap along any of `axes` between A (axis-aligned) and B (axes = columns of m, centre cB),
// both in A's space; > 0 means separated.
double separation(const Box& a, const Box& b, const glm::dmat4& m, bool faceAxesOnly) {
    glm::dvec3 cB = glm::dvec3(m * glm::dvec4(b.center, 1.0));
    glm::dvec3 axisB[3] = {glm::dvec3(m[0]), glm::dvec3(m[1]), glm::dvec3(m[2])};
    glm::dvec3 axisA[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    std::vector<glm::dvec3> axes;
    for (int i = 0; i < 3; ++i) axes.push_back(axisA[i]);
    for (int i = 0; i < 3; ++i) axes.push_back(axisB[i]);
    if (!faceAxesOnly) {
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) axes.push_back(glm::cross(axisA[i], axisB[j]));
        }
    }
    double gap = -std::numeric_limits<double>::infinity();
    for (glm::dvec3 axis : axes) {
        double length = glm::length(axis);
        if (length < 1e-12) continue;  // parallel edges: the face axes cover this direction
        axis /= length;
        double rA = 0.0, rB = 0.0;
        for (int i = 0; i < 3; ++i) {
            rA += a.extent[i] * std::abs(glm::dot(axisA[i], axis));
            rB += b.extent[i] * std::abs(glm::dot(axisB[i], axis));
        }
        gap = std::max(gap, std::abs(glm::dot(cB - a.center, axis)) - rA - rB);
    }
    return gap;
}

bool satLite(const Box& a, const Box& b, const glm::mat4& bToA) {
    glm::mat4 aToB = glm::inverse(bToA);
    gpu::AabbNodeGpu boxA{glm::vec4(glm::vec3(a.center - a.extent), 0), glm::vec4(glm::vec3(a.center + a.extent), 0)};
    gpu::AabbNodeGpu boxB{glm::vec4(glm::vec3(b.center - b.extent), 0), glm::vec4(glm::vec3(b.center + b.extent), 0)};
    glm::vec2 slack = aabbBoxSlack(boxA, boxB, bToA, aToB);
    return gpu::aabbSatLite(glm::vec3(boxA.lo), glm::vec3(boxA.hi), glm::vec3(boxB.lo), glm::vec3(boxB.hi), bToA, aToB,
                            slack.x, slack.y);
}

TEST(SatLite, NeverRejectsOverlappingBoxesAndRejectsFaceSeparatedOnes) {
    std::mt19937 rng(2024);
    std::uniform_real_distribution<double> size(0.01, 3.0), offset(-5.0, 5.0), logDelta(-7.0, 0.0);
    std::uniform_int_distribution<int> coin(0, 1);
    int overlapping = 0, nearContact = 0, faceSeparated = 0, rejected = 0;
    for (int trial = 0; trial < 40000; ++trial) {
        // Boxes as float min/max (what the tree stores), then measured exactly in double.
        glm::vec3 loA(offset(rng), offset(rng), offset(rng)), loB(offset(rng), offset(rng), offset(rng));
        glm::vec3 hiA = loA + glm::vec3(size(rng), size(rng), size(rng));
        glm::vec3 hiB = loB + glm::vec3(size(rng), size(rng), size(rng));
        Box a{(glm::dvec3(loA) + glm::dvec3(hiA)) * 0.5, (glm::dvec3(hiA) - glm::dvec3(loA)) * 0.5};
        Box b{(glm::dvec3(loB) + glm::dvec3(hiB)) * 0.5, (glm::dvec3(hiB) - glm::dvec3(loB)) * 0.5};
        glm::mat4 bToA = aabbtest::randomRigid(rng, 5.0f);
        if (trial % 3 == 0) bToA = glm::scale(bToA, glm::vec3(0.5f));  // uniform scale too
        // Start with the centres on top of each other (overlap), slide B along a random direction
        // until it separates (bisection on the exact 15-axis test) and sample just before/after
        // first contact, so many cases sit within float rounding of touching.
        glm::vec3 direction = glm::normalize(glm::vec3(offset(rng), offset(rng), offset(rng)) + glm::vec3(1e-3f));
        glm::dvec3 start = a.center - glm::dvec3(glm::dmat3(glm::dmat4(bToA)) * b.center);
        auto placed = [&](double s) {
            glm::dmat4 m(bToA);
            m[3] = glm::dvec4(start + s * glm::dvec3(direction), 1.0);
            return m;
        };
        double lo = 0.0, hi = 40.0;  // overlapping at lo, separated at hi
        if (separation(a, b, placed(lo), false) > 0.0 || separation(a, b, placed(hi), false) <= 0.0) continue;
        for (int it = 0; it < 80; ++it) {
            double mid = 0.5 * (lo + hi);
            if (separation(a, b, placed(mid), false) > 0.0) hi = mid; else lo = mid;
        }
        double contact = 0.5 * (lo + hi);
        double delta = std::pow(10.0, logDelta(rng)) * (coin(rng) ? 1.0 : -1.0);
        glm::dmat4 exact = placed(contact + delta);
        glm::mat4 floatMatrix(exact);
        glm::dmat4 measured(floatMatrix);  // judge exactly the float matrix SAT lite sees
        double gap = separation(a, b, measured, false);
        bool accepted = satLite(a, b, floatMatrix);
        if (gap <= 0.0) {
            ++overlapping;
            if (gap > -1e-4) ++nearContact;
            ASSERT_TRUE(accepted) << "rejected overlapping boxes, gap " << gap << " trial " << trial;
        } else {
            double faceGap = separation(a, b, measured, true);
            if (faceGap > 1e-3 * (1.0 + glm::length(glm::dvec3(floatMatrix[3])) + 10.0)) {
                ++faceSeparated;
                EXPECT_FALSE(accepted) << "accepted boxes a face axis separates by " << faceGap;
            }
        }
        rejected += accepted ? 0 : 1;
    }
    // The sample must actually probe both sides and the contact region.
    EXPECT_GT(overlapping, 5000);
    EXPECT_GT(nearContact, 1000);
    EXPECT_GT(faceSeparated, 1000);
    EXPECT_GT(rejected, 1000);
}

}  // namespace
}  // namespace vkc
