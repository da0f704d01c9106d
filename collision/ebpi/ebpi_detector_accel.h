// EbpiDetector's ray-query backend, per frame: the acceleration structures (one BLAS per tested
// object over its triangles' grown boxes, one TLAS) and the buffer the boxes are written into on
// the GPU from the objects' vertices in place (ebpi_trace_boxes.comp: this frame's positions, so a
// mesh the host deforms needs nothing more).
#pragma once

#include "passes/ebpi/ebpi_trace_accel.h"
#include "shaders_glsl/shared/ebpi_trace.h"
#include "vk/buffer.h"

#include <span>

namespace vkc {

// One slot's structures and box buffer, reused (grown when too small) by its frames.
struct EbpiAccelFrame {
    Buffer boxes;  // EbpiTriangleBoxGpu per triangle of every tested object
    EbpiAccelStructs structs;
};

// Sets each object's firstBox, grows the box buffer and re-creates the structures (the slot's GPU
// work is done).
Status prepareEbpiAccelFrame(VulkanContext& ctx, EbpiAccelFrame& accel, std::span<gpu::EbpiTraceObjectGpu> objects);

void destroyEbpiAccelFrame(VulkanContext& ctx, EbpiAccelFrame& accel);

}  // namespace vkc
