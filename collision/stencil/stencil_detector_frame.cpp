// vkc::StencilDetector, one frame: gathers the drawn objects of the candidate pairs, fits the
// views (paper 1, section 6.5), fills the per-slot buffers, builds the pass graph
// (passes/stencil/stencil_passes.h) and later decodes the ring slot, occlusion queries included.
#include "collision/stencil/stencil_detector_impl.h"

#include "collision/frames/frame_warnings.h"
#include "collision/frames/orthographic_views.h"
#include "collision/frames/candidate_pairs.h"
#include "collision/frames/drawn_objects.h"
#include "collision/frames/found_pairs.h"
#include "collision/frames/vulkan_graph.h"
#include "collision/frames/local_region.h"
#include "collision/frames/object_gpu.h"
#include "collision/scene/scene_impl.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "vk/descriptors.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace vkc {

Status StencilDetectorImpl::ensureTopology(StencilSlot& slot, const SceneImpl& scene) {
    if (slot.topologyKey == scene.topologyKey()) return Status::success();
    std::vector<const MeshData*> meshes;
    for (const SceneMesh& mesh : scene.meshes) {
        if (!mesh.report.validForObjectSpaceMethods())
            return makeError(ErrorCode::InvalidMesh, "stencil: mesh \"" + mesh.data.name +
                                                         "\" is empty, has indices out of range or non-finite vertices");
        meshes.push_back(&mesh.data);
    }
    slot.topology = buildStencilTopology(meshes);
    slot.topologyKey = {};  // set once the buffer holds it (recordFrame)
    return Status::success();
}

Status StencilDetectorImpl::writeDescriptors(const StencilSlot& slot, const Graph& graph, const StencilPassInputs& in,
                                             std::span<const VkBuffer> meshBuffers) {
    VulkanContext& c = *ctx;
    const GraphDescriptors d(c, graph, frames.placeholder.buffer);
    d.storageBuffer(slot.drawSet, gpu::kStencilBindingObjects, in.objects);
    d.storageBuffer(slot.drawSet, gpu::kStencilBindingNormals, in.normals);
    d.storageBuffer(slot.normalsSet, gpu::kStencilBindingTopology, in.topology);
    d.storageBuffer(slot.normalsSet, gpu::kStencilBindingNormals, in.normals);
    for (VkDescriptorSet set : {slot.drawSet, slot.normalsSet})
        writeStorageBufferArray(c, set, gpu::kBindingVertexBuffers, meshBuffers);
    d.storageBuffer(slot.scanSet, gpu::kStencilBindingPairFlags, in.pairFlags);
    d.storageBuffer(slot.scanSet, gpu::kStencilBindingPoints, in.points);
    d.storageImage(slot.scanSet, gpu::kStencilBindingPenetratingImage, in.penetratingImage);
    d.storageImage(slot.scanSet, gpu::kStencilBindingPenetratedImage, in.penetratedImage);
    writePairCompactDescriptors(c, slot.compactSet, d.buffer(in.candidates), d.buffer(in.pairFlags), d.buffer(in.pairs));
    return Status::success();
}

Status StencilDetectorImpl::recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, const CandidateSet& candidates,
                                        uint64_t frame) {
    VulkanContext& c = *ctx;
    const StencilSettings& s = settings;
    const uint32_t objectCount = uint32_t(scene.objects.size());
    auto candidatePairs = frameCandidatePairs({"stencil", "StencilSettings", s}, objectCount, candidates);
    if (!candidatePairs) return candidatePairs.status();
    const std::vector<ObjectPair>& pairs = candidatePairs.value();
    // The slot is free once the frame that last used it has completed on the GPU (never waits).
    VKC_TRY(ringSlotAvailable(c, frames.ring, frame));
    StencilSlot& slot = slots[frame % slots.size()];
    VKC_TRY(ensureTopology(slot, scene));

    auto drawn = drawnObjects(scene, pairs, candidates.worldBounds, frames.vertexBufferCapacity, "stencil");
    if (!drawn) return drawn.status();
    std::vector<uint32_t>& draw = drawn->objects;
    const LocalRegion& region = drawn->region;

    // Per drawn object: its normals and index ranges; per drawn mesh: a normal dispatch.
    std::map<MeshId, uint32_t> drawnMeshes;  // mesh -> vertex-buffer slot
    std::vector<gpu::StencilObjectGpu> objects(drawn->table.size());
    std::vector<StencilMeshRange> ranges;
    slot.openMeshes.clear();
    for (size_t i = 0; i < draw.size(); ++i) {
        const uint32_t object = draw[i];
        const SceneObject& o = scene.objects[object];
        const SceneMesh& mesh = scene.meshes[o.mesh];
        if (drawnMeshes.emplace(o.mesh, drawn->slotOf[i]).second && !mesh.report.validForVolumeMethods())
            slot.openMeshes.push_back(mesh.data.name);
        objects[object] = {drawn->table[object], slot.topology.normals[o.mesh].normalBase};
        ranges.push_back(slot.topology.ranges[o.mesh]);
    }
    const std::vector<VkBuffer>& meshBuffers = drawn->vertexSlots.buffers();

    StencilPassInputs in;
    in.pipelines = {&normals, &edgeDepth, &count, &positive, &negative, &penetrating, &recount, &penetratedId,
                    &scan, &compact};
    in.drawSet = slot.drawSet;
    in.normalsSet = slot.normalsSet;
    in.scanSet = slot.scanSet;
    in.compactSet = slot.compactSet;
    in.occlusion = slot.occlusion.pool;
    in.storeOpNone = c.apiVersion >= VK_API_VERSION_1_3;
    in.resolution = s.resolution;
    in.clearAfterRecount = !slot.openMeshes.empty();
    for (const auto& [mesh, vertexSlot] : drawnMeshes) {
        gpu::StencilNormalsPush push = slot.topology.normals[mesh];
        push.vertices = vertexSource(scene.meshes[mesh], vertexSlot);
        if (push.vertices.count != 0) in.normalDispatches.push_back(push);
    }
    in.drawObjects = draw;
    in.drawRanges = ranges;
    slot.pixelSize = 0.0f;
    slot.origin = region.origin;
    if (!draw.empty()) {
        OrthographicViewFit fit = fitOrthographicViews(pairs, region.bounds, draw, s.views, s.resolution, s.regionPaddingPixels);
        in.views = std::move(fit.views);
        slot.pixelSize = fit.pixelSize;
    }
    in.edgeOffset = s.edgeOffsetPixels * slot.pixelSize;
    PairListSizes& lists = in;
    lists = {objectCount, uint32_t(pairs.size()), s.maxCandidatePairs, s.pointCapacity};

    slot.graph = std::make_unique<Graph>();
    Graph& graph = *slot.graph;
    const std::vector<uint32_t>& topology = slot.topology.data;
    in.topology = graph.persistentBuffer("stencil topology", {std::max<VkDeviceSize>(16, topology.size() * 4), 0, true});
    in.objects = graph.createBuffer("stencil objects", {objects.size() * sizeof(objects[0]), 0, true});
    in.normals = graph.createBuffer("stencil vertex normals",
                                    {std::max<VkDeviceSize>(16, VkDeviceSize(slot.topology.totalVertices) * 12)});
    in.candidates = graph.createBuffer("stencil candidate pairs", {8 * std::max<VkDeviceSize>(1, pairs.size()), 0, true});
    in.pairFlags = graph.createBuffer("stencil pair flags", {std::max<VkDeviceSize>(16, stencilPairFlagsBytes(objectCount))});
    in.pairs = graph.createBuffer("stencil pairs", {stencilPairsBytes(s.maxCandidatePairs)});
    in.points = graph.createBuffer("stencil points", {stencilPointsBytes(s.pointCapacity)});
    in.meshVertices = importVertexBuffers(graph, meshBuffers);
    in.readback = importReadbackSlot(graph, "stencil readback slot", frames.ring, frame);
    in.readbackLayout = &frames.readback;
    in.depthStencil = graph.createImage("stencil depth-stencil", {s.resolution, s.resolution, depthStencilFormat});
    in.penetratingImage =
        graph.createImage("stencil penetrating ids", {s.resolution, s.resolution, kStencilPenetratingFormat});
    in.penetratedImage = graph.createImage("stencil penetrated ids", {s.resolution, s.resolution, kStencilPenetratedFormat});
    if (s.keepImages)
        in.counts = graph.createBuffer("stencil counts", {stencilCountsBytes(s.views, s.resolution)});
    addStencilPasses(graph, in);
    PersistentResources& resources = slotResources(frames, frame);
    VKC_TRY(graph.compile(resources));

    // The topology buffer keeps its contents until the scene's topology changes (a frame that draws
    // nothing does not create it).
    const bool topologyUsed = graph.buffer(in.topology) != VK_NULL_HANDLE;
    if (topologyUsed && (slot.topologyKey != scene.topologyKey() || graph.created(in.topology))) {
        VKC_TRY(fillHostBuffer(*frames.allocator, graph, in.topology, std::span<const uint32_t>(topology)));
        slot.topologyKey = scene.topologyKey();
    }
    VKC_TRY(fillHostBuffer(*frames.allocator, graph, in.objects, std::span<const gpu::StencilObjectGpu>(objects)));
    VKC_TRY(fillHostBuffer(*frames.allocator, graph, in.candidates, std::span<const ObjectPair>(pairs)));
    VKC_TRY(writeDescriptors(slot, graph, in, meshBuffers));
    VKC_TRY(executeFrameGraph(c, frames, frame, graph, cmd));
    noteFrameInputs(frames, frame, scene, pairs, "stencil");

    slot.drawObjects = std::move(draw);
    slot.candidatePairs = pairs;
    slot.viewCount = uint32_t(in.views.size());
    slot.warnings.clear();
    for (const std::string& mesh : slot.openMeshes)
        slot.warnings.push_back("stencil: mesh \"" + mesh +
                                "\" is not a closed, consistently oriented solid; its stencil counts are unreliable");
    return Status::success();
}

Status StencilDetectorImpl::readResults(uint64_t frame, FrameResults& out, StencilFrameDetails* details) {
    VulkanContext& c = *ctx;
    auto bytes = readRingSlot(c, frames.ring, frame);
    if (!bytes) return bytes.status();
    const StencilSlot& slot = slots[frame % slots.size()];
    const char* base = static_cast<const char*>(bytes.value());

    const ReadbackLayout& layout = frames.readback;
    const uint32_t drawn = uint32_t(slot.drawObjects.size());
    const uint32_t perView = stencilQueriesPerView(drawn);
    const std::span<const uint64_t> samples =
        layout.span<uint64_t>(base, kStencilReadbackOcclusion, stencilOcclusionQueries(slot.viewCount, drawn));

    StencilFrameDetails d;
    d.drawnObjects = drawn;
    d.pixelSize = slot.pixelSize;
    std::vector<bool> penetratingObject(drawn, false), penetratedObject(drawn, false);
    for (uint32_t view = 0; view < slot.viewCount; ++view) {
        const uint64_t* q = samples.data() + size_t(view) * perView;
        d.interferingSamples.push_back(q[0]);
        d.negativeSamples.push_back(q[1]);
        d.interference = d.interference || q[0] != 0;
        for (uint32_t i = 0; i < drawn; ++i) {
            if (q[2 + i] != 0) penetratingObject[i] = true;
            if (q[2 + drawn + i] != 0) penetratedObject[i] = true;
        }
    }
    for (uint32_t i = 0; i < drawn; ++i) {
        if (penetratingObject[i]) d.penetratingObjects.push_back(slot.drawObjects[i]);
        if (penetratedObject[i]) d.penetratedObjects.push_back(slot.drawObjects[i]);
    }

    const ReadbackList pairList = readbackList(layout.bytes(base, kStencilReadbackPairs), settings.maxCandidatePairs);
    const ReadbackList pointList = readbackList(layout.bytes(base, kStencilReadbackPoints), settings.pointCapacity);
    d.pointCount = pointList.count;
    d.pointsTruncated = pointList.truncated;

    out = FrameResults{};
    out.colliding = d.interference;
    out.truncated = d.pointsTruncated || pairList.truncated;
    const FoundPairs found = addFoundPairs(pairList, d.pointsTruncated, out.pairs);
    for (size_t i = 0; i < found.sorted.size(); ++i) {
        const gpu::StencilPairGpu& p = found.sorted[i];
        PairResult& pair = out.pairs[i];
        if (p.flags & 1u) {
            pair.penetrating.push_back(p.a);
            pair.penetrated.push_back(p.b);
        }
        if (p.flags & 2u) {
            pair.penetrating.push_back(p.b);
            pair.penetrated.push_back(p.a);
        }
        std::sort(pair.penetrating.begin(), pair.penetrating.end());
        std::sort(pair.penetrated.begin(), pair.penetrated.end());
    }
    const auto* points = reinterpret_cast<const gpu::StencilPointGpu*>(pointList.entries);
    for (uint32_t i = 0; i < pointList.stored; ++i) {
        PairResult* pair = found.find(out.pairs, points[i].objects >> 16, points[i].objects & 0xffffu);
        if (pair) pair->points.push_back(glm::vec3(glm::dvec3(points[i].x, points[i].y, points[i].z) + slot.origin));
    }

    out.warnings = slot.warnings;
    // The method sees an interference only through an edge point that is the nearest edge along some
    // ray (paper 1, 6.4): a candidate without one may be apart, or interfere with every interfering
    // edge obscured by nearer edges or lying on the other's faces. It cannot tell, so it says so.
    for (const ObjectPair& candidate : slot.candidatePairs)
        if (!found.find(out.pairs, candidate.a, candidate.b)) d.undecidedPairs.push_back(candidate);
    if (!d.undecidedPairs.empty())
        out.warnings.push_back("stencil: " + std::to_string(d.undecidedPairs.size()) +
                               " candidate pair(s) with overlapping boxes showed no interfering edge point; the "
                               "method cannot tell them from interferences whose edges are all obscured or "
                               "coplanar (paper 1, 6.4): see StencilFrameDetails::undecidedPairs");
    if (d.pointsTruncated)
        out.warnings.push_back("stencil: " + std::to_string(pointList.count) + " interfering edge points, " +
                               "more than StencilSettings::pointCapacity (" + std::to_string(settings.pointCapacity) +
                               "); points are truncated");
    if (d.interference && out.pairs.empty())
        out.warnings.push_back("stencil: the occlusion query saw interfering edge points but no object pair was "
                               "identified (an edge inside its own object: edgeOffsetPixels may be too small)");
    uint64_t negative = 0;
    for (uint64_t n : d.negativeSamples) negative += n;
    if (negative != 0) {
        std::string meshes;
        for (const std::string& mesh : slot.openMeshes) meshes += (meshes.empty() ? "\"" : ", \"") + mesh + "\"";
        out.warnings.push_back("stencil: negative signed stencil at " + std::to_string(negative) +
                               " samples: a drawn mesh is not a closed manifold" +
                               (meshes.empty() ? std::string(" (no mesh failed the mesh checks)")
                                               : " (open or non-manifold: " + meshes + ")"));
    }
    if (settings.keepImages) {
        const size_t pixels = size_t(settings.resolution) * settings.resolution;
        const std::span<const uint8_t> stencil =
            layout.span<uint8_t>(base, kStencilReadbackCounts, slot.viewCount * pixels);
        for (uint32_t view = 0; view < slot.viewCount; ++view) {
            std::vector<int8_t>& counts = d.counts.emplace_back(pixels);
            for (size_t p = 0; p < pixels; ++p) counts[p] = int8_t(int(stencil[view * pixels + p]) - int(gpu::kStencilBias));
        }
    }
    if (details) *details = std::move(d);
    return readFrameTimings(c, frames, frame, *slot.graph, out.gpuTimingsMs);
}

}  // namespace vkc
