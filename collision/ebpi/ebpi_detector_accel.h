// EbpiDetector's hardware ray backends (ray query, ray-tracing pipeline), per frame: the
// acceleration structures (one BLAS per tested object over its triangles' grown boxes, one TLAS)
// and the buffer the boxes are written into on the GPU from the objects' vertices in place
// (ebpi_trace_boxes.comp: this frame's positions, so a mesh the host deforms needs nothing more);
// for the ray-tracing pipeline, the buffer of the trace's launch size.
#pragma once

#include "passes/ebpi/ebpi_trace_accel.h"
#include "passes/ebpi/ebpi_trace_passes.h"
#include "shaders_glsl/shared/ebpi_trace.h"
#include "vk/buffer.h"

#include <span>

namespace vkc {

// One slot's structures and box buffer, reused (grown when too small) by its frames.
struct EbpiAccelFrame {
    Buffer boxes;  // EbpiTriangleBoxGpu per triangle of every tested object
    EbpiAccelStructs structs;
    Buffer launch;  // ray-tracing pipeline: VkTraceRaysIndirectCommandKHR
    VkDeviceAddress launchAddress = 0;
};

// Sets each object's firstBox, grows the box buffer, re-creates the structures (the slot's GPU
// work is done) and, for the ray-tracing pipeline, makes the launch buffer once.
Status prepareEbpiAccelFrame(VulkanContext& ctx, EbpiRayBackend backend, EbpiAccelFrame& accel,
                             std::span<gpu::EbpiTraceObjectGpu> objects);

void destroyEbpiAccelFrame(VulkanContext& ctx, EbpiAccelFrame& accel);

}  // namespace vkc
