// Method `ebpi`: the scene-wide tables a frame's pair setup reads on the GPU (ebpi_pair_setup.h),
// so that the host needs to know nothing of the frame's pairs: every object as EbpiSceneObjectGpu
// (placement in double, vertex source, whether it is a closed solid, where its mesh's triangles,
// edges and tree are, and its mesh's box where the CPU positions are current) and every closed
// mesh's edges. Edges and the closed flags follow the scene's topology (built once per mesh); the
// mesh boxes follow each mesh's deformedGeneration.
#pragma once

#include "collision/frames/vertex_buffer_slots.h"
#include "collision/scene/scene_impl.h"
#include "collision/scene/scene_index_cache.h"
#include "shaders_glsl/shared/ebpi_image.h"
#include "shaders_glsl/shared/ebpi_pair_setup.h"

#include <glm/vec3.hpp>

#include <vector>

namespace vkc {

// What does not change while a scene's topology and positions do not.
struct EbpiSceneCache {
    struct Mesh {
        bool closed = false;  // a closed, oriented solid (requireClosedSolid)
        uint32_t firstEdge = 0, edgeCount = 0;
        uint64_t boxGeneration = ~uint64_t(0);  // the deformedGeneration `lo`, `hi` were computed for
        glm::dvec3 lo{0.0}, hi{0.0};            // object-space box of the CPU positions
    };
    SceneTopologyKey key;
    std::vector<Mesh> meshes;
    std::vector<gpu::EbpiMeshEdgeGpu> edges;  // every closed mesh's
};

struct EbpiSceneTables {
    std::vector<gpu::EbpiSceneObjectGpu> objects;  // per scene object; `tree` left 0
    uint32_t mostTriangles = 0;  // of one closed mesh an object uses
    uint32_t mostEdges = 0;      // likewise
};

// The tables of `scene`, its objects' vertex buffers given slots in `vertexSlots`.
Result<EbpiSceneTables> ebpiSceneTables(EbpiSceneCache& cache, const SceneImpl& scene, const SceneIndexCache& indices,
                                        VertexBufferSlots& vertexSlots);

}  // namespace vkc
