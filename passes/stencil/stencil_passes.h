// Passes of method `stencil` (paper 1, CInDeR), in frame order:
//   setup (clear lists, reset queries) -> frame candidates -> frame views (GPU: the views, the
//   drawn objects and their indirect draws from the candidates) -> candidate index (the candidates'
//   hash slots, pair_compact_pass.h) -> normals (GPU, per mesh) ->
//   per view: edges -> count -> boolean (-> count copy, keepImages) -> penetrating -> penetrated ->
//   scan -> compact -> readback.
// Reads: mesh vertices in place, per-frame objects, the candidate pairs and boxes (the broadphase's
// buffers of the same frame, or the host's in their layout), per-mesh topology (indices, edges,
// adjacency). Writes: a depth-stencil image and two id images per view (reused across views),
// occlusion queries, and the ring slot.
// Every scene object has its draws recorded (one indirect draw each, no instance when it is in no
// candidate pair), so the CPU never needs the pairs: record cost follows the scene's object count.
// Invariant: list headers count exactly even past capacity; the stencil holds bias + signed count.
#pragma once

#include "passes/graph/graph.h"
#include "passes/graph/readback_layout.h"
#include "passes/shared/image_frame_setup_pass.h"
#include "passes/shared/pair_compact_pass.h"
#include "shaders_glsl/shared/stencil.h"
#include "vk/pipeline.h"


#include <string>
#include <vector>

namespace vkc {

struct StencilPipelines {
    const ImageFramePipelines* frameSetup = nullptr;  // image_frame_setup.comp
    const Pipeline* normals = nullptr;       // stencil_normals.comp
    const Pipeline* edgeDepth = nullptr;     // edges, depth write LESS (pass 1)
    const Pipeline* count = nullptr;         // triangles, two-sided incr/decr-wrap (passes 2-3 in one)
    const Pipeline* positive = nullptr;      // full screen, stencil > bias (boolean, 6.1)
    const Pipeline* negative = nullptr;      // full screen, stencil < bias (open mesh)
    const Pipeline* penetrating = nullptr;   // edges where stencil > bias, id image A (5.1)
    const Pipeline* recount = nullptr;       // one object's triangles, incr/decr-wrap (5.2)
    const Pipeline* penetratedId = nullptr;  // one object's triangles where stencil == bias + 1, id image B
    const Pipeline* scan = nullptr;          // stencil_scan.comp
    const Pipeline* compact = nullptr;       // pair_compact.comp
    const Pipeline* candidateIndex = nullptr;  // candidate_index.comp (the compact set's layout)
};

// Where one mesh's triangle and edge indices sit in the topology (index) buffer, in indices.
struct StencilMeshRange {
    uint32_t triangleFirst = 0;
    uint32_t triangleCount = 0;  // indices (3 per triangle)
    uint32_t edgeFirst = 0;
    uint32_t edgeCount = 0;      // indices (2 per unique edge)
};

struct StencilPassInputs : PairListSizes {  // candidateCount: entries the candidate list stores at most
    StencilPipelines pipelines;
    VkDescriptorSet setupSet = VK_NULL_HANDLE;    // kImageFrameSetupLayout's
    VkDescriptorSet drawSet = VK_NULL_HANDLE;     // objects, normals, frame, mesh vertices
    VkDescriptorSet normalsSet = VK_NULL_HANDLE;  // topology, normals, mesh vertices
    VkDescriptorSet scanSet = VK_NULL_HANDLE;     // id images, candidates with slots and flags, points, frame
    VkDescriptorSet compactSet = VK_NULL_HANDLE;  // candidates with slots and flags, pairs, unfound
    VkQueryPool occlusion = VK_NULL_HANDLE;       // kStencilQueriesPerView per view
    bool storeOpNone = false;                     // Vulkan 1.3: read-only attachments store nothing
    uint32_t resolution = 0;
    uint32_t views = 0;                           // 1 or 3
    float paddingPixels = 0.0f;                   // StencilSettings::regionPaddingPixels
    float edgeOffsetPixels = 0.0f;                // StencilSettings::edgeOffsetPixels (the draws' push)
    // The identifying draw restores the stencil of a closed solid's recount (counts are 0 or 1);
    // an open or non-manifold mesh can leave other counts, which a clear after its recount undoes.
    std::vector<uint32_t> openObjects;  // objects whose meshes are not closed solids, increasing

    std::vector<gpu::StencilNormalsPush> normalDispatches;  // one per mesh of the scene's objects

    BufferHandle topology;                  // indices + adjacency (index and storage buffer)
    BufferHandle objects;                   // gpu::StencilObjectGpu per scene object
    BufferHandle normals;                   // vec3 per vertex of every mesh drawn
    std::vector<BufferHandle> meshVertices; // every vertex buffer the objects read
    BufferHandle candidates;                // PairListHeader, then uvec2 per candidate pair
    BufferHandle bounds;                    // the candidates' boxes (gpu_candidates.h)
    BufferHandle draws;                     // gpu::ImageObjectDrawGpu per scene object: edges, triangles
    BufferHandle frame;                     // gpu::ImageFrameGpu
    BufferHandle drawn;                     // uint per scene object (image_frame.h)
    BufferHandle commands;                  // the compaction's dispatch, then 2 indexed draws per object
    BufferHandle candidateSlots;            // candidateSlotsBytes(candidateCount): the candidates' hash slots
    BufferHandle pairFlags;                 // candidateFlagsBytes(candidateCount): two bits per candidate
    BufferHandle pairs;                     // StencilListHeader + StencilPairGpu * pairCapacity
    BufferHandle unfound;                   // StencilListHeader + StencilPairGpu * pairCapacity
    BufferHandle points;                    // StencilListHeader + StencilPointGpu * pointCapacity
    BufferHandle objectFlags;               // uint per scene object: kStencilObject* bits from the scans
    BufferHandle readback;                  // the frame's ring slot
    const ReadbackLayout* readbackLayout = nullptr;  // stencilReadbackLayout
    ImageHandle depthStencil;               // resolution^2, 8-bit stencil
    ImageHandle penetratingImage;           // RGBA32_UINT: object + 1, edge depth bits
    ImageHandle penetratedImage;            // R32_UINT: object + 1
    BufferHandle counts;                    // keepImages: each view's stencil after counting (1 B per pixel); else invalid
};

// Descriptor layouts (checked against the SPIR-V by tests/stencil).
extern const PipelineLayoutDesc kStencilDrawLayout;
extern const PipelineLayoutDesc kStencilFullscreenLayout;
extern const PipelineLayoutDesc kStencilNormalsLayout;
extern const PipelineLayoutDesc kStencilScanLayout;
extern const PipelineLayoutDesc kStencilCompactLayout;

inline constexpr VkFormat kStencilPenetratingFormat = VK_FORMAT_R32G32B32A32_UINT;
inline constexpr VkFormat kStencilPenetratedFormat = VK_FORMAT_R32_UINT;

// Occlusion queries of one view: [positive, negative] (6.1). Which objects penetrate or are
// penetrated the id-image scan flags (no query per object, so a frame records no per-object
// commands where one multi-draw serves every object).
inline constexpr uint32_t kStencilQueriesPerView = 2;
inline VkDeviceSize stencilPairsBytes(uint32_t capacity) {
    return sizeof(gpu::StencilListHeader) + VkDeviceSize(capacity) * sizeof(gpu::StencilPairGpu);
}
inline VkDeviceSize stencilPointsBytes(uint32_t capacity) {
    return sizeof(gpu::StencilListHeader) + VkDeviceSize(capacity) * sizeof(gpu::StencilPointGpu);
}

// Occlusion queries of a frame in `views` views (the pool's size).
inline uint32_t stencilOcclusionQueries(uint32_t views) { return views * kStencilQueriesPerView; }
// Those a frame records: none in a scene without objects (no view is drawn).
inline uint32_t stencilRecordedQueries(uint32_t views, uint32_t objects) {
    return objects == 0 ? 0 : stencilOcclusionQueries(views);
}
// Per object: draw 0 its edges, draw 1 its triangles (image_frame_setup_pass.h's layout).
inline constexpr uint32_t kStencilDrawsPerObject = 2;

// Read-back regions: the pair list, the point list, the occlusion query results (uint64_t each, in
// query order), each view's stencil (countsBytes: stencilCountsBytes with keepImages, else 0), the
// unfound candidates (as the pair list), the fitted frame, the drawn flag of every object, the
// scans' flags of every object.
enum StencilReadback : uint32_t {
    kStencilReadbackPairs,
    kStencilReadbackPoints,
    kStencilReadbackOcclusion,
    kStencilReadbackCounts,
    kStencilReadbackUnfound,
    kStencilReadbackFrame,
    kStencilReadbackDrawn,
    kStencilReadbackObjectFlags
};
ReadbackLayout stencilReadbackLayout(uint32_t pairCapacity, uint32_t pointCapacity, uint32_t maxObjects, uint32_t views,
                                     VkDeviceSize countsBytes);
inline VkDeviceSize stencilCountsBytes(uint32_t views, uint32_t resolution) {
    return VkDeviceSize(views) * resolution * resolution;
}

// Handles that the passes advance (each write makes a new version).
struct StencilGraphState {
    BufferHandle frame, drawn, commands, normals, candidateSlots, pairFlags, pairs, unfound, points, objectFlags, counts;
    ImageHandle depthStencil, penetratingImage, penetratedImage;
};

// Every pass of one frame, in order.
void addStencilPasses(Graph& graph, const StencilPassInputs& inputs);

// The parts (one file each).
void addStencilSetupPasses(Graph& graph, const StencilPassInputs& in, StencilGraphState& state);
void addStencilCountPasses(Graph& graph, const StencilPassInputs& in, uint32_t view, StencilGraphState& state);
void addStencilIdentifyPasses(Graph& graph, const StencilPassInputs& in, uint32_t view, StencilGraphState& state);
void addStencilScanPass(Graph& graph, const StencilPassInputs& in, uint32_t view, StencilGraphState& state);
void addStencilCompactPasses(Graph& graph, const StencilPassInputs& in, StencilGraphState& state);

// Shared by the render passes: dynamic rendering over the view's images, viewport and scissor set.
// depthStencilLoad: CLEAR clears depth to 1 and stencil to kStencilBias. colorImage invalid: none.
struct StencilRenderTargets {
    ImageHandle depthStencil;
    bool readOnlyDepthStencil = false;
    VkAttachmentLoadOp depthLoad = VK_ATTACHMENT_LOAD_OP_LOAD;
    VkAttachmentLoadOp stencilLoad = VK_ATTACHMENT_LOAD_OP_LOAD;
    ImageHandle color;  // cleared to zero
};
void beginStencilRendering(VkCommandBuffer cmd, const PassResources& r, const StencilPassInputs& in,
                           const StencilRenderTargets& targets);
// Binds a draw pipeline with the draw set (rebound per pipeline: the sets are compatible, but
// rebinding keeps each pass independent of what the previous one bound).
void bindStencilDrawPipeline(VkCommandBuffer cmd, const PassResources& r, const StencilPassInputs& in,
                             const Pipeline& pipeline);
// Pushes the view and the edge offset (kept across the draw pipelines: their layouts are compatible).
void pushStencilDraw(VkCommandBuffer cmd, const PassResources& r, const StencilPassInputs& in, const Pipeline& pipeline,
                     uint32_t view);
// Draws one object's edges or triangles with the indirect command the frame setup wrote (no
// instance when the object is in no candidate pair; its first instance names the object).
void drawStencilObject(VkCommandBuffer cmd, const PassResources& r, const StencilPassInputs& in,
                       const StencilGraphState& state, uint32_t object, bool edges);
// The same for every object at once: one multi-draw, with the push.
void drawStencilObjects(VkCommandBuffer cmd, const PassResources& r, const StencilPassInputs& in,
                        const StencilGraphState& state, const Pipeline& pipeline, uint32_t view, bool edges);
// What every geometry pass reads: topology, objects, normals, the frame's views, the draws.
void readStencilGeometry(PassBuilder& pass, const StencilPassInputs& in, const StencilGraphState& state);

}  // namespace vkc
