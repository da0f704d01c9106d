// Tier A (no device): unique edges and vertex adjacency per mesh, and the view fit the image-space
// frame setup runs on the GPU (shaders_glsl/shared/orthographic_fit.h, paper 1, section 6.5):
// overlap region to the viewport, drawn objects inside the depth range, positive determinant
// (outward counter-clockwise triangles stay front-facing), the inverse in closed form.
#include "collision/scene/generated_solids.h"
#include "collision/stencil/stencil_detector_internal.h"
#include "shaders_glsl/shared/orthographic_fit.h"

#include <glm/matrix.hpp>
#include <gtest/gtest.h>

#include <set>

namespace vkc {
namespace {

TEST(StencilTopology, BoxHasEighteenUniqueEdgesAndFullAdjacency) {
    MeshData box = solids::box({1.0f, 2.0f, 3.0f});
    MeshData sphere = solids::sphere(1.0f, 1);
    const MeshData* meshes[] = {&box, &sphere};
    StencilTopology topology = buildStencilTopology(meshes);
    ASSERT_EQ(topology.ranges.size(), 2u);
    // A closed triangle mesh has 3T/2 edges: 12 triangles -> 18 edges.
    EXPECT_EQ(topology.ranges[0].edgeCount, 2u * 18u);
    EXPECT_EQ(topology.ranges[1].edgeCount, 2u * (sphere.triangleCount() * 3 / 2));
    EXPECT_EQ(topology.totalVertices, box.positions.size() + sphere.positions.size());
    EXPECT_EQ(topology.normals[1].normalBase, box.positions.size());
    for (size_t m = 0; m < 2; ++m) {
        const MeshData& mesh = *meshes[m];
        const StencilMeshRange& range = topology.ranges[m];
        std::set<std::pair<uint32_t, uint32_t>> edges;
        for (uint32_t i = 0; i < range.edgeCount; i += 2) {
            uint32_t a = topology.data[range.edgeFirst + i], b = topology.data[range.edgeFirst + i + 1];
            EXPECT_LT(a, b);
            EXPECT_TRUE(edges.insert({a, b}).second) << "edge drawn twice";
        }
        const gpu::StencilNormalsPush& n = topology.normals[m];
        size_t adjacent = 0;
        for (uint32_t v = 0; v < n.vertices.count; ++v) {
            for (uint32_t k = topology.data[n.adjacencyBase + v]; k < topology.data[n.adjacencyBase + v + 1]; ++k) {
                uint32_t t = topology.data[n.listBase + k];
                const uint32_t* tri = &topology.data[n.triangleBase + t * 3];
                EXPECT_TRUE(tri[0] == v || tri[1] == v || tri[2] == v);
                ++adjacent;
            }
        }
        EXPECT_EQ(adjacent, mesh.indices.size());
    }
}

TEST(StencilViews, FitOverlapRegionAndKeepOrientation) {
    // Boxes [0,2]^3 and [1,4]x[1,3]x[1,5]: they overlap in [1,2]^3; the drawn objects span [0,4]x[0,3]x[0,5].
    gpu::OrthographicRegion region = {{1, 1, 1}, {2, 2, 2}, {0, 0, 0}, {4, 3, 5}};
    region = gpu::padOrthographicRegion(region, 0.0f, 100);
    for (uint32_t axis = 0; axis < 3; ++axis) {
        const gpu::OrthographicViewGpu view = gpu::orthographicView(region, axis, 100);
        EXPECT_NEAR(view.pixelSize, 1.0f / 100.0f, 1e-6f);
        // Overlap region [1,2]^3 maps to the whole viewport.
        glm::vec4 lo = view.worldToClip * glm::vec4(1, 1, 1, 1), hi = view.worldToClip * glm::vec4(2, 2, 2, 1);
        EXPECT_NEAR(lo.x, -1.0f, 1e-5f);
        EXPECT_NEAR(lo.y, -1.0f, 1e-5f);
        EXPECT_NEAR(hi.x, 1.0f, 1e-5f);
        EXPECT_NEAR(hi.y, 1.0f, 1e-5f);
        // Both drawn objects lie inside the depth range.
        for (const glm::vec3& corner : {glm::vec3(0), glm::vec3(4, 3, 5)}) {
            float z = (view.worldToClip * glm::vec4(corner, 1)).z;
            EXPECT_GT(z, 0.0f);
            EXPECT_LT(z, 1.0f);
        }
        EXPECT_GT(glm::determinant(glm::mat3(view.worldToClip)), 0.0f) << axis;
        glm::mat4 identity = view.clipToWorld * view.worldToClip;
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r) EXPECT_NEAR(identity[c][r], c == r ? 1.0f : 0.0f, 1e-5f);
    }
}

}  // namespace
}  // namespace vkc
