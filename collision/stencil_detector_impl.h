// The state behind vkc::StencilDetector: pipelines, one set of buffers/images/queries per frame in
// flight, and the read-back ring. stencil_detector.cpp creates it; stencil_detector_frame.cpp
// records frames and decodes results.
#pragma once

#include "collision/detector_frames.h"
#include "collision/scene_impl.h"
#include "collision/stencil_detector_internal.h"
#include "passes/graph.h"
#include "vk/buffer.h"
#include "vk/image.h"
#include "vk/pipeline.h"
#include "vk/query_pool.h"
#include "vkcollide/stencil.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vkc {

// Everything one frame in flight uses; reused once that frame has been read back.
struct StencilSlot {
    Buffer objects;     // host-visible StencilObjectGpu per object (written at record time)
    Buffer candidates;  // host-visible uvec2 per candidate pair
    Buffer topology;    // host-visible: indices, edges, adjacency of every mesh (rebuilt per scene)
    Buffer normals;     // vec3 per vertex of every mesh (GPU, per frame)
    Buffer pairFlags;   // maxObjects^2 bits
    Buffer pairs;
    Buffer points;
    Image depthStencil;
    Image penetrating;  // id image A
    Image penetrated;   // id image B
    VkDescriptorSet drawSet = VK_NULL_HANDLE;
    VkDescriptorSet normalsSet = VK_NULL_HANDLE;
    VkDescriptorSet scanSet = VK_NULL_HANDLE;
    VkDescriptorSet compactSet = VK_NULL_HANDLE;
    QueryPool occlusion;
    QueryPool timestamps;
    std::unique_ptr<Graph> graph;  // kept for pass names when reading timings

    // Topology cache: which scene topology `topology` was built for.
    SceneTopologyKey topologyKey;
    StencilTopology topologyLayout;     // ranges and normal dispatches (data already uploaded)

    // What the frame recorded, for results().
    std::vector<uint32_t> drawObjects;
    std::vector<ObjectPair> candidatePairs;  // the frame's candidate pairs (sorted, unique)
    uint32_t viewCount = 0;
    float pixelSize = 0.0f;
    glm::dvec3 origin{0.0};  // the frame rendered in world minus this (collision/local_region.h)
    std::vector<std::string> warnings;
    std::vector<std::string> openMeshes;  // drawn meshes that are not closed solids
};

struct StencilDetectorImpl {
    VulkanContext* ctx = nullptr;
    Context* context = nullptr;  // for the broadphase of run(scene)
    StencilSettings settings;
    VkFormat depthStencilFormat = VK_FORMAT_UNDEFINED;
    Pipeline normals, edgeDepth, count, positive, negative, penetrating, recount, penetratedId, scan, compact;
    DetectorFrames frames;
    std::vector<StencilSlot> slots;
    VkDeviceSize readbackPointsOffset = 0;

    ~StencilDetectorImpl();
    Status createPipelines();
    Status createResources();
    Status ensureTopology(StencilSlot& slot, const SceneImpl& scene);
    Status recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, const CandidateSet& candidates, uint64_t frame);
    Status readResults(uint64_t frame, FrameResults& out, StencilFrameDetails* details);
};

}  // namespace vkc
