// The state behind vkc::ConsistentPairsDetector: pipelines, one set of buffers/images/queries per
// frame in flight, and the read-back ring. consistent_pairs_detector.cpp creates it;
// consistent_pairs_detector_frame.cpp records frames and decodes results.
#pragma once

#include "collision/detector_frames.h"
#include "collision/scene_index_cache.h"
#include "passes/consistent_pairs_passes.h"
#include "passes/graph.h"
#include "vk/buffer.h"
#include "vk/image.h"
#include "vk/pipeline.h"
#include "vk/query_pool.h"
#include "vkcollide/consistent_pairs.h"

#include <memory>
#include <string>
#include <vector>

namespace vkc {

struct SceneImpl;

// Everything one frame in flight uses; reused once that frame has been read back.
struct ConsistentPairsSlot {
    Buffer objects;     // host-visible ObjectGpu per object (written at record time)
    Buffer frame;       // host-visible CpFrameGpu
    Buffer draws;       // host-visible VkDrawIndexedIndirectCommand per iteration per drawn object; the GPU
                        // rewrites instanceCount of iterations after the first
    Buffer candidates;  // host-visible uvec2 per candidate pair
    Buffer pairFlags;   // maxObjects^2 bits
    Buffer stats;
    Buffer pairs;
    Buffer points;
    Image depth;
    Image peelTarget;
    Image layers;
    Image backDepth;
    Image backId;
    VkDescriptorSet geometrySet = VK_NULL_HANDLE;
    VkDescriptorSet windowSet = VK_NULL_HANDLE;
    VkDescriptorSet decideSet = VK_NULL_HANDLE;
    VkDescriptorSet compactSet = VK_NULL_HANDLE;
    QueryPool occlusion;
    QueryPool timestamps;
    std::unique_ptr<Graph> graph;  // kept for pass names when reading timings

    SceneIndexCache indices;  // every mesh's triangles, rebuilt when the scene's mesh shapes change

    // What the frame recorded, for results().
    uint32_t drawnObjects = 0;
    float pixelSize = 0.0f;
    float distanceThreshold = 0.0f;
    glm::dvec3 origin{0.0};  // the frame rendered in world minus this (collision/local_region.h)
};

struct ConsistentPairsDetectorImpl {
    VulkanContext* ctx = nullptr;
    Context* context = nullptr;  // for the broadphase of run(scene)
    ConsistentPairsSettings settings;
    Pipeline peel, consistency, backId, determination, decide, compact;
    DetectorFrames frames;
    std::vector<ConsistentPairsSlot> slots;
    VkDeviceSize readbackPointsOffset = 0;
    VkDeviceSize readbackStatsOffset = 0;

    ~ConsistentPairsDetectorImpl();
    Status createPipelines();
    Status createResources();
    Status createSlot(ConsistentPairsSlot& slot, uint32_t index);
    Status recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, std::span<const ObjectPair> candidates,
                       std::span<const Aabb> worldBounds, uint64_t frame);
    Status readResults(uint64_t frame, FrameResults& out, ConsistentPairsFrameDetails* details);
};

}  // namespace vkc
