// Passes choosing method `ebpi`'s ray directions on the GPU (paper 5, Sec. 4.4, pipeline stage 1 of
// issue 12), in order: ebpi-histogram-clear (zero every pair's histogram) -> ebpi-normal-histogram
// (each pair's area-weighted normals as drawn, 64-bit fixed point) -> ebpi-directions (Eq. 12
// minimised per pair from its start axes; its three views fitted to their directions, the axes for
// the read-back).
// Reads: the object table and vertex buffers in place, the scene's indices, the pairs' table
// (EbpiDirectionPairGpu). Writes: the histograms (transient); per view its rotation, window and
// fixed-point scales (EbpiViewGpu) and its depth range, pyramid levels and rounding reserve
// (EbpiRayViewGpu), every other field as the host wrote it; the axes.
// Invariant: the axes equal ebpiOptimizeDirections of ebpiPairNormalHistogram (collision/ebpi/
// ebpi_directions.h), the views ebpiPairViews of those axes, bit for bit where the device's double
// division and square root are correctly rounded.
#pragma once

#include "passes/graph/graph.h"
#include "shaders_glsl/shared/ebpi_directions.h"
#include "vk/pipeline.h"

#include <utility>
#include <vector>

namespace vkc {

struct EbpiDirectionPassInputs {
    const Pipeline* histogramPipeline = nullptr;   // ebpi_normal_histogram.comp
    const Pipeline* directionsPipeline = nullptr;  // ebpi_directions.comp
    VkDescriptorSet set = VK_NULL_HANDLE;          // one set (kEbpiDirectionPipelineLayout) serves both

    uint32_t pairCount = 0;
    uint32_t mostTriangles = 0;  // of any pair's two meshes together (sizes the histogram dispatch)

    BufferHandle objects, indices, pairs;  // read
    std::vector<BufferHandle> vertices;    // every vertex buffer the objects read
    BufferHandle histogram;                // kEbpiHistogramWords uint per pair (transient)
    BufferHandle views;                    // EbpiViewGpu per view: fitted to the direction
    BufferHandle rayViews;                 // EbpiRayViewGpu per view: likewise
    BufferHandle axes;                     // 9 doubles per pair, written
};

struct EbpiDirectionPassOutputs {
    BufferHandle views, rayViews, axes;
};

// The descriptor layout shared by the two shaders (tests check it against their SPIR-V).
extern const PipelineLayoutDesc kEbpiDirectionPipelineLayout;

inline constexpr const char* kEbpiHistogramClearPassName = "ebpi-histogram-clear";
inline constexpr const char* kEbpiNormalHistogramPassName = "ebpi-normal-histogram";
inline constexpr const char* kEbpiDirectionsPassName = "ebpi-directions";

EbpiDirectionPassOutputs addEbpiDirectionPasses(Graph& graph, const EbpiDirectionPassInputs& inputs);

// Each storage-buffer binding of kEbpiDirectionPipelineLayout with the input it holds (the
// vertex-buffer array aside), for the caller's descriptor writes.
std::vector<std::pair<uint32_t, BufferHandle>> ebpiDirectionBufferBindings(const EbpiDirectionPassInputs& inputs);

}  // namespace vkc
