// Tier A: the tube bound ldi_drawn_bound.comp states, evaluated on the CPU (ldi_tube_bound.h, which
// the GPU tests hold the shader to): the topology it reads (ldi_drawn_bound_topology.h), and the
// bound against the exact volume of a cube's tube and against a Monte Carlo measure of a coarse
// torus's tube (saddle vertices and concave edges), whose points' distances CGAL computes.
#include "collision/ldi/ldi_drawn_bound_topology.h"
#include "collision/scene/generated_solids.h"
#include "shaders_glsl/shared/ldi.h"
#include "tests/ldi/ldi_tube_bound.h"

#include <CGAL/AABB_traits.h>
#include <CGAL/AABB_tree.h>
#include <CGAL/AABB_triangle_primitive.h>
#include <CGAL/Simple_cartesian.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <numbers>
#include <random>
#include <set>
#include <vector>

namespace vkc {
namespace {

// Every side's vertex across is the third vertex of another triangle on that side, and every
// corner's valence counts the triangles holding its vertex.
void expectSidesMatchTheTriangles(const MeshData& mesh, const LdiMeshSides& sides) {
    const std::vector<uint32_t>& index = mesh.indices;
    ASSERT_EQ(sides.across.size(), index.size());
    std::map<uint32_t, uint32_t> holding;
    for (uint32_t v : index) ++holding[v];
    for (size_t t = 0; t < index.size() / 3; ++t)
        for (int k = 0; k < 3; ++k) {
            const size_t i = 3 * t + k;
            EXPECT_EQ(sides.valence[i], std::min<uint32_t>(holding[index[i]], 255u));
            const uint32_t p = index[i], q = index[3 * t + (k + 1) % 3];
            std::vector<std::set<uint32_t>> others;  // the other triangles on side (p, q)
            for (size_t u = 0; u < index.size() / 3; ++u) {
                const std::set<uint32_t> corners = {index[3 * u], index[3 * u + 1], index[3 * u + 2]};
                if (u != t && corners.count(p) && corners.count(q)) others.push_back(corners);
            }
            if (others.size() == 1 && others[0].size() == 3) {
                others[0].erase(p);
                others[0].erase(q);
                EXPECT_EQ(sides.across[i], *others[0].begin()) << "triangle " << t << " side " << k;
            } else
                EXPECT_EQ(sides.across[i], gpu::kLdiNoVertexAcross) << "triangle " << t << " side " << k;
        }
}

TEST(LdiTubeBound, SidesKnowTheVertexAcrossAndCornersTheirValence) {
    for (const MeshData& mesh : {solids::box({1.0f, 2.0f, 0.5f}), solids::sphere(1.0f, 1), solids::torus(1.0f, 0.3f, 8)}) {
        const LdiMeshSides sides = ldiMeshSides(mesh.indices);
        expectSidesMatchTheTriangles(mesh, sides);
        for (uint32_t across : sides.across) EXPECT_NE(across, gpu::kLdiNoVertexAcross) << "a closed mesh";
    }
    // Open: a sphere less one triangle; the three sides around the hole know no vertex across.
    MeshData open = solids::sphere(1.0f, 1);
    open.indices.resize(open.indices.size() - 3);
    const LdiMeshSides sides = ldiMeshSides(open.indices);
    expectSidesMatchTheTriangles(open, sides);
    EXPECT_EQ(std::count(sides.across.begin(), sides.across.end(), gpu::kLdiNoVertexAcross), 3);
    // A fin (a third triangle on one edge) and a triangle that repeats a vertex.
    MeshData odd = solids::box({1.0f, 1.0f, 1.0f});
    const uint32_t fin = uint32_t(odd.positions.size());
    odd.positions.push_back({2.0f, 2.0f, 2.0f});
    odd.indices.insert(odd.indices.end(), {odd.indices[0], odd.indices[1], fin, odd.indices[2], odd.indices[2], fin});
    expectSidesMatchTheTriangles(odd, ldiMeshSides(odd.indices));
}

// A cube's tube of radius d: outside, its Steiner volume less the cube (faces, quarter cylinders on
// the edges, a ball in eighths at the corners); inside, the cube less the cube of side a - 2d.
TEST(LdiTubeBound, HoldsTheExactTubeOfACube) {
    constexpr double a = 1.0, pi = std::numbers::pi;
    const MeshData cube = solids::box(glm::vec3(float(a)));
    for (double d : {0.01, 0.05, 0.2}) {
        const double outside = 6 * a * a * d + 3 * pi * a * d * d + 4.0 / 3.0 * pi * d * d * d;
        const double inside = a * a * a - std::pow(a - 2 * d, 3);
        const double bound = ldi_test::tubeBound(cube, glm::dmat4(1.0), d, 0.0);
        EXPECT_GE(bound, outside + inside) << "d " << d;
        EXPECT_LE(bound, 1.25 * (outside + inside)) << "d " << d;  // the inner slabs overlap as d grows
    }
}

// A torus of 8 x 8 quads (each two triangles) at a radius d of a fifth of its tube: its tube's
// volume measured by 200,000 seeded points in its box grown by d, each within d of the surface by
// CGAL's distance. The bound holds it (beyond four standard errors) and stays within 40% of it.
TEST(LdiTubeBound, HoldsAMonteCarloMeasureOfATorusTube) {
    using Kernel = CGAL::Simple_cartesian<double>;
    using Triangles = std::vector<Kernel::Triangle_3>;
    using Tree = CGAL::AABB_tree<CGAL::AABB_traits<Kernel, CGAL::AABB_triangle_primitive<Kernel, Triangles::const_iterator>>>;
    const MeshData torus = solids::torus(1.0f, 0.4f, 8);
    const double d = 0.08;
    Triangles triangles;
    glm::dvec3 lo(INFINITY), hi(-INFINITY);
    for (size_t t = 0; t + 2 < torus.indices.size(); t += 3) {
        Kernel::Point_3 corner[3];
        for (int c = 0; c < 3; ++c) {
            const glm::dvec3 p(torus.positions[torus.indices[t + c]]);
            lo = glm::min(lo, p);
            hi = glm::max(hi, p);
            corner[c] = {p.x, p.y, p.z};
        }
        triangles.emplace_back(corner[0], corner[1], corner[2]);
    }
    Tree tree(triangles.begin(), triangles.end());
    lo -= d;
    hi += d;
    std::mt19937_64 random(20261127);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    constexpr int kSamples = 200000;
    int within = 0;
    for (int i = 0; i < kSamples; ++i) {
        const glm::dvec3 p = lo + (hi - lo) * glm::dvec3(unit(random), unit(random), unit(random));
        within += tree.squared_distance(Kernel::Point_3(p.x, p.y, p.z)) <= d * d;
    }
    const double boxVolume = (hi.x - lo.x) * (hi.y - lo.y) * (hi.z - lo.z);
    const double fraction = double(within) / kSamples;
    const double measured = fraction * boxVolume;
    const double standardError = std::sqrt(fraction * (1.0 - fraction) / kSamples) * boxVolume;
    const double bound = ldi_test::tubeBound(torus, glm::dmat4(1.0), d, 0.0);
    std::printf("torus tube: measured %.5f +- %.5f, bound %.5f\n", measured, standardError, bound);
    EXPECT_GE(bound, measured - 4.0 * standardError);
    EXPECT_LE(bound, 1.4 * measured);
}

}  // namespace
}  // namespace vkc
