// Method ebpi (paper 5): audit of the conservative EBPI bound without ray casting. For seeded
// random closed meshes (perturbed spheres, tori and boxes seen along random directions, prisms
// with exactly steep walls and raised or sunk caps; many pixels hold vertices, short edges,
// ridges and valleys) and several tile sizes, every tile's exact midpoint-quadrature error must
// stay within its EBPI bound. The paper's Alg. 1 signs or Eq. 8 count fail it (see README).
#include "collision/ebpi/ebpi_edge_terms.h"
#include "collision/scene/generated_solids.h"
#include "tests/ebpi/ebpi_bound_audit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

namespace vkc {
namespace {

using ebpi_test::AuditTotals;

// Every tile of `mesh`'s window against the EBPI of its own edges.
void auditMesh(const EbpiRayMesh& mesh, const EbpiWindow& window, const std::string& label, AuditTotals& totals) {
    ebpi_test::auditTiles(mesh, buildEbpiImage(ebpiEdgeTerms(mesh), window), window, label, totals);
}

glm::dvec3 randomDirection(std::mt19937& rng) {
    std::normal_distribution<double> n;
    return {n(rng), n(rng), n(rng)};
}

TEST(EbpiBoundAudit, PerturbedSpheresToriAndBoxesAlongRandomDirections) {
    std::mt19937 rng(20261125);
    AuditTotals totals;
    for (int trial = 0; trial < 6; ++trial) {
        const MeshData sphere = ebpi_test::perturbedRadially(solids::sphere(1.0f, 1 + trial % 3), 0.3, rng);
        const MeshData torus = ebpi_test::perturbedRadially(solids::torus(1.0f, 0.4f, 8 + 2 * trial), 0.08, rng);
        const MeshData box = ebpi_test::perturbedRadially(solids::box({1.0f, 0.6f, 1.4f}), 0.2, rng);
        for (const MeshData* mesh : {&sphere, &torus, &box}) {
            const EbpiRayMesh inRayFrame = toEbpiRayFrame(*mesh, randomDirection(rng));
            // Coarse pixels put many vertices and short edges in one tile, fine ones few.
            for (const uint32_t pixels : {6u, 17u})
                auditMesh(inRayFrame, ebpi_test::windowAround(inRayFrame, pixels),
                          "trial " + std::to_string(trial) + " " + mesh->name, totals);
        }
    }
    EXPECT_EQ(totals.violations, 0u) << totals.firstViolation;
    EXPECT_GT(totals.tilesWithError, totals.tiles / 4) << "the audit must exercise the bound";
    RecordProperty("worst_error_over_bound", std::to_string(totals.worstRatio));
    std::printf("tiles %zu, with error %zu, worst error/bound %.3f\n", totals.tiles, totals.tilesWithError,
                totals.worstRatio);
}

TEST(EbpiBoundAudit, PrismsWithSteepWallsAlongTheirAxis) {
    std::mt19937 rng(5);
    AuditTotals totals;
    for (int trial = 0; trial < 10; ++trial) {
        const EbpiRayMesh prism = ebpi_test::wallPrism(trial % 2 ? 5 + trial : 30 + trial, rng);
        for (const uint32_t pixels : {5u, 16u})
            auditMesh(prism, ebpi_test::windowAround(prism, pixels), "prism " + std::to_string(trial), totals);
    }
    EXPECT_EQ(totals.violations, 0u) << totals.firstViolation;
    EXPECT_GT(totals.tilesWithError, totals.tiles / 4) << "the audit must exercise the bound";
    std::printf("tiles %zu, with error %zu, worst error/bound %.3f\n", totals.tiles, totals.tilesWithError,
                totals.worstRatio);
}

TEST(EbpiBoundAudit, PillarsAndSpikesThinnerThanATile) {
    // Where Eq. 8's count fails: steep or spiky features much thinner than a tile, which a tile's
    // ray hits whole. They stand on pixel centres and corners (the centres of 1x1 and 2x2 tiles).
    std::mt19937 rng(77);
    std::uniform_int_distribution<int> gridPoint(1, 11);
    std::uniform_real_distribution<double> depth(-1, 1), thin(0.005, 0.05), tall(0.2, 2), jitter(-0.002, 0.002);
    const EbpiWindow window{{-1, -1}, {2.0 / 6, 2.0 / 6}, 6, 6};
    AuditTotals totals;
    for (int trial = 0; trial < 8; ++trial) {
        EbpiRayMesh scene;
        for (int k = 0; k < 12; ++k) {
            // Half-pixel grid points: pixel centres (odd) and corners (even).
            const glm::dvec2 at = window.origin + glm::dvec2(gridPoint(rng), gridPoint(rng)) * window.pixelSize / 2.0 +
                                  glm::dvec2(jitter(rng), jitter(rng));
            const double z = depth(rng);
            // Even trials: only flat-topped pillars, whose error is all steep-wall depth.
            if (k % 2 || trial % 2 == 0) {
                const glm::dvec2 half(thin(rng), thin(rng));
                ebpi_test::append(
                    scene, ebpi_test::alignedBox(glm::dvec3(at - half, z), glm::dvec3(at + half, z + tall(rng))));
            } else {
                EbpiRayMesh spike = ebpi_test::wallPrism(5 + k, rng);
                for (glm::dvec3& p : spike.positions) p = glm::dvec3(at + glm::dvec2(p) * 0.03, z + p.z);
                ebpi_test::append(scene, spike);
            }
        }
        auditMesh(scene, window, "pillars " + std::to_string(trial), totals);
    }
    EXPECT_EQ(totals.violations, 0u) << totals.firstViolation;
    EXPECT_GT(totals.tilesWithError, totals.tiles / 4);
    std::printf("tiles %zu, with error %zu, worst error/bound %.3f\n", totals.tiles, totals.tilesWithError,
                totals.worstRatio);
}

TEST(EbpiBoundAudit, SymmetricRidgesAcrossTiles) {
    // The case Alg. 1 gets wrong, with the ridge line anywhere in the tiles.
    std::mt19937 rng(12);
    AuditTotals totals;
    for (int trial = 0; trial < 8; ++trial) {
        EbpiRayMesh roof = ebpi_test::symmetricRidge(std::uniform_real_distribution<double>(0.3, 4)(rng), 1.5);
        const double shift = std::uniform_real_distribution<double>(-0.2, 0.2)(rng);
        for (glm::dvec3& p : roof.positions) p.x += shift;
        for (const uint32_t pixels : {4u, 9u})
            auditMesh(roof, ebpi_test::windowAround(roof, pixels), "ridge " + std::to_string(trial), totals);
    }
    EXPECT_EQ(totals.violations, 0u) << totals.firstViolation;
    EXPECT_GT(totals.tilesWithError, 0u);
}

}  // namespace
}  // namespace vkc
