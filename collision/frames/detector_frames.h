// The one frame mechanism of every GPU method (the broadphase and the five detectors): frame N
// records into slot N % framesInFlight once that slot's previous frame has completed. It holds the
// slots' graph resources (PersistentResources, created by `allocator`), the descriptor pool their
// sets come from, the read-back ring and its declared layout, and what the blocking run() calls
// keep (collision/frames/blocking_run.h). A method adds its pipelines, passes and decoder.
#pragma once

#include "collision/frames/vulkan_graph.h"
#include "passes/graph/readback_layout.h"
#include "vk/readback_ring.h"
#include "vkcollide/broadphase.h"

#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace vkc {

// What a frame slot keeps about its frame's inputs (frame_warnings.h).
struct FrameInputWarnings {
    std::vector<MeshId> objectMeshes;          // per scene object
    std::map<MeshId, std::string> meshWarnings;  // meshes with degenerate triangles
};

struct DetectorFrames {
    std::unique_ptr<VulkanGraphAllocator> allocator;  // creates what the slots' graphs declare
    std::vector<std::unique_ptr<PersistentResources>> slots;  // per frame slot, kept across its frames
    VkDescriptorPool descriptorPool = VK_NULL_HANDLE;
    Buffer placeholder;       // bound where a frame's graph created no buffer (GraphDescriptors)
    ReadbackLayout readback;  // the regions of each ring slot
    uint32_t vertexBufferCapacity = 0;  // length of each set's vertex-buffer array (vertex_buffer_slots.h)
    ReadbackRing ring;
    bool gpuTimings = true;                  // frames write pass timestamps (not the settings' disableGpuTimings)
    std::vector<FrameInputWarnings> slotWarnings;  // per slot: about its frame's inputs
    uint64_t nextRunFrame = 0;               // frames of the blocking calls
    // Called when a blocking frame's submit failed: the slot must forget what it assumes that frame
    // wrote on the GPU (tree boxes kept across frames), since it never ran.
    std::function<void(uint64_t frame)> discardFrame;
    std::unique_ptr<Broadphase> broadphase;  // for run(scene) only, created on first use
};

// Sizes and names of what createDetectorFrames makes; `method` prefixes every name ("ldi").
struct DetectorFramesDesc {
    const char* method = nullptr;
    uint32_t framesInFlight = 0;
    uint32_t descriptorSets = 0;                     // in all slots together
    std::span<const VkDescriptorPoolSize> poolSizes;  // in all slots together
    ReadbackLayout readback;                         // what one ring slot holds
    bool gpuTimings = true;                          // not the settings' disableGpuTimings
};

Status createDetectorFrames(VulkanContext& ctx, const DetectorFramesDesc& desc, DetectorFrames& out);
void destroyDetectorFrames(VulkanContext& ctx, DetectorFrames& frames);

// The resources of `frame`'s slot.
inline PersistentResources& slotResources(DetectorFrames& frames, uint64_t frame) {
    return *frames.slots[frame % frames.slots.size()];
}

// Records `graph`, compiled with `frame`'s slot, into `cmd` (with the pass timestamps when
// frames.gpuTimings), and marks the frame recorded: its results are NotReady until its signal.
Status executeFrameGraph(const VulkanContext& ctx, DetectorFrames& frames, uint64_t frame, const Graph& graph,
                         VkCommandBuffer cmd);

// `frame`'s per-pass GPU milliseconds (its graph is `graph`) into `out`, which is cleared first:
// empty when frames.gpuTimings is off. Reads the GPU's copy of the timestamps, never the driver's
// query results; call once readRingSlot(frame) succeeded.
Status readFrameTimings(const VulkanContext& ctx, DetectorFrames& frames, uint64_t frame, const Graph& graph,
                        std::map<std::string, double>& out);

}  // namespace vkc
