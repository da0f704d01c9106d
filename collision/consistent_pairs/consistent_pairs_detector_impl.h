// The state behind vkc::ConsistentPairsDetector: pipelines, one set of buffers/images/queries per
// frame in flight, and the read-back ring. consistent_pairs_detector.cpp creates it;
// consistent_pairs_detector_frame.cpp records frames and decodes results.
#pragma once

#include "collision/frames/detector_frames.h"
#include "collision/frames/gpu_candidates.h"
#include "collision/scene/scene_index_cache.h"
#include "passes/consistent_pairs/consistent_pairs_passes.h"
#include "passes/graph/graph.h"
#include "vk/buffer.h"
#include "vk/image.h"
#include "vk/pipeline.h"
#include "vk/query_pool.h"
#include "vkcollide/consistent_pairs.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace vkc {

struct SceneImpl;

// Everything one frame in flight uses; reused once that frame has been read back.
// Its buffers and images are the graph's (DetectorFrames::slots).
struct ConsistentPairsSlot {
    VkDescriptorSet setupSet = VK_NULL_HANDLE;
    VkDescriptorSet geometrySet = VK_NULL_HANDLE;
    VkDescriptorSet windowSet = VK_NULL_HANDLE;
    VkDescriptorSet decideSet = VK_NULL_HANDLE;
    VkDescriptorSet imagesSet = VK_NULL_HANDLE;
    VkDescriptorSet compactSet = VK_NULL_HANDLE;
    QueryPool occlusion;
    std::unique_ptr<Graph> graph;  // kept for pass names when reading timings

    SceneIndexCache indices;  // every mesh's triangles, rebuilt when the scene's mesh shapes change

    // What the frame recorded, for results(); which objects it drew, the GPU says.
    uint32_t objectCount = 0;
    glm::dvec3 origin{0.0};  // the frame rendered in world minus this (the candidates' origin)
    std::map<uint32_t, std::string> openObjects;  // objects that are not closed solids: their labels
};

struct ConsistentPairsDetectorImpl {
    VulkanContext* ctx = nullptr;
    Context* context = nullptr;  // for the broadphase of run(scene)
    ConsistentPairsSettings settings;
    ImageFramePipelines frameSetup;
    Pipeline peel, consistency, backId, determination, decide, clear, layerCopy, backClear, compact, candidateIndex;
    DetectorFrames frames;
    std::vector<ConsistentPairsSlot> slots;

    ~ConsistentPairsDetectorImpl();
    Status createPipelines();
    Status createResources();
    Status createSlot(ConsistentPairsSlot& slot, uint32_t index);
    void writeDescriptors(const ConsistentPairsSlot& slot, const Graph& graph, const ConsistentPairsPassInputs& in,
                          std::span<const VkDescriptorBufferInfo> meshBuffers);
    Status recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, const CandidateSource& candidates, uint64_t frame);
    Status readResults(uint64_t frame, FrameResults& out, ConsistentPairsFrameDetails* details);
};

}  // namespace vkc
