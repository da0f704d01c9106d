// Method ebpi (paper 5): audit of a pair's EBPI without ray casting. What the rays of a pair
// measure is the depth span of A ∩ B, whose surface CGAL's exact corefinement gives; the pair's
// EBPI holds both meshes' edges that meet the region box (the grown overlap of the pair's boxes,
// EbpiEdgeRegion) and the transient edges where the surfaces cross. For seeded random pairs of
// perturbed spheres, tori and boxes in random overlapping poses, along random directions, every
// tile's exact midpoint-quadrature error of A ∩ B must stay within that EBPI's bound; the region
// must have dropped edges; and a region cut short of the overlap must break the bound somewhere
// (the audit can fail). Paper 5's Fig. 10 tile by tile: a box and a cross turning against a box
// keep the bound with the transient edges and break it without them.
#include "collision/ebpi/ebpi_edge_terms.h"
#include "collision/ebpi/ebpi_transient_edges.h"
#include "collision/reference/intersection_volume.h"
#include "collision/scene/generated_solids.h"
#include "tests/ebpi/ebpi_bound_audit.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <optional>
#include <random>

namespace vkc {
namespace {

glm::dvec3 randomUnit(std::mt19937& rng) {
    std::normal_distribution<double> n;
    return glm::normalize(glm::dvec3(n(rng), n(rng), n(rng)));
}

// `mesh` turned by a random rotation and moved by `offset`, baked into its float positions.
MeshData placed(MeshData mesh, std::mt19937& rng, const glm::dvec3& offset) {
    const glm::mat4 m = glm::translate(glm::mat4(1.0f), glm::vec3(offset)) *
                        glm::rotate(glm::mat4(1.0f), float(std::uniform_real_distribution<double>(0, 6.2)(rng)),
                                    glm::vec3(randomUnit(rng)));
    for (glm::vec3& p : mesh.positions) p = glm::vec3(m * glm::vec4(p, 1.0f));
    return mesh;
}

EbpiBox boxOf(const MeshData& mesh) {
    EbpiBox box{glm::dvec3(INFINITY), glm::dvec3(-INFINITY)};
    for (const glm::vec3& p : mesh.positions) {
        box.lo = glm::min(box.lo, glm::dvec3(p));
        box.hi = glm::max(box.hi, glm::dvec3(p));
    }
    return box;
}

EbpiRayMesh rotated(const reference::WorldMesh& mesh, const EbpiRotation& rotation) {
    EbpiRayMesh out{{}, mesh.indices};
    for (const glm::dvec3& p : mesh.positions)
        out.positions.emplace_back(glm::dot(rotation.rows[0], p), glm::dot(rotation.rows[1], p),
                                   glm::dot(rotation.rows[2], p));
    return out;
}

struct PairAudit {
    ebpi_test::AuditTotals totals;  // the grown overlap as the region
    ebpi_test::AuditTotals cutShort;  // a region that misses part of the overlap
    size_t termsKept = 0, termsDropped = 0, pairs = 0;
};

// One pair along one direction: the EBPI of the edges that meet `region` plus the transient edges
// (unless `withCrossings` is false), against A ∩ B over a window around it.
EbpiImage pairImage(const MeshData& a, const MeshData& b, const EbpiRotation& rotation, const EbpiBox& overlap,
                    const EbpiEdgeRegion& region, const EbpiWindow& window, PairAudit* counts,
                    bool withCrossings = true) {
    std::vector<EbpiEdgeTerm> terms;
    if (withCrossings)
        terms = ebpiTransientEdgeTerms(ebpiSurfaceCrossings(a, glm::mat4(1.0f), b, glm::mat4(1.0f), overlap), rotation);
    for (const MeshData* mesh : {&a, &b}) {
        const EbpiRayMesh inRayFrame = toEbpiRayFrame(*mesh, glm::mat4(1.0f), rotation);
        const std::vector<EbpiEdgeTerm> kept = ebpiEdgeTerms(inRayFrame, EbpiSteepWallDepth::ConnectedWall, region);
        if (counts) {
            counts->termsKept += kept.size();
            counts->termsDropped += ebpiEdgeTerms(inRayFrame).size() - kept.size();
        }
        terms.insert(terms.end(), kept.begin(), kept.end());
    }
    return buildEbpiImage(terms, window);
}

// The intersection of `a` and `b` seen along `direction`; nullopt when they do not overlap.
std::optional<EbpiRayMesh> intersectionAlong(const MeshData& a, const MeshData& b, const EbpiRotation& rotation) {
    auto worldA = reference::toWorld(a, glm::dmat4(1.0));
    auto worldB = reference::toWorld(b, glm::dmat4(1.0));
    if (!worldA || !worldB) return std::nullopt;
    auto both = reference::intersectionMesh(worldA.value(), worldB.value());
    if (!both) return std::nullopt;  // disjoint or touching: nothing to integrate
    return rotated(both.value(), rotation);
}

void auditPair(const MeshData& a, const MeshData& b, const glm::dvec3& direction, const std::string& label,
               PairAudit& audit) {
    const EbpiRotation rotation = ebpiRotationTo(direction);
    const std::optional<EbpiRayMesh> both = intersectionAlong(a, b, rotation);
    if (!both) return;
    ++audit.pairs;
    const EbpiRayMesh& intersection = *both;
    const EbpiBox boxA = boxOf(a), boxB = boxOf(b);
    const EbpiBox overlap{glm::max(boxA.lo, boxB.lo), glm::min(boxA.hi, boxB.hi)};
    const glm::dvec3 grow(1e-3 * glm::length(overlap.hi - overlap.lo));
    // Cut short: the overlap's upper half along its longest side is left out.
    const glm::dvec3 size = overlap.hi - overlap.lo;
    const int longest = size.x >= size.y && size.x >= size.z ? 0 : size.y >= size.z ? 1 : 2;
    EbpiBox half = overlap;
    half.hi[longest] = overlap.lo[longest] + 0.5 * size[longest];
    for (const uint32_t pixels : {7u, 16u}) {
        const EbpiWindow window = ebpi_test::windowAround(intersection, pixels);
        const std::string where = label + " at " + std::to_string(pixels) + " px";
        ebpi_test::auditTiles(intersection,
                              pairImage(a, b, rotation, overlap, {rotation, overlap.lo - grow, overlap.hi + grow},
                                        window, &audit),
                              window, where, audit.totals);
        ebpi_test::auditTiles(intersection, pairImage(a, b, rotation, overlap, {rotation, half.lo, half.hi}, window, nullptr),
                              window, where + " (cut short)", audit.cutShort);
    }
}

TEST(EbpiPairAudit, IntersectionOfRandomPairsIsWithinTheEbpiOfTheRegionsEdgesAndTheTransientEdges) {
    std::mt19937 rng(20261125);
    PairAudit audit;
    for (int trial = 0; trial < 24; ++trial) {
        const MeshData shapes[] = {ebpi_test::perturbedRadially(solids::sphere(1.0f, 2), 0.2, rng),
                                   ebpi_test::perturbedRadially(solids::torus(1.0f, 0.4f, 10), 0.05, rng),
                                   ebpi_test::perturbedRadially(solids::box({1.6f, 1.0f, 1.2f}), 0.15, rng)};
        const MeshData& first = shapes[trial % 3];
        const MeshData& second = shapes[(trial / 3 + trial + 1) % 3];
        // Apart by 0.4 to 1.4 of a unit: from deep overlaps to shallow ones at the boxes' corners.
        const double distance = std::uniform_real_distribution<double>(0.4, 1.4)(rng);
        const MeshData a = placed(first, rng, glm::dvec3(0.0));
        const MeshData b = placed(second, rng, distance * randomUnit(rng));
        auditPair(a, b, randomUnit(rng), "trial " + std::to_string(trial) + " " + first.name + " & " + second.name,
                  audit);
    }
    EXPECT_GE(audit.pairs, 18u) << "most poses must overlap";
    EXPECT_EQ(audit.totals.violations, 0u) << audit.totals.firstViolation;
    EXPECT_GT(audit.totals.tilesWithError, audit.totals.tiles / 4) << "the audit must exercise the bound";
    EXPECT_GT(audit.termsDropped, audit.termsKept / 4) << "the region must leave edges out";
    EXPECT_GT(audit.cutShort.violations, 0u) << "a region short of the overlap must fail the audit";
    // Tight where it can be: some tile's error comes within half of its bound (0.987 when written),
    // so a bound inflated twice over, everywhere, fails here.
    EXPECT_GT(audit.totals.worstRatio, 0.5) << "the bound is loose on every tile";
    std::printf("pairs %zu, tiles %zu, with error %zu, worst error/bound %.3f; terms kept %zu, dropped %zu; "
                "region cut short: %zu violations\n",
                audit.pairs, audit.totals.tiles, audit.totals.tilesWithError, audit.totals.worstRatio, audit.termsKept,
                audit.termsDropped, audit.cutShort.violations);
}

// Fig. 10's shapes (EbpiDetectorTest.TransientEdgesKeepTheBoundOfABoxAndACrossTurningAgainstABox)
// at its poses, along three fixed oblique directions, every tile of a 16 x 16 window.
TEST(EbpiPairAudit, TransientEdgesAreNeededForTheBoxAndTheCrossTurningAgainstABox) {
    const MeshData fixed = solids::box(glm::vec3(2.0f, 1.0f, 1.0f));
    const MeshData shapes[] = {solids::box(glm::vec3(0.6f, 1.6f, 0.6f)), ebpi_test::crossPrism(0.4f, 0.9f, 0.5f)};
    const glm::dvec3 directions[] = {{1, 2, 3}, {-2, 1, 0.5}, {0.3, -0.4, 1}};
    for (const MeshData& shape : shapes) {
        ebpi_test::AuditTotals with, without;
        for (int pose = 0; pose < 8; ++pose) {
            const glm::dmat4 at = glm::rotate(glm::translate(glm::dmat4(1.0), {0.2 * pose - 0.7, 0.5, 0.1}),
                                              0.2 + 0.35 * pose, glm::dvec3(0.3, 0.4, 1.0));
            MeshData turning = shape;
            for (glm::vec3& p : turning.positions) p = glm::vec3(at * glm::dvec4(p, 1.0));
            const EbpiBox boxA = boxOf(fixed), boxB = boxOf(turning);
            const EbpiBox overlap{glm::max(boxA.lo, boxB.lo), glm::min(boxA.hi, boxB.hi)};
            const glm::dvec3 grow(1e-3 * glm::length(overlap.hi - overlap.lo));
            for (const glm::dvec3& direction : directions) {
                const EbpiRotation rotation = ebpiRotationTo(direction);
                const std::optional<EbpiRayMesh> both = intersectionAlong(fixed, turning, rotation);
                ASSERT_TRUE(both) << shape.name << " pose " << pose;
                const EbpiWindow window = ebpi_test::windowAround(*both, 16);
                const EbpiEdgeRegion region{rotation, overlap.lo - grow, overlap.hi + grow};
                const std::string where = shape.name + " pose " + std::to_string(pose);
                ebpi_test::auditTiles(*both, pairImage(fixed, turning, rotation, overlap, region, window, nullptr),
                                      window, where, with);
                ebpi_test::auditTiles(*both, pairImage(fixed, turning, rotation, overlap, region, window, nullptr, false),
                                      window, where + " without transient edges", without);
            }
        }
        std::printf("%s: %zu tiles; with transient edges %zu violations (worst error/bound %.3f), without %zu "
                    "(worst %.1f)\n",
                    shape.name.c_str(), with.tiles, with.violations, with.worstRatio, without.violations,
                    without.worstRatio);
        EXPECT_EQ(with.violations, 0u) << with.firstViolation;
        EXPECT_GT(without.violations, 0u) << shape.name << ": the crossings must matter";
    }
}

}  // namespace
}  // namespace vkc
