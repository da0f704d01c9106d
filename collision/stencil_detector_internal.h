// Internals of vkc::StencilDetector shared by its files: the per-mesh topology the method builds
// once (unique edges, vertex -> triangle adjacency) and the view fitting (paper 1, section 6.5).
#pragma once

#include "passes/stencil_passes.h"
#include "vkcollide/broadphase.h"
#include "vkcollide/mesh.h"

#include <span>
#include <vector>

namespace vkc {

// Topology of every mesh of a scene in one uint array (index buffer and storage buffer at once):
// per mesh its triangle indices, its unique edges (2 indices each, from the index buffer: an
// edge shared by two triangles is drawn once), and a CSR vertex -> triangle adjacency.
struct StencilTopology {
    std::vector<uint32_t> data;
    std::vector<StencilMeshRange> ranges;               // per mesh
    std::vector<gpu::StencilNormalsPush> normals;       // per mesh; the vertex source left for the frame
    uint32_t totalVertices = 0;                         // normals buffer length in vec3
};

StencilTopology buildStencilTopology(std::span<const MeshData* const> meshes);

// The orthographic views of one frame: xy fitted to the union of the candidate pairs' box
// overlaps (padded), depth to the union of the drawn objects' boxes, so that no drawn triangle
// in front of an edge point is clipped away (it would break the count). Views look along z, x,
// y; each maps world axes to clip axes by a cyclic permutation with positive scales, so the
// determinant is positive and outward-facing counter-clockwise triangles stay front-facing.
struct StencilViewFit {
    std::vector<StencilView> views;
    float pixelSize = 0.0f;  // world units, the coarsest pixel side over the views
};

StencilViewFit fitStencilViews(std::span<const ObjectPair> candidates, std::span<const Aabb> worldBounds,
                               std::span<const uint32_t> drawObjects, uint32_t viewCount, uint32_t resolution,
                               float paddingPixels);

}  // namespace vkc
