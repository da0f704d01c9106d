// vkc::ConsistentPairsDetector, one frame: the scene's object table and draw ranges, the candidates
// (the broadphase's buffers of the same frame, or the host's uploaded in their layout), the pass
// graph (passes/consistent_pairs/consistent_pairs_passes.h: the single orthographic view over the
// potentially colliding set, paper 3 section 4, and the draws set up on the GPU), and later the
// decoding of the ring slot, occlusion queries included.
#include "collision/consistent_pairs/consistent_pairs_detector_impl.h"

#include "collision/frames/frame_warnings.h"
#include "collision/frames/candidate_pairs.h"
#include "collision/frames/found_pairs.h"
#include "collision/frames/gpu_candidates.h"
#include "collision/frames/vulkan_graph.h"
#include "collision/frames/object_gpu.h"
#include "collision/scene/scene_impl.h"
#include "collision/stencil/stencil_detector_internal.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "vk/descriptors.h"

#include <cstring>

namespace vkc {

void ConsistentPairsDetectorImpl::writeDescriptors(const ConsistentPairsSlot& slot, const Graph& graph,
                                                   const ConsistentPairsPassInputs& in,
                                                   std::span<const VkDescriptorBufferInfo> meshBuffers) {
    VulkanContext& c = *ctx;
    const GraphDescriptors d(c, graph, frames.placeholder.buffer);
    d.storageBuffer(slot.geometrySet, gpu::kConsistentPairsBindingObjects, in.objects);
    d.storageBuffer(slot.geometrySet, gpu::kConsistentPairsBindingFrame, in.frame);
    d.storageBuffer(slot.geometrySet, gpu::kConsistentPairsBindingView, in.view);
    writeStorageBufferArray(c, slot.geometrySet, gpu::kBindingVertexBuffers, meshBuffers);
    d.storageBuffer(slot.windowSet, gpu::kConsistentPairsBindingPairFlags, in.pairFlags);
    d.storageBuffer(slot.windowSet, gpu::kConsistentPairsBindingCandidates, in.candidates);
    d.storageBuffer(slot.windowSet, gpu::kConsistentPairsBindingCandidateSlots, in.candidateSlots);
    d.storageBuffer(slot.windowSet, gpu::kConsistentPairsBindingStats, in.stats);
    d.storageBuffer(slot.windowSet, gpu::kConsistentPairsBindingPoints, in.points);
    d.storageBuffer(slot.windowSet, gpu::kConsistentPairsBindingInconsistentImage, in.inconsistentImage);
    d.storageImage(slot.windowSet, gpu::kConsistentPairsBindingLayers, in.layers);
    d.storageImage(slot.windowSet, gpu::kConsistentPairsBindingBackDepth, in.backDepth);
    d.storageImage(slot.windowSet, gpu::kConsistentPairsBindingBackId, in.backId);
    d.storageBuffer(slot.decideSet, gpu::kConsistentPairsBindingDecideStats, in.stats);
    d.storageBuffer(slot.decideSet, gpu::kConsistentPairsBindingDraws, in.draws);
    d.storageBuffer(slot.decideSet, gpu::kConsistentPairsBindingDecideView, in.view);
    d.storageBuffer(slot.decideSet, gpu::kConsistentPairsBindingDecideDrawn, in.drawn);
    d.storageBuffer(slot.decideSet, gpu::kConsistentPairsBindingIterations, in.iterationCommands);
    d.storageImage(slot.imagesSet, gpu::kConsistentPairsBindingPeelTarget, in.peelTarget);
    d.storageImage(slot.imagesSet, gpu::kConsistentPairsBindingLayerArray, in.layers);
    d.storageImage(slot.imagesSet, gpu::kConsistentPairsBindingBackDepthArray, in.backDepth);
    d.storageImage(slot.imagesSet, gpu::kConsistentPairsBindingBackIdArray, in.backId);
    writeImageFrameSetupDescriptors(c, slot.setupSet, d.buffer(in.candidates), d.buffer(in.bounds), d.buffer(in.objectDraws),
                                    d.buffer(in.view), d.buffer(in.drawn), d.buffer(in.draws));
    writePairCompactDescriptors(c, slot.compactSet, d.buffer(in.candidates), d.buffer(in.candidateSlots),
                                d.buffer(in.pairFlags), d.buffer(in.pairs), d.buffer(in.unfound));
}

Status ConsistentPairsDetectorImpl::recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, const CandidateSource& source,
                                                uint64_t frame) {
    VulkanContext& c = *ctx;
    const ConsistentPairsSettings& s = settings;
    const uint32_t objectCount = uint32_t(scene.objects.size());
    VKC_TRY(checkImageFrameObjects(c, objectCount, "consistent-pairs"));
    // The slot is free once the frame that last used it has completed on the GPU (never waits).
    VKC_TRY(ringSlotAvailable(c, frames.ring, frame));
    ConsistentPairsSlot& slot = slots[frame % slots.size()];
    auto graphOwner = std::make_unique<Graph>();
    Graph& graph = *graphOwner;
    auto added = addFrameCandidates(graph, {"consistent-pairs", "ConsistentPairsSettings", s}, scene, source);
    if (!added) return added.status();
    const CandidateBuffers& candidates = added->buffers;
    // Front and back faces alternate only along rays through closed, outward-oriented solids: the
    // host's candidates are checked here (refused before the frame); the broadphase's are known
    // only on the GPU, which leaves such objects undrawn and the frame says so.
    for (uint32_t object : objectsOfPairs(added->checked)) VKC_TRY(requireClosedSolid(scene, object, "consistent-pairs"));
    ensureSceneIndices(slot.indices, scene);

    // Every object of the scene has its table entry and its triangles' draws per iteration: which
    // ones draw an instance, the GPU decides from the candidates.
    VertexBufferSlots vertexSlots(frames.vertexBufferCapacity, "consistent-pairs: the scene's objects read");
    std::vector<gpu::ObjectGpu> objects(std::max<size_t>(1, objectCount));
    std::vector<gpu::ImageObjectDrawGpu> draws(objects.size());
    slot.openObjects.clear();
    for (uint32_t i = 0; i < objectCount; ++i) {
        const SceneObject& o = scene.objects[i];
        const SceneMesh& mesh = scene.meshes[o.mesh];
        auto vertexSlot = vertexSlots.slot(mesh.vertexBuffer, vertexExtentBytes(mesh), [&] { return "object \"" + o.name + "\""; });
        if (!vertexSlot) return vertexSlot.status();
        objects[i] = objectGpu(scene, o, candidates.origin, vertexSlot.value());
        const bool closed = mesh.report.validForVolumeMethods();
        draws[i] = {0u, 0u, slot.indices.firstIndex[o.mesh], uint32_t(mesh.data.indices.size()), closed ? 0u : 1u,
                    0u, 0u, 0u};
        if (!closed) slot.openObjects[i] = objectLabel(scene, i);
    }
    slot.objectCount = objectCount;
    slot.origin = candidates.origin;

    gpu::ConsistentPairsFrameGpu limits = {};
    limits.distanceThresholdPixels = s.distanceThresholdPixels;
    limits.resolution = s.resolution;
    limits.layerCount = s.layersPerIteration;
    limits.candidateSlotMask = candidateSlotCount(candidates.pairCapacity) - 1;
    limits.pointCapacity = s.pointCapacity;
    limits.inconsistentImage = s.keepImages ? 1u : 0u;

    ConsistentPairsPassInputs in;
    in.pipelines = {&frameSetup, &peel,      &consistency, &backId,  &determination,  &decide,
                    &clear,      &layerCopy, &backClear,   &compact, &candidateIndex};
    in.setupSet = slot.setupSet;
    in.geometrySet = slot.geometrySet;
    in.windowSet = slot.windowSet;
    in.decideSet = slot.decideSet;
    in.imagesSet = slot.imagesSet;
    in.compactSet = slot.compactSet;
    in.occlusion = slot.occlusion.pool;
    in.storeOpNone = c.apiVersion >= VK_API_VERSION_1_3;
    in.resolution = s.resolution;
    in.layersPerIteration = s.layersPerIteration;
    in.iterations = s.maxIterations;
    in.paddingPixels = s.regionPaddingPixels;
    PairListSizes& lists = in;
    lists = {objectCount, candidates.pairCapacity, s.maxCandidatePairs, s.pointCapacity};

    const uint32_t res = s.resolution, layers = s.layersPerIteration;
    in.candidates = candidates.pairs;
    in.bounds = candidates.bounds;
    in.objects = graph.createBuffer("consistent-pairs objects", {objects.size() * sizeof(objects[0]), 0, true});
    in.frame = graph.createBuffer("consistent-pairs frame limits", {sizeof(limits), 0, true});
    in.objectDraws = graph.createBuffer("consistent-pairs draw ranges", {draws.size() * sizeof(draws[0]), 0, true});
    in.view = graph.createBuffer("consistent-pairs frame view", {sizeof(gpu::ImageFrameGpu)});
    in.drawn = graph.createBuffer("consistent-pairs drawn objects", {imageFrameDrawnBytes(objectCount)});
    in.indices = declareSceneIndices(graph, slot.indices, "cp");
    // The GPU writes every draw, and each iteration's decision rewrites its instanceCount.
    in.draws = graph.createBuffer("consistent-pairs indirect draws", {imageFrameCommandsBytes(objectCount, s.maxIterations)});
    in.iterationCommands = graph.createBuffer("consistent-pairs iteration commands",
                                              {VkDeviceSize(s.maxIterations) * sizeof(gpu::ConsistentPairsIterationGpu)});
    in.unfound = graph.createBuffer("consistent-pairs unfound candidates", {stencilPairsBytes(s.maxCandidatePairs)});
    in.candidateSlots = graph.createBuffer("consistent-pairs candidate slots", {candidateSlotsBytes(in.candidateCount)});
    in.pairFlags = graph.createBuffer("consistent-pairs candidate flags", {candidateFlagsBytes(in.candidateCount)});
    in.stats = graph.createBuffer("consistent-pairs stats", {sizeof(gpu::ConsistentPairsStatsGpu)});
    in.pairs = graph.createBuffer("consistent-pairs pairs", {stencilPairsBytes(s.maxCandidatePairs)});
    in.points = graph.createBuffer("consistent-pairs collision points", {consistentPairsPointsBytes(s.pointCapacity)});
    if (s.keepImages)
        in.inconsistentImage = graph.createBuffer("consistent-pairs inconsistent image", {consistentPairsImageBytes(res)});
    in.meshVertices = importVertexBuffers(graph, vertexSlots.buffers());
    in.readback = importReadbackSlot(graph, "consistent-pairs readback slot", frames.ring, frame);
    in.readbackLayout = &frames.readback;
    in.depth = graph.createImage("consistent-pairs depth", {res, res, kConsistentPairsDepthFormat});
    in.peelTarget = graph.createImage("consistent-pairs peel target", {res, res, kConsistentPairsLayerFormat});
    // Array images, so that every view of them is an array view.
    in.layers = graph.createImage("consistent-pairs front layers", {res, res, kConsistentPairsLayerFormat, layers});
    in.backDepth = graph.createImage("consistent-pairs nearest back depth", {res, res, kConsistentPairsBackDepthFormat, layers});
    in.backId = graph.createImage("consistent-pairs nearest back id", {res, res, kConsistentPairsBackIdFormat, layers});
    addConsistentPairsPasses(graph, in);
    PersistentResources& resources = slotResources(frames, frame);
    VKC_TRY(graph.compile(resources));

    VulkanGraphAllocator& allocator = *frames.allocator;
    VKC_TRY(uploadSceneIndices(allocator, graph, in.indices, slot.indices));
    VKC_TRY(fillHostBuffer(allocator, graph, in.objects, std::span<const gpu::ObjectGpu>(objects)));
    VKC_TRY(fillHostBuffer(allocator, graph, in.frame, std::span<const gpu::ConsistentPairsFrameGpu>(&limits, 1)));
    VKC_TRY(fillHostBuffer(allocator, graph, in.objectDraws, std::span<const gpu::ImageObjectDrawGpu>(draws)));
    VKC_TRY(fillHostCandidates(allocator, graph, added.value()));
    writeDescriptors(slot, graph, in, vertexSlots.bindings());
    VKC_TRY(executeFrameGraph(c, frames, frame, graph, cmd));
    noteFrameInputs(frames, frame, scene, "consistent-pairs");
    slot.graph = std::move(graphOwner);
    return Status::success();
}

Status ConsistentPairsDetectorImpl::readResults(uint64_t frame, FrameResults& out, ConsistentPairsFrameDetails* details) {
    VulkanContext& c = *ctx;
    auto bytes = readRingSlot(c, frames.ring, frame);
    if (!bytes) return bytes.status();
    const ConsistentPairsSlot& slot = slots[frame % slots.size()];
    const char* base = static_cast<const char*>(bytes.value());

    const ReadbackLayout& layout = frames.readback;
    const auto view = layout.value<gpu::ImageFrameGpu>(base, kConsistentPairsReadbackView);
    ConsistentPairsFrameDetails d;
    d.drawnObjects = view.drawnObjects;
    d.pixelSize = view.pixelSize;
    d.distanceThreshold = settings.distanceThresholdPixels * view.pixelSize;
    const auto stats = layout.value<gpu::ConsistentPairsStatsGpu>(base, kConsistentPairsReadbackStats);
    // The first iteration runs when anything is drawn; the decisions count the others.
    d.iterationsRun = stats.iterations;
    d.inconsistentPixels = stats.inconsistentPixels;
    if (settings.keepImages) {
        const auto image = layout.span<uint32_t>(base, kConsistentPairsReadbackInconsistentImage,
                                                 size_t(settings.resolution) * settings.resolution);
        d.inconsistentImage.assign(image.begin(), image.end());
    }
    if (view.drawnObjects != 0) {
        const uint32_t peels = consistentPairsPeelCount(settings.layersPerIteration, d.iterationsRun);
        const auto fragments = layout.span<uint64_t>(base, kConsistentPairsReadbackPeelFragments, peels);
        d.fragmentsPerPeel.assign(fragments.begin(), fragments.end());
        d.iterationsTruncated = d.iterationsRun == settings.maxIterations && !d.fragmentsPerPeel.empty() &&
                                d.fragmentsPerPeel.back() != 0;
    }

    const ReadbackList pairList = readbackList(layout.bytes(base, kConsistentPairsReadbackPairs),
                                               settings.maxCandidatePairs);
    const ReadbackList pointList = readbackList(layout.bytes(base, kConsistentPairsReadbackPoints),
                                                settings.pointCapacity);
    d.pointCount = pointList.count;
    d.pointsTruncated = pointList.truncated;

    out = FrameResults{};
    const FoundPairs found = addFoundPairs(pairList, d.pointsTruncated, out.pairs);
    out.colliding = !out.pairs.empty();
    // Pairs behind the last peeled layer were never tested, so `colliding` may read false.
    out.truncated = d.iterationsTruncated || d.pointsTruncated || pairList.truncated;
    const auto* points = reinterpret_cast<const gpu::ConsistentPairsPointGpu*>(pointList.entries);
    d.points.reserve(pointList.stored);
    for (uint32_t i = 0; i < pointList.stored; ++i) {
        const gpu::ConsistentPairsPointGpu& g = points[i];
        ConsistentPairsPoint point;
        point.objectP = g.objectP;
        point.objectT = g.objectT;
        point.frontP = (g.flags & gpu::kConsistentPairsPointFrontP) != 0;
        point.frontT = (g.flags & gpu::kConsistentPairsPointFrontT) != 0;
        point.p = glm::vec3(glm::dvec3(g.px, g.py, g.pz) + slot.origin);
        point.t = glm::vec3(glm::dvec3(g.tx, g.ty, g.tz) + slot.origin);
        point.normalP = {g.pnx, g.pny, g.pnz};
        point.normalT = {g.tnx, g.tny, g.tnz};
        // Points of objects that are close but consistent (touching within the threshold) name no pair.
        if (PairResult* pair = found.find(out.pairs, g.objectP, g.objectT)) {
            pair->points.push_back(point.p);
            pair->normals.push_back(point.normalP);
            pair->points.push_back(point.t);
            pair->normals.push_back(point.normalT);
        }
        d.points.push_back(point);
    }

    // Objects of candidate pairs whose meshes are not closed solids were not drawn: their pairs are
    // not tested (only the broadphase's candidates reach the GPU with them; the host's are refused).
    const std::span<const uint32_t> drawn = layout.span<uint32_t>(base, kConsistentPairsReadbackDrawn, slot.objectCount);
    std::string excluded;
    for (const auto& [object, label] : slot.openObjects)
        if (drawn[object] == gpu::kImageFrameExcluded) excluded += (excluded.empty() ? "" : ", ") + label;
    if (!excluded.empty()) {
        out.truncated = true;
        out.warnings.push_back("consistent-pairs: " + std::to_string(view.excludedObjects) +
                               " object(s) of candidate pairs are not closed, consistently oriented solids; their "
                               "pairs were not tested: " + excluded);
    }
    if (d.pointsTruncated)
        out.warnings.push_back("consistent-pairs: " + std::to_string(pointList.count) + " collision points, " +
                               "more than ConsistentPairsSettings::pointCapacity (" +
                               std::to_string(settings.pointCapacity) + "); points are truncated");
    if (d.iterationsTruncated)
        out.warnings.push_back("consistent-pairs: front faces remained after ConsistentPairsSettings::maxIterations (" +
                               std::to_string(settings.maxIterations) + ") iterations (" +
                               std::to_string(d.fragmentsPerPeel.back()) +
                               " fragments in the last peel); collisions behind front layer " +
                               std::to_string(d.fragmentsPerPeel.size()) + " were not tested");
    // Warnings about the meshes of the frame's tested pairs: those colliding and those not.
    const ReadbackList unfoundList = readbackList(layout.bytes(base, kConsistentPairsReadbackUnfound),
                                                  settings.maxCandidatePairs);
    const auto* unfound = reinterpret_cast<const gpu::StencilPairGpu*>(unfoundList.entries);
    std::vector<ObjectPair> tested;
    for (uint32_t i = 0; i < unfoundList.stored; ++i) tested.push_back({unfound[i].a, unfound[i].b});
    for (const PairResult& pair : out.pairs) tested.push_back({pair.a, pair.b});
    appendFrameWarnings(frames, frame, tested, out.warnings);
    if (details) *details = std::move(d);
    return readFrameTimings(c, frames, frame, *slot.graph, out.gpuTimingsMs);
}

}  // namespace vkc
