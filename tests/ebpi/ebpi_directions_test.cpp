// Method ebpi (paper 5, Sec. 4.4): the normal histogram (Extended Gaussian Image) and the ray
// directions that minimise Eq. 12, on meshes whose answer is known; the quartic form of Eq. 12
// (shaders_glsl/shared/ebpi_directions.h) against Eq. 12 summed texel by texel.
#include "collision/ebpi/ebpi_directions.h"
#include "collision/scene/generated_solids.h"
#include "shaders_glsl/shared/ebpi_directions.h"

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/matrix.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

namespace vkc {
namespace {

EbpiNormalHistogram histogramOf(const MeshData& mesh, const glm::dmat3& linear = glm::dmat3(1.0)) {
    EbpiNormalHistogram histogram;
    ebpiAddToNormalHistogram(histogram, mesh, linear);
    return histogram;
}

double surfaceArea(const EbpiNormalHistogram& histogram) {
    double area = 0;  // exact when every texel holds faces of one normal
    for (const glm::dvec3& n : histogram.texels) area += glm::length(n);
    return area;
}

glm::dmat3 rotation(double angle, glm::dvec3 axis) {
    return glm::dmat3(glm::rotate(glm::dmat4(1.0), angle, glm::normalize(axis)));
}

// Smallest |n . a_j| over the face normals n of an axis-aligned box: 0 when some ray direction is
// parallel to some face.
double smallestLean(const glm::dmat3& axes) {
    double smallest = 1.0;
    for (int k = 0; k < 3; ++k)
        for (int j = 0; j < 3; ++j) smallest = std::min(smallest, std::abs(axes[j][k]));
    return smallest;
}

TEST(EbpiNormalHistogram, BoxFacesFillSixTexelsWithTheirAreaAndAClosedMeshSumsToZero) {
    const MeshData box = solids::box({2.0f, 3.0f, 4.0f});
    const EbpiNormalHistogram histogram = histogramOf(box, 2.0 * glm::dmat3(1.0));  // placed at scale 2
    size_t filled = 0;
    glm::dvec3 sum(0);
    for (const glm::dvec3& n : histogram.texels) {
        filled += glm::length(n) > 0 ? 1 : 0;
        sum += n;
    }
    EXPECT_EQ(filled, 6u);
    EXPECT_NEAR(surfaceArea(histogram), 4.0 * 2.0 * (2 * 3 + 3 * 4 + 2 * 4), 1e-9);  // areas scale by 2^2
    // +x face (area 3 x 4 at scale 2): the texel of +x holds exactly (48, 0, 0).
    EXPECT_EQ(histogram.texels[gpu::ebpiNormalTexel({1, 0, 0})], glm::dvec3(48, 0, 0));
    EXPECT_LT(glm::length(sum), 1e-9);  // a closed mesh's area-weighted normals cancel

    const MeshData sphere = solids::sphere(1.0f, 3);
    glm::dvec3 sphereSum(0);
    for (const glm::dvec3& n : histogramOf(sphere).texels) sphereSum += n;
    EXPECT_LT(glm::length(sphereSum), 1e-9);
}

// Eq. 12 summed texel by texel over the normalised histogram, as the paper writes it.
double eq12(const EbpiNormalHistogram& histogram, const glm::dmat3& axes) {
    double total = 0.0, cost = 0.0;
    for (const glm::dvec3& n : histogram.texels) total += glm::length(n);
    for (const glm::dvec3& n : histogram.texels)
        for (int j = 0; j < 3; ++j) cost += std::pow(glm::dot(n / total, axes[j]), 4.0);
    return cost;
}

// The quartic form of the fourth moments is Eq. 12; its gradient matches central differences
// along random turns, on an irregular mesh.
TEST(EbpiDirections, QuarticFormIsEq12AndItsGradientMatchesFiniteDifferences) {
    const MeshData box = solids::box({1.0f, 2.0f, 0.5f});
    EbpiNormalHistogram histogram = histogramOf(box, rotation(0.4, {1, 2, 3}));
    ebpiAddToNormalHistogram(histogram, solids::sphere(0.7f, 1), glm::dmat3(1.0));
    std::mt19937 rng(7);
    std::normal_distribution<double> normal;
    for (int trial = 0; trial < 20; ++trial) {
        const glm::dmat3 axes = rotation(normal(rng), {normal(rng), normal(rng), normal(rng)});
        EXPECT_NEAR(ebpiDirectionCost(histogram, axes), eq12(histogram, axes), 1e-12) << "trial " << trial;
        const glm::dvec3 gradient = ebpiDirectionCostGradient(histogram, axes);
        for (int k = 0; k < 3; ++k) {
            glm::dvec3 w(0);
            w[k] = 1e-6;
            const double plus = ebpiDirectionCost(histogram, rotation(1e-6, w) * axes);
            const double minus = ebpiDirectionCost(histogram, rotation(-1e-6, w) * axes);
            EXPECT_NEAR(gradient[k], (plus - minus) / 2e-6, 1e-6 * std::abs(gradient[k]) + 1e-12)
                << "trial " << trial << ", axis " << k;
        }
    }
}

// World axes are the worst choice for an axis-aligned box: each axis runs along four of its faces.
// The optimised directions lean on every face (no ray within 15 degrees of a face's plane), cost at
// most half as much, and no small turn improves them (a local minimum).
TEST(EbpiDirections, AxisAlignedBoxGetsDirectionsAwayFromEveryFace) {
    const EbpiNormalHistogram histogram = histogramOf(solids::box({1.0f, 1.0f, 1.0f}));
    const double identityCost = ebpiDirectionCost(histogram, glm::dmat3(1.0));
    EXPECT_NEAR(identityCost, 6.0 / 1296.0, 1e-15);  // six faces of 1/6 of the area, each along one axis
    const glm::dmat3 axes = ebpiOptimizeDirections(histogram, glm::dmat3(1.0));
    EXPECT_NEAR(glm::determinant(axes), 1.0, 1e-12);
    EXPECT_NEAR(glm::length(glm::transpose(axes) * axes[0] - glm::dvec3(1, 0, 0)), 0.0, 1e-12);
    const double cost = ebpiDirectionCost(histogram, axes);
    EXPECT_LT(cost, 0.5 * identityCost);
    EXPECT_GT(smallestLean(axes), std::sin(15.0 * 3.14159265358979 / 180.0)) << "a ray nearly along a face";
    std::printf("box: cost %.5f of the world axes' %.5f; every ray at least %.1f degrees off every face\n", cost,
                identityCost, std::asin(smallestLean(axes)) * 180.0 / 3.14159265358979);
    std::mt19937 rng(3);
    std::normal_distribution<double> normal;
    for (int trial = 0; trial < 200; ++trial) {
        const glm::dvec3 w(normal(rng), normal(rng), normal(rng));
        EXPECT_GE(ebpiDirectionCost(histogram, rotation(1e-3, w) * axes), cost * (1.0 - 1e-9)) << "trial " << trial;
    }
}

// Warm start (Sec. 4.4's time coherence): from last frame's optimum of a slightly turned mesh, the
// new optimum is near the old one turned alike, not a jump to another minimum; the same input gives
// the same axes bit for bit; and the result never costs more than where it started, unless that
// start left a face nearly parallel to a ray (then the result leans off every face).
TEST(EbpiDirections, WarmStartFollowsASlowTurnAndIsDeterministic) {
    const MeshData box = solids::box({1.0f, 1.5f, 0.8f});
    const EbpiNormalHistogram first = histogramOf(box);
    const glm::dmat3 axes = ebpiOptimizeDirections(first, glm::dmat3(1.0));
    EXPECT_EQ(ebpiOptimizeDirections(first, glm::dmat3(1.0)), axes);
    const glm::dmat3 step = rotation(0.01, {0.3, -1.0, 0.5});
    const EbpiNormalHistogram turned = histogramOf(box, step);
    const glm::dmat3 followed = ebpiOptimizeDirections(turned, axes, 0);  // no restarts: the descent alone
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(glm::length(followed[j] - step * axes[j]), 0.0, 1e-4) << "axis " << j;
    std::mt19937 rng(11);
    std::normal_distribution<double> normal;
    for (int trial = 0; trial < 10; ++trial) {
        const glm::dmat3 start = rotation(normal(rng), {normal(rng), normal(rng), normal(rng)});
        const glm::dmat3 optimized = ebpiOptimizeDirections(turned, start);
        if (ebpiSmallestFaceLean(turned, start) >= gpu::kEbpiMinimumLean)
            EXPECT_LE(ebpiDirectionCost(turned, optimized), ebpiDirectionCost(turned, start));
        else  // a start that close to a face may be cheaper in Eq. 12: never kept, the result leans off
            EXPECT_GE(ebpiSmallestFaceLean(turned, optimized), gpu::kEbpiMinimumLean);
    }
}

// Boxes of unequal sides, the commonest collider, alone and in pairs at random poses (aligned,
// yawed about a shared axis, turned at random): every ray direction leans at least
// kEbpiMinimumLean (about 7 degrees) on every face, where Eq. 12's own minimum leaves an axis in a
// face's plane (the (0, -0.75, 0.66) on a game host's box colliders). A sphere has no
// significant face: its axes are Eq. 12's minimum, untouched.
TEST(EbpiDirections, BoxesOfUnequalSidesGetEveryRayOffEveryFace) {
    std::mt19937 rng(34);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_real_distribution<float> side(0.2f, 3.0f);
    double smallest = 1.0;
    for (int trial = 0; trial < 60; ++trial) {
        const MeshData a = solids::box({side(rng), side(rng), side(rng)});
        const MeshData b = solids::box({side(rng), side(rng), side(rng)});
        const glm::dvec3 axis(unit(rng), unit(rng), unit(rng));
        const glm::dmat3 turn = trial % 3 == 0   ? glm::dmat3(1.0)
                                : trial % 3 == 1 ? rotation(3.0 * unit(rng), {0.0, 1.0, 0.0})
                                                 : rotation(3.0 * unit(rng), axis);
        EbpiNormalHistogram histogram = histogramOf(a);
        if (trial % 2 == 1) ebpiAddToNormalHistogram(histogram, b, turn);  // odd trials: a pair
        const glm::dmat3 axes = ebpiOptimizeDirections(histogram, glm::dmat3(1.0));
        const double lean = ebpiSmallestFaceLean(histogram, axes);
        EXPECT_GE(lean, gpu::kEbpiMinimumLean) << "trial " << trial;
        EXPECT_NEAR(glm::determinant(axes), 1.0, 1e-12);
        smallest = std::min(smallest, lean);
    }
    std::printf("60 boxes and box pairs: every ray at least %.1f degrees off every face\n",
                std::asin(smallest) * 180.0 / 3.14159265358979);
    const EbpiNormalHistogram sphere = histogramOf(solids::sphere(1.0f, 3));
    EXPECT_EQ(ebpiSmallestFaceLean(sphere, glm::dmat3(1.0)), 1.0) << "no texel holds 1/32 of a sphere";
}

}  // namespace
}  // namespace vkc
