// Passes of method `consistent-pairs` (paper 3, Jang, Jeong & Han), in frame order:
//   setup (clear flags, lists, stats; reset queries) -> frame set-up on the GPU from the candidates
//   (image_frame_setup_pass.h: the view, the drawn objects, every object's draws per iteration) ->
//   per iteration: (query copy of the previous one's last peel ->) decide whether it runs ->
//                  peel (+ copy into the layer array) per new front layer -> clear back slots ->
//                  consistency -> back ids -> determination ->
//   compact -> readback.
// Reads: mesh vertices in place, per-frame objects, the candidates (the broadphase's buffers of the
// same frame, or the host's in their layout), the triangle indices.
// Writes: the front layers, the per-slot nearest back faces, the candidates' flags, the point list,
// the stats, occlusion queries (one per peel) and the ring slot (pairs, points, stats).
// Invariant: every iteration is recorded, with one draw per scene object; the GPU sets the draws of
// an unneeded iteration and of an object in no candidate pair to zero instances, so they leave
// every output unchanged, and gives an unneeded iteration's clears and copies (draws and dispatches
// too: ConsistentPairsIterationGpu) nothing to do, so that it costs only its recorded commands.
#pragma once

#include "passes/graph/graph.h"
#include "passes/shared/image_frame_setup_pass.h"
#include "passes/shared/pair_compact_pass.h"
#include "passes/graph/readback_layout.h"
#include "shaders_glsl/shared/consistent_pairs.h"
#include "shaders_glsl/shared/stencil.h"
#include "vk/pipeline.h"

#include <vector>

namespace vkc {

struct ConsistentPairsPipelines {
    const ImageFramePipelines* frameSetup = nullptr;  // image_frame_setup.comp
    const Pipeline* peel = nullptr;           // front faces, depth LESS + write, layer colour target (4.1)
    const Pipeline* consistency = nullptr;    // back faces, no depth test (4.2)
    const Pipeline* backId = nullptr;         // back faces, no depth test (4.3, back/back)
    const Pipeline* determination = nullptr;  // all faces, no depth test (4.3)
    const Pipeline* decide = nullptr;         // consistent_pairs_decide.comp (5)
    const Pipeline* clear = nullptr;          // fullscreen_triangle.vert + consistent_pairs_clear.frag: a peel's clear
    const Pipeline* layerCopy = nullptr;      // consistent_pairs_layer_copy.comp: a peel into its layer slot
    const Pipeline* backClear = nullptr;      // consistent_pairs_back_clear.comp: the back slots before a window
    const Pipeline* compact = nullptr;        // pair_compact.comp: the same candidate-flag compaction
    const Pipeline* candidateIndex = nullptr; // candidate_index.comp: the candidates' hash slots
};

struct ConsistentPairsPassInputs : PairListSizes {  // candidateCount: entries the candidate list stores at most
    ConsistentPairsPipelines pipelines;
    VkDescriptorSet setupSet = VK_NULL_HANDLE;     // kImageFrameSetupLayout's
    VkDescriptorSet geometrySet = VK_NULL_HANDLE;  // set 0 of every draw
    VkDescriptorSet windowSet = VK_NULL_HANDLE;    // set 1 of every draw
    VkDescriptorSet decideSet = VK_NULL_HANDLE;
    VkDescriptorSet imagesSet = VK_NULL_HANDLE;    // peel target, layers, back depth, back ids (storage images)
    VkDescriptorSet compactSet = VK_NULL_HANDLE;   // candidates, pair flags, pairs, unfound (stencil bindings)
    VkQueryPool occlusion = VK_NULL_HANDLE;        // one query per peel, in global layer order
    bool storeOpNone = false;                      // Vulkan 1.3: read-only attachments store nothing
    uint32_t resolution = 0;
    uint32_t layersPerIteration = 0;
    uint32_t iterations = 0;                       // recorded (settings.maxIterations)
    float paddingPixels = 0.0f;                    // ConsistentPairsSettings::regionPaddingPixels

    BufferHandle objects;                   // gpu::ObjectGpu per scene object
    BufferHandle frame;                     // gpu::ConsistentPairsFrameGpu (host-written limits)
    BufferHandle objectDraws;               // gpu::ImageObjectDrawGpu per scene object: its triangles
    BufferHandle view;                      // gpu::ImageFrameGpu, set up on the GPU
    BufferHandle drawn;                     // uint per scene object (image_frame.h)
    BufferHandle bounds;                    // the candidates' boxes (gpu_candidates.h)
    BufferHandle indices;                   // every mesh's triangle indices (the index buffer)
    std::vector<BufferHandle> meshVertices; // every vertex buffer the objects read
    BufferHandle draws;                     // image frame commands: per iteration one draw per object
    BufferHandle iterationCommands;         // gpu::ConsistentPairsIterationGpu per iteration
    BufferHandle candidates;                // PairListHeader, then uvec2 per candidate pair
    BufferHandle unfound;                   // StencilListHeader + StencilPairGpu * pairCapacity: tested, not colliding
    BufferHandle candidateSlots;            // candidateSlotsBytes(candidateCount): the candidates' hash slots
    BufferHandle pairFlags;                 // candidateFlagsBytes(candidateCount): two bits per candidate
    BufferHandle stats;                     // gpu::ConsistentPairsStatsGpu
    BufferHandle pairs;                     // StencilListHeader + StencilPairGpu * pairCapacity
    BufferHandle points;                    // StencilListHeader + ConsistentPairsPointGpu * pointCapacity
    BufferHandle inconsistentImage;         // keepImages: uint per pixel; else invalid
    BufferHandle readback;                  // the frame's ring slot
    const ReadbackLayout* readbackLayout = nullptr;  // consistentPairsReadbackLayout
    ImageHandle depth;                      // D32, resolution^2
    ImageHandle peelTarget;                 // RGBA32_UINT colour target of one peel
    ImageHandle layers;                     // RGBA32_UINT array, layersPerIteration layers
    ImageHandle backDepth;                  // R32_UINT array: nearest back face per window slot
    ImageHandle backId;                     // RG32_UINT array: its object + 1 and packed normal
};

// Descriptor layouts (checked against the SPIR-V by tests/consistent_pairs).
extern const PipelineLayoutDesc kConsistentPairsDrawLayout;
extern const PipelineLayoutDesc kConsistentPairsDecideLayout;
extern const PipelineLayoutDesc kConsistentPairsImagesLayout;
extern const PipelineLayoutDesc kConsistentPairsClearLayout;

inline constexpr VkFormat kConsistentPairsLayerFormat = VK_FORMAT_R32G32B32A32_UINT;
inline constexpr VkFormat kConsistentPairsBackDepthFormat = VK_FORMAT_R32_UINT;
inline constexpr VkFormat kConsistentPairsBackIdFormat = VK_FORMAT_R32G32_UINT;
inline constexpr VkFormat kConsistentPairsDepthFormat = VK_FORMAT_D32_SFLOAT;

// Front layers peeled by `iterations` iterations: the first peels them all, each later one starts
// from the previous one's last layer (section 5) and peels layersPerIteration - 1 more.
inline uint32_t consistentPairsPeelCount(uint32_t layersPerIteration, uint32_t iterations) {
    return iterations == 0 ? 0 : layersPerIteration + (iterations - 1) * (layersPerIteration - 1);
}
// Global index of iteration `iteration`'s first (window base) and last front layer.
inline uint32_t consistentPairsWindowBase(uint32_t layersPerIteration, uint32_t iteration) {
    return iteration * (layersPerIteration - 1);
}
inline uint32_t consistentPairsLastLayer(uint32_t layersPerIteration, uint32_t iteration) {
    return consistentPairsWindowBase(layersPerIteration, iteration) + layersPerIteration - 1;
}
inline VkDeviceSize consistentPairsPointsBytes(uint32_t capacity) {
    return sizeof(gpu::StencilListHeader) + VkDeviceSize(capacity) * sizeof(gpu::ConsistentPairsPointGpu);
}

// Handles that the passes advance (each write makes a new version).
struct ConsistentPairsGraphState {
    BufferHandle view, drawn, draws, iterationCommands, candidateSlots, pairFlags, stats, pairs, points, unfound,
        inconsistentImage;
    ImageHandle depth, peelTarget, layers, backDepth, backId;
};

// Read-back regions: the pair list, the point list, the frame's stats, the fragments of every
// recorded peel (its occlusion query, uint64_t each, in global layer order), the inconsistent
// fragments per pixel (imageBytes: consistentPairsImageBytes with keepImages, else 0), the fitted
// view, the drawn flag of every object, the candidates tested and not colliding (as the pair list).
enum ConsistentPairsReadback : uint32_t {
    kConsistentPairsReadbackPairs,
    kConsistentPairsReadbackPoints,
    kConsistentPairsReadbackStats,
    kConsistentPairsReadbackPeelFragments,
    kConsistentPairsReadbackInconsistentImage,
    kConsistentPairsReadbackView,
    kConsistentPairsReadbackDrawn,
    kConsistentPairsReadbackUnfound
};
ReadbackLayout consistentPairsReadbackLayout(uint32_t pairCapacity, uint32_t pointCapacity, uint32_t peels,
                                             VkDeviceSize imageBytes, uint32_t maxObjects);
inline VkDeviceSize consistentPairsImageBytes(uint32_t resolution) {
    return VkDeviceSize(resolution) * resolution * sizeof(uint32_t);
}

// Every pass of one frame, in order.

void addConsistentPairsPasses(Graph& graph, const ConsistentPairsPassInputs& inputs);

// The parts (one file each).
void addConsistentPairsPeelPasses(Graph& graph, const ConsistentPairsPassInputs& in, uint32_t iteration,
                                  ConsistentPairsGraphState& state);
void addConsistentPairsWindowPasses(Graph& graph, const ConsistentPairsPassInputs& in, uint32_t iteration,
                                    ConsistentPairsGraphState& state);
// Whether `iteration` runs: the previous iteration's last peel query copied on the GPU (from the
// second on), then the decision pass writing the iteration's draws and commands.
void addConsistentPairsDecidePasses(Graph& graph, const ConsistentPairsPassInputs& in, uint32_t iteration,
                                    ConsistentPairsGraphState& state);
// A dispatch of an iteration image pipeline (layer copy, back clear) over the view's pixels, with the
// iteration's workgroups.
void dispatchConsistentPairsImages(VkCommandBuffer cmd, const PassResources& r, const ConsistentPairsPassInputs& in,
                                   const Pipeline& pipeline, BufferHandle iterationCommands, uint32_t iteration,
                                   const gpu::ConsistentPairsImagesPush& push);

// Shared by the draw passes: what every draw reads (geometry, indirect draws), and the draws of one
// iteration, one multi-draw of every object's indirect draw (its first instance names the object,
// the push constants the window).
void readConsistentPairsGeometry(PassBuilder& pass, const ConsistentPairsPassInputs& in,
                                 const ConsistentPairsGraphState& state);
void drawConsistentPairsObjects(VkCommandBuffer cmd, const PassResources& r, const ConsistentPairsPassInputs& in,
                                const Pipeline& pipeline, BufferHandle draws, uint32_t iteration,
                                uint32_t windowBase, bool firstLayer);
// Dynamic rendering over the view's depth image (written or read-only) and an optional colour target;
// a written one is not cleared on load (the peel draws its clear, and only when its iteration runs).
void beginConsistentPairsRendering(VkCommandBuffer cmd, const PassResources& r, const ConsistentPairsPassInputs& in,
                                   ImageHandle depth, bool readOnlyDepth, ImageHandle color);

}  // namespace vkc
