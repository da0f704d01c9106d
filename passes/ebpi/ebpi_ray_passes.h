// Passes of method `ebpi`'s adaptivity (paper 5, Sec. 4.3, pipeline stage 4 of issue 12), in order:
//   ebpi-pyramid level 0 .. levels-1 (each level's texels the 2 x 2 sums of the level below, exact
//   64-bit integers) -> ebpi-ray-options (each pixel's smallest bound within each ray budget) ->
//   ebpi-ray-allocate (per pair: the price of a bound in rays found by bisection, each tile covered
//   by a coarser tile, one ray, or a pixel split nx x ny; the pair's flag) -> ebpi-ray-scan
//   (exclusive scan of the ray counts in tile order, per-view rays / flags / achieved bound, totals
//   and the consumer's VkDispatchIndirectCommand) -> ebpi-ray-generate (every tile writes its rays).
// Reads: the views and pixels of the EBPI (ebpi_image_passes.h) and its overflow flags, the plan
// input per view (EbpiRayViewGpu: tolerance and reserve, depth range, objects, tile range, pair).
// Writes: pyramid and tile decisions (transient), per-view results, counters, rays (EbpiRayGpu,
// ebpi_trace.h), their samples (EbpiRaySampleGpu, parallel) and volume weights (EbpiVolumeRayGpu).
// Invariant: the rays, their order and every result equal the CPU reference planEbpiPairRays
// (collision/ebpi/ebpi_ray_plan.h) of the same fixed-point images, bit for bit.
#pragma once

#include "passes/graph/graph.h"
#include "shaders_glsl/shared/ebpi_rays.h"
#include "vk/pipeline.h"

#include <utility>
#include <vector>

namespace vkc {

struct EbpiRayPassInputs {
    const Pipeline* pyramidPipeline = nullptr;   // ebpi_pyramid.comp
    const Pipeline* optionsPipeline = nullptr;   // ebpi_ray_options.comp
    const Pipeline* allocatePipeline = nullptr;  // ebpi_ray_allocate.comp
    const Pipeline* scanPipeline = nullptr;      // ebpi_ray_scan.comp
    const Pipeline* generatePipeline = nullptr;  // ebpi_ray_generate.comp
    VkDescriptorSet set = VK_NULL_HANDLE;        // one set (kEbpiRayPipelineLayout) serves all five

    uint32_t viewCount = 0;      // <= kEbpiRayMaxGroups
    uint32_t mostLevels = 0;     // of any view's pyramid
    uint32_t mostTiles = 0;      // of any view (sizes the per-tile and per-pixel dispatches)
    uint32_t maxSplit = 1;       // 1 ..kEbpiRayMaxSplitLimit
    uint32_t maxRays = 0;        // capacity of the ray and sample buffers

    BufferHandle views, rayViews, pixels, imageStatus;  // read
    BufferHandle pyramid, tiles, costs;                  // per tile of every view (transient)
    BufferHandle options;                                // per pixel of every view (transient)
    BufferHandle flags;                                  // uint per view
    BufferHandle results, counters, rays, samples;       // written
    BufferHandle volumeRays;  // EbpiVolumeRayGpu per ray (area, the view's pair and axis), written
};

struct EbpiRayPassOutputs {
    BufferHandle tiles, results, counters, rays, samples, volumeRays;
};

// The descriptor layout shared by the five shaders (tests check it against their SPIR-V).
extern const PipelineLayoutDesc kEbpiRayPipelineLayout;

inline constexpr const char* kEbpiPyramidPassName = "ebpi-pyramid";  // + " level k"
inline constexpr const char* kEbpiRayOptionsPassName = "ebpi-ray-options";
inline constexpr const char* kEbpiRayAllocatePassName = "ebpi-ray-allocate";
inline constexpr const char* kEbpiRayScanPassName = "ebpi-ray-scan";
inline constexpr const char* kEbpiRayGeneratePassName = "ebpi-ray-generate";

EbpiRayPassOutputs addEbpiRayPasses(Graph& graph, const EbpiRayPassInputs& inputs);

// Each binding of kEbpiRayPipelineLayout with the input it holds, for the caller's descriptor writes.
std::vector<std::pair<uint32_t, BufferHandle>> ebpiRayBufferBindings(const EbpiRayPassInputs& inputs);

// Whether a plan of these sizes keeps every count within 32 bits and the rounding argument of
// ebpi_rays.h: each view at most kEbpiRayMaxTilesPerView tiles, all tiles x maxSplit^2 < 2^32.
bool ebpiRayPlanFits(uint64_t totalTiles, uint32_t mostTilesPerView, uint32_t maxSplit);

}  // namespace vkc
