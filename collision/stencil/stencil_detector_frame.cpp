// vkc::StencilDetector, one frame: the scene's object table and the candidates (the broadphase's
// buffers of the same frame, or the host's uploaded in their layout), the pass graph
// (passes/stencil/stencil_passes.h: the views and draws set up on the GPU), and later the decoding
// of the ring slot, occlusion queries included.
#include "collision/stencil/stencil_detector_impl.h"

#include "collision/frames/found_pairs.h"
#include "collision/frames/frame_warnings.h"
#include "collision/frames/object_gpu.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "collision/frames/vulkan_graph.h"
#include "collision/scene/scene_impl.h"
#include "vk/descriptors.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

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
                                             std::span<const VkDescriptorBufferInfo> meshBuffers) {
    VulkanContext& c = *ctx;
    const GraphDescriptors d(c, graph, frames.placeholder.buffer);
    writeImageFrameSetupDescriptors(c, slot.setupSet, d.buffer(in.candidates), d.buffer(in.bounds), d.buffer(in.draws),
                                    d.buffer(in.frame), d.buffer(in.drawn), d.buffer(in.commands));
    d.storageBuffer(slot.drawSet, gpu::kStencilBindingObjects, in.objects);
    d.storageBuffer(slot.drawSet, gpu::kStencilBindingNormals, in.normals);
    d.storageBuffer(slot.drawSet, gpu::kStencilBindingFrame, in.frame);
    d.storageBuffer(slot.normalsSet, gpu::kStencilBindingTopology, in.topology);
    d.storageBuffer(slot.normalsSet, gpu::kStencilBindingNormals, in.normals);
    for (VkDescriptorSet set : {slot.drawSet, slot.normalsSet})
        writeStorageBufferArray(c, set, gpu::kBindingVertexBuffers, meshBuffers);
    d.storageBuffer(slot.scanSet, gpu::kStencilBindingPairFlags, in.pairFlags);
    d.storageBuffer(slot.scanSet, gpu::kStencilBindingCandidates, in.candidates);
    d.storageBuffer(slot.scanSet, gpu::kStencilBindingCandidateSlots, in.candidateSlots);
    d.storageBuffer(slot.scanSet, gpu::kStencilBindingPoints, in.points);
    d.storageBuffer(slot.scanSet, gpu::kStencilBindingFrame, in.frame);
    d.storageBuffer(slot.scanSet, gpu::kStencilBindingObjectFlags, in.objectFlags);
    d.storageImage(slot.scanSet, gpu::kStencilBindingPenetratingImage, in.penetratingImage);
    d.storageImage(slot.scanSet, gpu::kStencilBindingPenetratedImage, in.penetratedImage);
    writePairCompactDescriptors(c, slot.compactSet, d.buffer(in.candidates), d.buffer(in.candidateSlots),
                                d.buffer(in.pairFlags), d.buffer(in.pairs), d.buffer(in.unfound));
    return Status::success();
}

Status StencilDetectorImpl::recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, const CandidateSource& source,
                                        uint64_t frame) {
    VulkanContext& c = *ctx;
    const StencilSettings& s = settings;
    const uint32_t objectCount = uint32_t(scene.objects.size());
    VKC_TRY(checkImageFrameObjects(c, objectCount, "stencil"));
    // The slot is free once the frame that last used it has completed on the GPU (never waits).
    VKC_TRY(ringSlotAvailable(c, frames.ring, frame));
    StencilSlot& slot = slots[frame % slots.size()];
    VKC_TRY(ensureTopology(slot, scene));
    auto graphOwner = std::make_unique<Graph>();
    Graph& graph = *graphOwner;
    auto added = addFrameCandidates(graph, {"stencil", "StencilSettings", s}, scene, source);
    if (!added) return added.status();
    const CandidateBuffers& candidates = added->buffers;

    // Every object of the scene has its table entry and draws: which ones draw an instance, the
    // GPU decides from the candidates. Per mesh its vertex-buffer slot and a normal dispatch.
    VertexBufferSlots vertexSlots(frames.vertexBufferCapacity, "stencil: the scene's objects read");
    std::map<MeshId, uint32_t> meshSlots;
    std::vector<gpu::StencilObjectGpu> objects(std::max<size_t>(1, objectCount));
    std::vector<gpu::ImageObjectDrawGpu> draws(objects.size());
    slot.openObjects.clear();
    for (uint32_t i = 0; i < objectCount; ++i) {
        const SceneObject& o = scene.objects[i];
        const SceneMesh& mesh = scene.meshes[o.mesh];
        auto vertexSlot = vertexSlots.slot(mesh.vertexBuffer, vertexExtentBytes(mesh), [&] { return "object \"" + o.name + "\""; });
        if (!vertexSlot) return vertexSlot.status();
        meshSlots.emplace(o.mesh, vertexSlot.value());
        if (!mesh.report.validForVolumeMethods()) slot.openObjects[i] = mesh.data.name;
        const StencilMeshRange& range = slot.topology.ranges[o.mesh];
        objects[i] = {objectGpu(scene, o, candidates.origin, vertexSlot.value()), slot.topology.normals[o.mesh].normalBase,
                      0u, 0u, 0u};
        draws[i] = {range.edgeFirst, range.edgeCount, range.triangleFirst, range.triangleCount, 0u, 0u, 0u, 0u};
    }


    StencilPassInputs in;
    for (const auto& [object, mesh] : slot.openObjects) in.openObjects.push_back(object);  // their recounts need a clear
    in.pipelines = {&frameSetup, &normals, &edgeDepth, &count, &positive, &negative, &penetrating,
                    &recount, &penetratedId, &scan, &compact, &candidateIndex};
    in.setupSet = slot.setupSet;
    in.drawSet = slot.drawSet;
    in.normalsSet = slot.normalsSet;
    in.scanSet = slot.scanSet;
    in.compactSet = slot.compactSet;
    in.occlusion = slot.occlusion.pool;
    in.storeOpNone = c.apiVersion >= VK_API_VERSION_1_3;
    in.resolution = s.resolution;
    in.views = s.views;
    in.paddingPixels = s.regionPaddingPixels;
    in.edgeOffsetPixels = s.edgeOffsetPixels;
    for (const auto& [mesh, vertexSlot] : meshSlots) {
        gpu::StencilNormalsPush push = slot.topology.normals[mesh];
        push.vertices = vertexSource(scene.meshes[mesh], vertexSlot);
        if (push.vertices.count != 0) in.normalDispatches.push_back(push);
    }
    PairListSizes& lists = in;
    lists = {objectCount, candidates.pairCapacity, s.maxCandidatePairs, s.pointCapacity};
    slot.objectCount = objectCount;
    slot.origin = candidates.origin;

    const std::vector<uint32_t>& topology = slot.topology.data;
    in.candidates = candidates.pairs;
    in.bounds = candidates.bounds;
    in.topology = graph.persistentBuffer("stencil topology", {std::max<VkDeviceSize>(16, topology.size() * 4), 0, true});
    in.objects = graph.createBuffer("stencil objects", {objects.size() * sizeof(objects[0]), 0, true});
    in.normals = graph.createBuffer("stencil vertex normals",
                                    {std::max<VkDeviceSize>(16, VkDeviceSize(slot.topology.totalVertices) * 12)});
    in.draws = graph.createBuffer("stencil draw ranges", {draws.size() * sizeof(draws[0]), 0, true});
    in.frame = graph.createBuffer("stencil frame views", {sizeof(gpu::ImageFrameGpu)});
    in.drawn = graph.createBuffer("stencil drawn objects", {imageFrameDrawnBytes(objectCount)});
    in.commands = graph.createBuffer("stencil indirect commands", {imageFrameCommandsBytes(objectCount, kStencilDrawsPerObject)});
    in.candidateSlots = graph.createBuffer("stencil candidate slots", {candidateSlotsBytes(in.candidateCount)});
    in.pairFlags = graph.createBuffer("stencil candidate flags", {candidateFlagsBytes(in.candidateCount)});
    in.pairs = graph.createBuffer("stencil pairs", {stencilPairsBytes(s.maxCandidatePairs)});
    in.unfound = graph.createBuffer("stencil unfound candidates", {stencilPairsBytes(s.maxCandidatePairs)});
    in.points = graph.createBuffer("stencil points", {stencilPointsBytes(s.pointCapacity)});
    in.objectFlags = graph.createBuffer("stencil object flags", {VkDeviceSize(std::max(objectCount, 1u)) * 4});
    in.meshVertices = importVertexBuffers(graph, vertexSlots.buffers());
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
    VKC_TRY(fillHostBuffer(*frames.allocator, graph, in.draws, std::span<const gpu::ImageObjectDrawGpu>(draws)));
    VKC_TRY(fillHostCandidates(*frames.allocator, graph, added.value()));
    VKC_TRY(writeDescriptors(slot, graph, in, vertexSlots.bindings()));
    VKC_TRY(executeFrameGraph(c, frames, frame, graph, cmd));
    noteFrameInputs(frames, frame, scene, "stencil");
    slot.graph = std::move(graphOwner);
    return Status::success();
}

Status StencilDetectorImpl::readResults(uint64_t frame, FrameResults& out, StencilFrameDetails* details) {
    VulkanContext& c = *ctx;
    auto bytes = readRingSlot(c, frames.ring, frame);
    if (!bytes) return bytes.status();
    const StencilSlot& slot = slots[frame % slots.size()];
    const char* base = static_cast<const char*>(bytes.value());

    const ReadbackLayout& layout = frames.readback;
    const uint32_t objects = slot.objectCount;
    const uint32_t views = objects == 0 ? 0 : settings.views;
    const std::span<const uint64_t> samples =
        layout.span<uint64_t>(base, kStencilReadbackOcclusion, stencilRecordedQueries(views, objects));
    gpu::ImageFrameGpu fitted;
    std::memcpy(&fitted, layout.bytes(base, kStencilReadbackFrame), sizeof(fitted));
    const std::span<const uint32_t> drawn = layout.span<uint32_t>(base, kStencilReadbackDrawn, objects);
    const std::span<const uint32_t> objectFlags = layout.span<uint32_t>(base, kStencilReadbackObjectFlags, objects);

    StencilFrameDetails d;
    d.drawnObjects = fitted.drawnObjects;
    d.pixelSize = fitted.pixelSize;
    for (uint32_t view = 0; view < views; ++view) {
        const uint64_t* q = samples.data() + size_t(view) * kStencilQueriesPerView;
        d.interferingSamples.push_back(q[0]);
        d.negativeSamples.push_back(q[1]);
        d.interference = d.interference || q[0] != 0;
    }
    for (uint32_t i = 0; i < objects; ++i) {
        if (objectFlags[i] & gpu::kStencilObjectPenetrating) d.penetratingObjects.push_back(i);
        if (objectFlags[i] & gpu::kStencilObjectPenetrated) d.penetratedObjects.push_back(i);
    }
    // Drawn meshes that are not closed solids: their counts are unreliable.
    std::set<std::string> openMeshes;
    for (const auto& [object, mesh] : slot.openObjects)
        if (drawn[object] == gpu::kImageFrameDrawn) openMeshes.insert(mesh);

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

    for (const std::string& mesh : openMeshes)
        out.warnings.push_back("stencil: mesh \"" + mesh +
                               "\" is not a closed, consistently oriented solid; its stencil counts are unreliable");
    // The method sees an interference only through an edge point that is the nearest edge along some
    // ray (paper 1, 6.4): a candidate without one may be apart, or interfere with every interfering
    // edge obscured by nearer edges or lying on the other's faces. It cannot tell, so it says so.
    // The compaction listed them on the GPU (the CPU never saw the candidates).
    const ReadbackList unfoundList = readbackList(layout.bytes(base, kStencilReadbackUnfound), settings.maxCandidatePairs);
    const auto* unfound = reinterpret_cast<const gpu::StencilPairGpu*>(unfoundList.entries);
    for (uint32_t i = 0; i < unfoundList.stored; ++i) d.undecidedPairs.push_back({unfound[i].a, unfound[i].b});
    std::sort(d.undecidedPairs.begin(), d.undecidedPairs.end());
    if (unfoundList.count != 0)
        out.warnings.push_back("stencil: " + std::to_string(unfoundList.count) +
                               " candidate pair(s) with overlapping boxes showed no interfering edge point; the "
                               "method cannot tell them from interferences whose edges are all obscured or "
                               "coplanar (paper 1, 6.4): see StencilFrameDetails::undecidedPairs" +
                               (unfoundList.truncated ? " (the first " + std::to_string(unfoundList.stored) + " listed)"
                                                      : std::string()));
    if (pairList.truncated)
        out.warnings.push_back("stencil: " + std::to_string(pairList.count) + " interfering pairs, more than " +
                               "StencilSettings::maxCandidatePairs (" + std::to_string(settings.maxCandidatePairs) +
                               "); pairs are truncated");
    if (d.pointsTruncated)
        out.warnings.push_back("stencil: " + std::to_string(pointList.count) + " interfering edge points, " +
                               "more than StencilSettings::pointCapacity (" + std::to_string(settings.pointCapacity) +
                               "); points are truncated");
    if (d.interference && out.pairs.empty())
        out.warnings.push_back("stencil: the occlusion query saw interfering edge points but no object pair was "
                               "identified (an edge inside its own object: edgeOffsetPixels may be too small)");
    // Negative counts are what an open mesh leaves (paper 1, 4.1); closed meshes can leave a few
    // through rounding where faces meet an edge point's depth, which is nothing a host can act on.
    uint64_t negative = 0;
    for (uint64_t n : d.negativeSamples) negative += n;
    if (negative != 0 && !openMeshes.empty()) {
        std::string meshes;
        for (const std::string& mesh : openMeshes) meshes += (meshes.empty() ? "\"" : ", \"") + mesh + "\"";
        out.warnings.push_back("stencil: negative signed stencil at " + std::to_string(negative) +
                               " samples: a drawn mesh is not a closed manifold (open or non-manifold: " + meshes + ")");
    }
    if (settings.keepImages) {
        const size_t pixels = size_t(settings.resolution) * settings.resolution;
        const std::span<const uint8_t> stencil =
            layout.span<uint8_t>(base, kStencilReadbackCounts, views * pixels);
        for (uint32_t view = 0; view < views; ++view) {
            std::vector<int8_t>& counts = d.counts.emplace_back(pixels);
            for (size_t p = 0; p < pixels; ++p) counts[p] = int8_t(int(stencil[view * pixels + p]) - int(gpu::kStencilBias));
        }
    }
    // Warnings about the meshes of the frame's candidates: the found and the undecided pairs.
    std::vector<ObjectPair> tested = d.undecidedPairs;
    for (const PairResult& pair : out.pairs) tested.push_back({pair.a, pair.b});
    appendFrameWarnings(frames, frame, tested, out.warnings);
    if (details) *details = std::move(d);
    return readFrameTimings(c, frames, frame, *slot.graph, out.gpuTimingsMs);
}

}  // namespace vkc
