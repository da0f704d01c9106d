// Passes building the EBPI of method `ebpi` (paper 5, pipeline stages 2-3 of issue 12), in order:
//   ebpi-image-clear (zero the pixels and overflow flags) -> ebpi-depth-extent (each job's object
//   depth range along its view) -> ebpi-edge-terms (one thread per edge and job: projected segment
//   and bound polynomial, added into every pixel its closed segment touches, 64-bit fixed point,
//   rounded up) -> ebpi-transient-terms (where the pairs' surfaces cross, from an aabb-tree
//   traversal's candidate triangle pairs: the crossings' terms into their pairs' views).
// A job is one object's edges in one view (EbpiImageJobGpu); several jobs may share a view (both
// objects of a pair) and then add into the same image.
// Reads: object table, vertex buffers in place, the mesh edge lists, views, jobs; for the transient
// edges the scene's indices, the traversal's triangle pairs and count, and the pairs' table.
// Writes: depth extents (transient), the pixels and per-view overflow flags.
// Invariant: the image equals buildEbpiFixedImage of the CPU reference's terms
// (ebpiEdgeTerms with EbpiSteepWallDepth::MeshDepthExtent) bit for bit where the device's double
// division and square root are correctly rounded; it is never below the real sums, and an overflow
// is flagged, never wrapped silently.
#pragma once

#include "collision/ebpi/ebpi_edge_terms.h"
#include "collision/ebpi/ebpi_mesh_edges.h"
#include "collision/ebpi/ebpi_ray_mesh.h"
#include "collision/ebpi/ebpi_window.h"
#include "passes/graph/graph.h"
#include "shaders_glsl/shared/ebpi_image.h"
#include "vk/pipeline.h"

#include <span>
#include <utility>
#include <vector>

namespace vkc {

struct EbpiImagePassInputs {
    const Pipeline* depthExtentPipeline = nullptr;  // ebpi_depth_extent.comp
    const Pipeline* edgeTermsPipeline = nullptr;    // ebpi_edge_terms.comp
    const Pipeline* transientPipeline = nullptr;    // ebpi_transient_terms.comp; null: no transient edges
    VkDescriptorSet set = VK_NULL_HANDLE;           // one set (kEbpiImagePipelineLayout) serves all three

    uint32_t viewCount = 0;
    uint32_t jobCount = 0;
    uint32_t mostEdgesPerJob = 0;  // sizes the edge dispatches (grid-stride past kEbpiImageMaxGroups)
    uint32_t pixelCount = 0;       // of all views' images

    BufferHandle objects, views, jobs, edges;  // read
    std::vector<BufferHandle> vertices;        // every vertex buffer the objects read
    BufferHandle extents;                      // EbpiDepthExtentGpu per job
    BufferHandle pixels;                       // EbpiPixelGpu per pixel of every view
    BufferHandle status;                       // uint overflow flag per view
    // Transient edges (ebpi_transient_edges.h): the candidate triangle pairs (AabbTrianglePairGpu,
    // `trianglePairCapacity` entries) and the traversal state holding their count, as an aabb-tree
    // traversal earlier in the graph wrote them; the scene's indices; EbpiCrossingPairGpu per pair.
    BufferHandle indices, trianglePairs, traversal, crossingPairs;
    uint32_t trianglePairCapacity = 0;
};

// The versions of the image and flags the passes wrote, for later passes and the read-back.
struct EbpiImagePassOutputs {
    BufferHandle pixels, status;
};

// The descriptor layout shared by the three shaders (tests check it against their SPIR-V).
extern const PipelineLayoutDesc kEbpiImagePipelineLayout;

inline constexpr const char* kEbpiImageClearPassName = "ebpi-image-clear";
inline constexpr const char* kEbpiDepthExtentPassName = "ebpi-depth-extent";
inline constexpr const char* kEbpiEdgeTermsPassName = "ebpi-edge-terms";
inline constexpr const char* kEbpiTransientTermsPassName = "ebpi-transient-terms";

EbpiImagePassOutputs addEbpiImagePasses(Graph& graph, const EbpiImagePassInputs& inputs);

// Each storage-buffer binding of kEbpiImagePipelineLayout with the input it holds (the vertex-buffer
// array aside), for the caller's descriptor writes.
std::vector<std::pair<uint32_t, BufferHandle>> ebpiImageBufferBindings(const EbpiImagePassInputs& inputs);

// A view's GPU form: the rotation's rows, the window, its fixed-point scales and the box of
// `region` (whose rotation must be `rotation`); its image starts at `firstPixel` of the pixel buffer.
gpu::EbpiViewGpu ebpiViewGpu(const EbpiRotation& rotation, const EbpiWindow& window, uint32_t firstPixel,
                             const EbpiEdgeRegion& region = {});

// A mesh's edges for the GPU: each with its two triangles' vertices from `indices`.
std::vector<gpu::EbpiMeshEdgeGpu> ebpiMeshEdgesGpu(const EbpiMeshEdges& edges, std::span<const uint32_t> indices);

}  // namespace vkc
