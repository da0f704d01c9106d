// EbpiDetector's hardware ray backends (ray query, ray-tracing pipeline), per frame: the
// acceleration structures (one BLAS per object slot of the frame, ebpi_pair_setup.h, over a fixed
// number of boxes: its object's triangles' grown boxes, the rest inactive; one TLAS)
// and the buffer the boxes are written into on the GPU from the objects' vertices in place
// (ebpi_trace_boxes.comp: this frame's positions, so a mesh the host deforms needs nothing more);
// for the ray-tracing pipeline, the buffer of the trace's launch size.
#pragma once

#include "passes/ebpi/ebpi_trace_accel.h"
#include "passes/ebpi/ebpi_trace_passes.h"
#include "shaders_glsl/shared/ebpi_trace.h"
#include "vk/buffer.h"


namespace vkc {

// One slot's structures and box buffer, reused (grown when too small) by its frames.
struct EbpiAccelFrame {
    Buffer boxes;  // EbpiTriangleBoxGpu, boxesPerObject per object slot
    uint32_t objectCount = 0, boxesPerObject = 0;  // what the structures were made for
    EbpiAccelStructs structs;
    Buffer launch;  // ray-tracing pipeline: VkTraceRaysIndirectCommandKHR
    VkDeviceAddress launchAddress = 0;
};

// Structures for `objectCount` objects of `boxesPerObject` boxes each (object i's from box
// i x boxesPerObject): kept when the last frame had the same, else the box buffer grown and the
// structures re-created (the slot's GPU work is done); for the ray-tracing pipeline, the launch
// buffer made once.
Status prepareEbpiAccelFrame(VulkanContext& ctx, EbpiRayBackend backend, EbpiAccelFrame& accel, uint32_t objectCount,
                             uint32_t boxesPerObject);

void destroyEbpiAccelFrame(VulkanContext& ctx, EbpiAccelFrame& accel);

}  // namespace vkc
