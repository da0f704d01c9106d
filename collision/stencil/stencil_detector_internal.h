// Internals of vkc::StencilDetector shared by its files: the per-mesh topology the method builds
// once (unique edges, vertex -> triangle adjacency).
#pragma once

#include "passes/stencil/stencil_passes.h"
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

}  // namespace vkc
