// Paper 5's Fig. 9 (right): rays of the adaptive plan (planEbpiRays: pyramid, coarsening, per-pixel
// splits) against a uniform grid of equal bound (every pixel split n x n, the smallest n whose
// summed bound, ebpiSubdividedPixelBound, is at most the adaptive plan's achieved bound), for the
// meshes README's pairs in the first view EbpiDetector would make along an oblique direction
// (window: the overlap box; both meshes' edges and the crossings of their surfaces in one EBPI). The ratios are printed; the
// adaptive plan must need at most a fifth of the uniform grid's rays. (The torus pair, 8,700
// triangles each, misses its share at 64 x 64 splits in some pixel even at 50%: its nearly steep
// faces, collision/ebpi/README.md "How tight the bound is".)
#include "collision/ebpi/ebpi_edge_terms.h"
#include "collision/ebpi/ebpi_fixed_point.h"
#include "collision/ebpi/ebpi_image.h"
#include "collision/ebpi/ebpi_pair_views.h"
#include "collision/ebpi/ebpi_ray_plan.h"
#include "collision/ebpi/ebpi_subdivision.h"
#include "collision/ebpi/ebpi_transient_edges.h"
#include "tests/ebpi/ebpi_test_meshes.h"
#include "tests/ebpi/ebpi_volume_scenes.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <cstdio>

namespace vkc {
namespace {

constexpr uint32_t kPixels = 64;
constexpr uint32_t kMaxSplit = 64;

struct PairCase {
    const char* file;
    glm::vec3 offset;
    double volume;     // the meshes README's exact intersection volume
    double tolerance;  // relative to it
};

// Rays a uniform n x n split of every pixel needs to reach `bound`; past kMaxSplit the count at
// kMaxSplit (so the ratio below is an upper bound).
uint64_t uniformRays(const EbpiImage& image, double bound) {
    const uint64_t pixels = uint64_t(image.window.width) * image.window.height;
    for (uint32_t n = 1; n <= kMaxSplit; ++n) {
        double total = 0.0;
        for (uint32_t y = 0; y < image.window.height; ++y)
            for (uint32_t x = 0; x < image.window.width; ++x) total += ebpiSubdividedPixelBound(image, x, y, n, n);
        if (total <= bound) return pixels * n * n;
    }
    return pixels * kMaxSplit * kMaxSplit;
}

TEST(EbpiRayRatio, AdaptiveNeedsAtMostAFifthOfTheUniformGridsRays) {
    const PairCase cases[] = {{"cube.stl", {0.5f, 0.5f, 0.5f}, 0.125, 0.05},
                              {"sphere_ico4.stl", {1.0f, 0.0f, 0.0f}, 1.29100111077, 0.05}};
    // An oblique frame: its first axis along (1, 2, 3).
    const glm::dvec3 x = glm::normalize(glm::dvec3(1.0, 2.0, 3.0));
    const glm::dvec3 y = glm::normalize(glm::cross(x, glm::dvec3(0.0, 0.0, 1.0)));
    const glm::dmat3 axes(x, y, glm::cross(x, y));
    for (const PairCase& c : cases) {
        SCOPED_TRACE(c.file);
        auto mesh = ebpi_test::sharedMesh(c.file);
        if (!mesh) {
            if (test::deviceRequired()) FAIL() << mesh.status().describe();
            GTEST_SKIP() << mesh.status().describe();
        }
        // The pair's first view as EbpiDetector makes it (window: the overlap box seen along x).
        const glm::dmat4 tB = glm::translate(glm::dmat4(1.0), glm::dvec3(c.offset));
        const EbpiBox boxA = ebpiObjectBox(placedMeshBounds(*mesh, glm::dmat4(1.0)), &mesh.value(), glm::dmat4(1.0));
        const EbpiBox boxB = ebpiObjectBox(placedMeshBounds(*mesh, tB), &mesh.value(), tB);
        const std::optional<EbpiPairViews> views = ebpiPairViews(boxA, boxB, axes, kPixels);
        ASSERT_TRUE(views);
        const EbpiPairView& view = views->views[0];
        std::vector<EbpiEdgeTerm> terms;
        const glm::mat4 localA(glm::translate(glm::dmat4(1.0), -views->origin));
        const glm::mat4 localB(glm::translate(glm::dmat4(1.0), -views->origin) * tB);
        for (const glm::mat4& local : {localA, localB}) {
            const std::vector<EbpiEdgeTerm> edges = ebpiEdgeTerms(toEbpiRayFrame(*mesh, local, view.rotation));
            terms.insert(terms.end(), edges.begin(), edges.end());
        }
        const EbpiBox overlap{glm::max(boxA.lo, boxB.lo) - views->origin, glm::min(boxA.hi, boxB.hi) - views->origin};
        const std::vector<EbpiEdgeTerm> crossings =
            ebpiTransientEdgeTerms(ebpiSurfaceCrossings(*mesh, localA, *mesh, localB, overlap), view.rotation);
        terms.insert(terms.end(), crossings.begin(), crossings.end());
        const EbpiWindow& window = view.window;

        const double tolerance = c.tolerance * c.volume;
        const EbpiRayPlan adaptive = planEbpiRays(buildEbpiFixedImage(terms, window), tolerance, kMaxSplit);
        ASSERT_FALSE(adaptive.boundNotMet);
        const uint64_t uniform = uniformRays(buildEbpiImage(terms, window), adaptive.achievedBound);
        const double ratio = double(adaptive.rays.size()) / double(uniform);
        std::printf("%s: adaptive %zu rays (bound %.3g of tolerance %.3g), uniform grid of that bound %llu rays: "
                    "ratio %.3f\n",
                    c.file, adaptive.rays.size(), adaptive.achievedBound, tolerance, (unsigned long long)uniform, ratio);
        EXPECT_LE(ratio, 0.2);
    }
}

}  // namespace
}  // namespace vkc
