// The state behind vkc::StencilDetector: pipelines, one set of buffers/images/queries per frame in
// flight, and the read-back ring. stencil_detector.cpp creates it; stencil_detector_frame.cpp
// records frames and decodes results.
#pragma once

#include "collision/frames/detector_frames.h"
#include "collision/frames/gpu_candidates.h"
#include "collision/scene/scene_impl.h"
#include "collision/stencil/stencil_detector_internal.h"
#include "passes/graph/graph.h"
#include "vk/buffer.h"
#include "vk/image.h"
#include "vk/pipeline.h"
#include "vk/query_pool.h"
#include "vkcollide/stencil.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vkc {

// Everything one frame in flight uses; reused once that frame has been read back.
// Its buffers and images are the graph's (DetectorFrames::slots).
struct StencilSlot {
    VkDescriptorSet setupSet = VK_NULL_HANDLE;
    VkDescriptorSet drawSet = VK_NULL_HANDLE;
    VkDescriptorSet normalsSet = VK_NULL_HANDLE;
    VkDescriptorSet scanSet = VK_NULL_HANDLE;
    VkDescriptorSet compactSet = VK_NULL_HANDLE;
    QueryPool occlusion;
    std::unique_ptr<Graph> graph;  // kept for pass names when reading timings

    // Topology cache: which scene topology the slot's "stencil topology" buffer holds.
    SceneTopologyKey topologyKey;
    StencilTopology topology;  // indices, edges, adjacency, ranges and normal dispatches

    // What the frame recorded, for results(); which objects it drew, the GPU says.
    uint32_t objectCount = 0;
    glm::dvec3 origin{0.0};  // the frame rendered in world minus this (the candidates' origin)
    std::map<uint32_t, std::string> openObjects;  // objects whose meshes are not closed solids: the mesh's name
};

struct StencilDetectorImpl {
    VulkanContext* ctx = nullptr;
    Context* context = nullptr;  // for the broadphase of run(scene)
    StencilSettings settings;
    VkFormat depthStencilFormat = VK_FORMAT_UNDEFINED;
    ImageFramePipelines frameSetup;
    Pipeline normals, edgeDepth, count, positive, negative, penetrating, recount, penetratedId, scan, compact,
        candidateIndex;
    DetectorFrames frames;
    std::vector<StencilSlot> slots;

    ~StencilDetectorImpl();
    Status createPipelines();
    Status createResources();
    Status ensureTopology(StencilSlot& slot, const SceneImpl& scene);
    Status writeDescriptors(const StencilSlot& slot, const Graph& graph, const StencilPassInputs& in,
                            std::span<const VkDescriptorBufferInfo> meshBuffers);
    Status recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, const CandidateSource& candidates, uint64_t frame);
    Status readResults(uint64_t frame, FrameResults& out, StencilFrameDetails* details);
};

}  // namespace vkc
