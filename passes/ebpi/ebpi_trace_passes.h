// Passes of method `ebpi`'s casting stage (paper 5, pipeline stage 5): clear the per-ray counts
// -> (hardware backends) every object's triangle boxes, one BLAS per object over them, then the
// TLAS of the objects -> (ray-tracing pipeline, GPU-driven) the launch size from the ray count ->
// trace every ray with the chosen backend, recording EVERY hit (t, object, triangle, barycentrics,
// entering) in the ray's slots -> sort each ray's hits by (t, object, triangle) -> copy into the
// read-back slot. Trace and sort run once per chunk of rays when the hit slots hold fewer than all.
// Reads: rays, object table, indices, vertex buffers (in place), and (compute backend) the AABB
// trees of the objects' meshes. Writes: per-ray counts (exact past the capacity, with a truncation
// flag) and hit slots. Invariant: both backends decide hits
// with the one watertight test of shaders_glsl/shared/ebpi_trace.h, so after the sort their
// outputs are identical whenever the acceleration structure reports a superset of the hits (all
// three backends are tested hit for hit against an exact reference: tests/ebpi/ebpi_trace_gpu_test.cpp).
#pragma once

#include "passes/ebpi/ebpi_trace_accel.h"
#include "passes/graph/graph.h"
#include "passes/graph/readback_layout.h"
#include "shaders_glsl/shared/ebpi_trace.h"
#include "vk/pipeline.h"

#include <vector>

namespace vkc {

enum class EbpiRayBackend : uint32_t {
    Compute,             // ebpi_trace_compute.comp: any Vulkan 1.2 device, no acceleration structures
    RayQuery,            // ebpi_trace_query.comp: VK_KHR_ray_query (VulkanContext::hasRayQuery)
    RayTracingPipeline,  // ebpi_trace_pipeline.*: VK_KHR_ray_tracing_pipeline (hasRayTracingPipeline)
};

// Whether the backend traces an acceleration structure (built by these passes each frame).
inline bool ebpiUsesAccelStructs(EbpiRayBackend backend) { return backend != EbpiRayBackend::Compute; }

struct EbpiTracePipelines;  // ebpi_trace_pipelines.h

struct EbpiTracePassInputs {
    EbpiRayBackend backend = EbpiRayBackend::Compute;
    const EbpiTracePipelines* pipelines = nullptr;  // of `backend`
    VkDescriptorSet set = VK_NULL_HANDLE;           // one set serves every pipeline

    uint32_t rayCount = 0;     // the rays, or with rayCounters the capacity of the ray buffers
    uint32_t hitCapacity = 1;  // slots per ray, >= 1
    uint32_t maxGroups = 0;    // device limit on workgroups in x

    BufferHandle objects, indices, rays;  // EbpiTraceObjectGpu[], uint[], EbpiRayGpu[]
    // GPU-driven: the ray generator's EbpiRayCountersGpu (ebpi_rays.h). When valid, the passes
    // dispatch indirectly from it and trace its writtenRays (at most rayCount); else rayCount rays.
    BufferHandle rayCounters;
    std::vector<BufferHandle> vertices;   // every vertex buffer the objects read
    BufferHandle rayHits, hits;           // EbpiRayHitsGpu[rayCount], EbpiHitGpu[chunkRays * hitCapacity]
    // Rays per chunk (0: rayCount): the hit slots hold one chunk's rays, and the trace and sort run
    // once per chunk (addEbpiTraceChunkPasses), so a frame's hits need not fit one binding.
    uint32_t chunkRays = 0;
    // Hardware backends: the structures to build this frame (their buffers are imported here), and
    // the triangle boxes they are built over (written first, from the vertices in place).
    const EbpiAccelStructs* accel = nullptr;
    uint32_t objectCount = 0;
    uint32_t mostTriangles = 0;  // of one object
    uint32_t boxesPerObject = 0;  // 0: each object's BLAS holds its triangles; else this many boxes
                                  // each (EbpiTracePush::boxesPerObject), firstBox = object x this
    BufferHandle boxes;          // EbpiTriangleBoxGpu per triangle of every object (EbpiTraceObjectGpu::firstBox)
    // Ray-tracing pipeline, GPU-driven: the trace's VkTraceRaysIndirectCommandKHR (16 bytes, with
    // INDIRECT_BUFFER and SHADER_DEVICE_ADDRESS usages) and its address.
    BufferHandle launch;
    VkDeviceAddress launchAddress = 0;
    // Compute backend: the AABB trees its rays traverse (shared/aabb_tree.h: AabbTreeGpu[], node
    // boxes, leaves), each object's through EbpiTraceObjectGpu::tree.
    BufferHandle trees, nodes, leaves;

    BufferHandle readback;                           // the frame's ring slot; invalid: no read-back pass
    const ReadbackLayout* readbackLayout = nullptr;  // ebpiTraceReadbackLayout
};

// The descriptor layout of the backend's trace shader, also used for the sort shader
// (tests/ebpi/ebpi_trace_gpu_test.cpp checks it against the SPIR-V).
PipelineLayoutDesc ebpiTracePipelineLayout(EbpiRayBackend backend);

// Stable pass labels.
inline constexpr const char* kEbpiTraceClearPassName = "ebpi-trace-clear";
inline constexpr const char* kEbpiTraceBoxesPassName = "ebpi-trace-boxes";
inline constexpr const char* kEbpiTraceBlasPassName = "ebpi-trace-blas-build";
inline constexpr const char* kEbpiTraceTlasPassName = "ebpi-trace-tlas-build";
inline constexpr const char* kEbpiTraceLaunchPassName = "ebpi-trace-launch";
inline constexpr const char* kEbpiTracePassName = "ebpi-trace";
inline constexpr const char* kEbpiTraceSortPassName = "ebpi-trace-sort";
inline constexpr const char* kEbpiTraceReadbackPassName = "ebpi-trace-readback";

// Read-back regions: per-ray counts, then the hit slots.
enum EbpiTraceReadback : uint32_t { kEbpiTraceReadbackRayHits, kEbpiTraceReadbackHits };
ReadbackLayout ebpiTraceReadbackLayout(uint32_t rayCount, uint32_t hitCapacity);

struct EbpiTraceOutputs {
    BufferHandle rayHits;  // latest versions, sorted
    BufferHandle hits;
};

uint32_t chunkRaysOf(const EbpiTracePassInputs& inputs);  // chunkRays, or rayCount when 0

// What every chunk's trace reads from the set-up passes (clear, boxes, BLAS and TLAS, launch).
struct EbpiTraceSetup {
    BufferHandle rayHits;                  // latest version
    std::vector<BufferHandle> structures;  // hardware backends: the BLASes and the TLAS
    BufferHandle launch;                   // ray-tracing pipeline, GPU-driven
};
EbpiTraceSetup addEbpiTraceSetupPasses(Graph& graph, const EbpiTracePassInputs& inputs);
// The trace and sort of the rays [firstRay, firstRay + chunkRays) into `hits` (advances setup.rayHits).
EbpiTraceOutputs addEbpiTraceChunkPasses(Graph& graph, const EbpiTracePassInputs& inputs, EbpiTraceSetup& setup,
                                         BufferHandle hits, uint32_t firstRay);
// Set-up, one chunk from ray 0 and the optional read-back: every ray when chunkRays is 0.
EbpiTraceOutputs addEbpiTracePasses(Graph& graph, const EbpiTracePassInputs& inputs);

}  // namespace vkc
