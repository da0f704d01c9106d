// Tier A: ebpi's watertight ray-triangle test (shaders_glsl/shared/ebpi_trace.h, the text the
// shaders compile) run on the CPU against the exact reference (tests/ebpi/ebpi_trace_oracle.h)
// on rays exactly through shared edges and vertices, and on rays grazing them by one float ulp.
#include "tests/ebpi/ebpi_trace_scenes.h"

#include <gtest/gtest.h>

#include <cmath>

namespace vkc {
namespace {

using namespace ebpi_test;

// The shared test over every triangle of the ray's objects, sorted like the GPU's sort pass.
std::vector<OracleHit> sharedTestHits(const gpu::EbpiRayGpu& ray, const std::vector<TraceObject>& objects) {
    std::vector<OracleHit> hits;
    for (int k = 0; k < 2; ++k) {
        const uint32_t object = k == 0 ? ray.objectA : ray.objectB;
        if (object == gpu::kEbpiNoObject || (k == 1 && object == ray.objectA)) continue;
        const TraceObject& o = objects[object];
        for (uint32_t t = 0; t < o.mesh->triangleCount(); ++t) {
            const gpu::EbpiTriangleHit h = gpu::ebpiTraceTriangle(
                glm::vec3(ray.origin), glm::vec3(ray.direction), ray.origin.w, ray.direction.w,
                worldVertex(o, o.mesh->indices[3 * t]), worldVertex(o, o.mesh->indices[3 * t + 1]),
                worldVertex(o, o.mesh->indices[3 * t + 2]));
            if (h.hit) hits.push_back({double(h.t), object, t, h.entering});
        }
    }
    std::sort(hits.begin(), hits.end(), [](const OracleHit& x, const OracleHit& y) {
        return std::tie(x.t, x.object, x.triangle) < std::tie(y.t, y.object, y.triangle);
    });
    return hits;
}

::testing::AssertionResult sameHits(const std::vector<OracleHit>& got, const std::vector<OracleHit>& expected) {
    if (got.size() != expected.size())
        return ::testing::AssertionFailure() << got.size() << " hits, expected " << expected.size();
    for (size_t i = 0; i < got.size(); ++i)
        if (got[i].object != expected[i].object || got[i].triangle != expected[i].triangle ||
            got[i].entering != expected[i].entering ||
            std::abs(got[i].t - expected[i].t) > 1e-5 * (1 + std::abs(got[i].t)))
            return ::testing::AssertionFailure()
                   << "hit " << i << ": triangle " << got[i].triangle << " t " << got[i].t << ", expected triangle "
                   << expected[i].triangle << " t " << expected[i].t;
    return ::testing::AssertionSuccess();
}

std::vector<TraceObject> cubeAndOctahedron(const MeshData& cube, const MeshData& octahedron) {
    return {{&cube, glm::mat4(1.0f)}, {&octahedron, glm::translate(glm::mat4(1.0f), glm::vec3(0.5f, 0.0f, 0.0f))}};
}

TEST(EbpiTraceCpuTest, EdgeAndVertexRaysMatchTheExactReferenceAndBalance) {
    const MeshData cube = cubeMesh(), octahedron = octahedronMesh();
    const std::vector<TraceObject> objects = cubeAndOctahedron(cube, octahedron);
    size_t hits = 0;
    for (const gpu::EbpiRayGpu& ray : exactEdgeRays(0, 1)) {
        const std::vector<OracleHit> expected = oracleHits(ray, objects);
        EXPECT_TRUE(sameHits(sharedTestHits(ray, objects), expected));
        const std::string unbalanced = unbalancedObject(expected);
        EXPECT_TRUE(unbalanced.empty()) << unbalanced;
        hits += expected.size();
    }
    EXPECT_GT(hits, 500u);
}

// Through the cube's face diagonal x = y on z = -1 (a shared edge of the face's two triangles)
// and through its corner: one entry, one exit, and the hit triangle changes with the side the
// ray is nudged to by one ulp.
TEST(EbpiTraceCpuTest, ASharedEdgeBelongsToExactlyOneTriangle) {
    const MeshData cube = cubeMesh();
    const std::vector<TraceObject> objects = {{&cube, glm::mat4(1.0f)}};
    std::vector<uint32_t> entered;
    for (float x : {std::nextafter(0.25f, 0.0f), 0.25f, std::nextafter(0.25f, 1.0f)}) {
        const gpu::EbpiRayGpu ray = makeRay({x, 0.25f, -4.0f}, {0.0f, 0.0f, 1.0f}, 8.0f, 0, gpu::kEbpiNoObject);
        const std::vector<OracleHit> shared = sharedTestHits(ray, objects);
        EXPECT_TRUE(sameHits(shared, oracleHits(ray, objects)));
        ASSERT_EQ(shared.size(), 2u);
        EXPECT_TRUE(shared[0].entering);
        EXPECT_FALSE(shared[1].entering);
        entered.push_back(shared[0].triangle);
    }
    // The ray on the edge goes to one of the two triangles the nudged rays meet.
    EXPECT_NE(entered[0], entered[2]);
    EXPECT_TRUE(entered[1] == entered[0] || entered[1] == entered[2]);
    // The cube's corner (-1, -1, -1) along the space diagonal: three faces, six triangles meet.
    const gpu::EbpiRayGpu corner = makeRay({-3.0f, -3.0f, -3.0f}, {1.0f, 1.0f, 1.0f}, 5.0f, 0, gpu::kEbpiNoObject);
    const std::vector<OracleHit> shared = sharedTestHits(corner, objects);
    EXPECT_TRUE(sameHits(shared, oracleHits(corner, objects)));
    ASSERT_EQ(shared.size(), 2u);
    EXPECT_EQ(shared[0].t, 2.0);
    EXPECT_EQ(shared[1].t, 4.0);
}

}  // namespace
}  // namespace vkc
