// Passes of method `ebpi`'s stage 7 (paper 5, Eq. 1 and Eq. 2): ebpi-volume-clear (zero the sums)
// -> ebpi-volume (per ray: parity check of its sorted hits, then tile area x length inside both
// into its pair's volume and the boundary hits' barycentrics into the gradient of their triangles'
// vertices) -> ebpi-volume-readback (optional).
// Reads: the casting's object table, indices, per-ray counts and sorted hit slots (ebpi_trace.h),
// the rays' EbpiVolumeRayGpu and the pair table. Writes: per (pair, axis) EbpiPairVolumeGpu and
// per (gradient slot, axis) a 64-bit fixed-point sum (shaders_glsl/shared/ebpi_volume.h).
// Invariant: the sums equal ebpiVolumeFixed (collision/ebpi/ebpi_volume_cpu.h) on the same hits
// bit for bit (integer sums of contributions computed in the same double operations: additions,
// subtractions and multiplications only, no division or square root, so the match holds wherever
// the device rounds those correctly, as lavapipe and native-fp64 GPUs do).
#pragma once

#include "passes/graph/graph.h"
#include "passes/graph/readback_layout.h"
#include "shaders_glsl/shared/ebpi_volume.h"
#include "vk/pipeline.h"

namespace vkc {

struct EbpiVolumePassInputs {
    const Pipeline* volumePipeline = nullptr;  // ebpi_volume.comp, layout ebpiVolumePipelineLayout()
    VkDescriptorSet set = VK_NULL_HANDLE;

    uint32_t rayCount = 0;       // the rays, or with rayCounters the capacity of the ray buffers
    uint32_t hitCapacity = 1;    // the casting's slots per ray
    uint32_t chunkRays = 0;      // rays whose hits `hits` holds at once (0: rayCount)
    uint32_t pairCount = 0;
    uint32_t gradientSlots = 0;  // vertices of every pair's two objects (EbpiVolumePairGpu::firstSlot*)
    uint32_t maxGroups = 0;      // device limit on workgroups in x

    BufferHandle objects, indices, rayInfos, rayHits, hits, pairs;  // read
    BufferHandle rayCounters;  // GPU-driven, as EbpiTracePassInputs::rayCounters
    BufferHandle sums;       // EbpiPairVolumeGpu[pairCount * 3]
    BufferHandle gradients;  // uint[gradientSlots * 3 * 2]

    BufferHandle readback;                           // the frame's ring slot; invalid: no read-back pass
    const ReadbackLayout* readbackLayout = nullptr;  // ebpiVolumeReadbackLayout
};

PipelineLayoutDesc ebpiVolumePipelineLayout();

inline constexpr const char* kEbpiVolumeClearPassName = "ebpi-volume-clear";
inline constexpr const char* kEbpiVolumePassName = "ebpi-volume";
inline constexpr const char* kEbpiVolumeReadbackPassName = "ebpi-volume-readback";

// Read-back regions: the (pair, axis) sums, then the gradient words.
enum EbpiVolumeReadback : uint32_t { kEbpiVolumeReadbackSums, kEbpiVolumeReadbackGradients };
ReadbackLayout ebpiVolumeReadbackLayout(uint32_t pairCount, uint32_t gradientSlots);

struct EbpiVolumeOutputs {
    BufferHandle sums, gradients;
};

// The sums zeroed, then one pass per chunk of rays whose hits the casting left in `hits`
// (EbpiTracePassInputs::chunkRays: the same chunks, in the same order).
EbpiVolumeOutputs addEbpiVolumeClearPass(Graph& graph, const EbpiVolumePassInputs& inputs);
EbpiVolumeOutputs addEbpiVolumeChunkPass(Graph& graph, const EbpiVolumePassInputs& inputs, const EbpiVolumeOutputs& summed,
                                         BufferHandle rayHits, BufferHandle hits, uint32_t firstRay);
// Clear, one chunk from ray 0 (every ray when chunkRays is 0) and the optional read-back.
// InvalidArgument when rayCount x hitCapacity exceeds kEbpiVolumeMaxContributions (the sums could
// then wrap): the caller lowers the ray capacity.
Result<EbpiVolumeOutputs> addEbpiVolumePasses(Graph& graph, const EbpiVolumePassInputs& inputs);

}  // namespace vkc
