// vkc::ConsistentPairsDetector, one frame: gathers the drawn objects of the candidate pairs (closed
// solids only), fits the single orthographic view (paper 3, section 4: over the potentially
// colliding set), fills the per-slot buffers and indirect draws, builds the pass graph
// (passes/consistent_pairs/consistent_pairs_passes.h) and later decodes the ring slot, occlusion queries included.
#include "collision/consistent_pairs/consistent_pairs_detector_impl.h"

#include "collision/frames/frame_warnings.h"
#include "collision/frames/orthographic_views.h"
#include "collision/frames/candidate_pairs.h"
#include "collision/frames/drawn_objects.h"
#include "collision/frames/found_pairs.h"
#include "collision/frames/gpu_candidates.h"
#include "collision/frames/vulkan_graph.h"
#include "collision/frames/local_region.h"
#include "collision/frames/object_gpu.h"
#include "collision/scene/scene_impl.h"
#include "collision/stencil/stencil_detector_internal.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "vk/descriptors.h"

#include <cstring>

namespace vkc {

void ConsistentPairsDetectorImpl::writeDescriptors(const ConsistentPairsSlot& slot, const Graph& graph,
                                                   const ConsistentPairsPassInputs& in,
                                                   std::span<const VkBuffer> meshBuffers) {
    VulkanContext& c = *ctx;
    const GraphDescriptors d(c, graph, frames.placeholder.buffer);
    d.storageBuffer(slot.geometrySet, gpu::kConsistentPairsBindingObjects, in.objects);
    d.storageBuffer(slot.geometrySet, gpu::kConsistentPairsBindingFrame, in.frame);
    writeStorageBufferArray(c, slot.geometrySet, gpu::kBindingVertexBuffers, meshBuffers);
    d.storageBuffer(slot.windowSet, gpu::kConsistentPairsBindingPairFlags, in.pairFlags);
    d.storageBuffer(slot.windowSet, gpu::kConsistentPairsBindingStats, in.stats);
    d.storageBuffer(slot.windowSet, gpu::kConsistentPairsBindingPoints, in.points);
    d.storageBuffer(slot.windowSet, gpu::kConsistentPairsBindingInconsistentImage, in.inconsistentImage);
    d.storageImage(slot.windowSet, gpu::kConsistentPairsBindingLayers, in.layers);
    d.storageImage(slot.windowSet, gpu::kConsistentPairsBindingBackDepth, in.backDepth);
    d.storageImage(slot.windowSet, gpu::kConsistentPairsBindingBackId, in.backId);
    d.storageBuffer(slot.decideSet, gpu::kConsistentPairsBindingDecideStats, in.stats);
    d.storageBuffer(slot.decideSet, gpu::kConsistentPairsBindingDraws, in.draws);
    writePairCompactDescriptors(c, slot.compactSet, d.buffer(in.candidates), d.buffer(in.pairFlags), d.buffer(in.pairs),
                                d.buffer(in.unfound));
}

Status ConsistentPairsDetectorImpl::recordFrame(VkCommandBuffer cmd, const SceneImpl& scene,
                                                const CandidateSet& candidates, uint64_t frame) {
    VulkanContext& c = *ctx;
    const ConsistentPairsSettings& s = settings;
    const uint32_t objectCount = uint32_t(scene.objects.size());
    auto candidatePairs = frameCandidatePairs({"consistent-pairs", "ConsistentPairsSettings", s}, objectCount, candidates);
    if (!candidatePairs) return candidatePairs.status();
    const std::vector<ObjectPair>& pairs = candidatePairs.value();
    auto drawnObjectsOfPairs = drawnObjects(scene, pairs, candidates.worldBounds, frames.vertexBufferCapacity,
                                            "consistent-pairs");
    if (!drawnObjectsOfPairs) return drawnObjectsOfPairs.status();
    const DrawnObjects& drawn = drawnObjectsOfPairs.value();
    const std::vector<uint32_t>& draw = drawn.objects;
    // Front and back faces alternate only along rays through closed, outward-oriented solids.
    for (uint32_t object : draw) VKC_TRY(requireClosedSolid(scene, object, "consistent-pairs"));
    // The slot is free once the frame that last used it has completed on the GPU (never waits).
    VKC_TRY(ringSlotAvailable(c, frames.ring, frame));
    ConsistentPairsSlot& slot = slots[frame % slots.size()];
    ensureSceneIndices(slot.indices, scene);

    // Draws per iteration, instanceCount 1 (the GPU turns those of iterations after the first off
    // when nothing remains to peel).
    const uint32_t drawnCount = uint32_t(draw.size());
    const std::vector<gpu::ObjectGpu>& objects = drawn.table;
    std::vector<VkDrawIndexedIndirectCommand> draws(std::max(size_t(drawnCount) * s.maxIterations, size_t(1)));
    const LocalRegion& region = drawn.region;
    for (uint32_t i = 0; i < drawnCount; ++i) {
        const SceneObject& o = scene.objects[draw[i]];
        const SceneMesh& mesh = scene.meshes[o.mesh];
        for (uint32_t iteration = 0; iteration < s.maxIterations; ++iteration)
            draws[iteration * drawnCount + i] = {uint32_t(mesh.data.indices.size()), 1u,
                                                 slot.indices.firstIndex[o.mesh], 0, 0u};
    }

    // One view along z over the candidates' box overlaps, depth over every drawn object whole.
    gpu::ConsistentPairsFrameGpu view = {};
    slot.pixelSize = 0.0f;
    slot.distanceThreshold = 0.0f;
    slot.origin = region.origin;
    if (!draw.empty()) {
        OrthographicViewFit fit = fitOrthographicViews(pairs, region.bounds, draw, 1, s.resolution, s.regionPaddingPixels);
        view.worldToClip = fit.views[0].worldToClip;
        view.clipToWorld = fit.views[0].clipToWorld;
        slot.pixelSize = fit.pixelSize;
        slot.distanceThreshold = s.distanceThresholdPixels * fit.pixelSize;
        // Depth is linear in the ray axis: world units per unit of depth is 1 / worldToClip[z][z].
        view.thresholdDepth = slot.distanceThreshold * view.worldToClip[2][2];
    }
    view.resolution = s.resolution;
    view.layerCount = s.layersPerIteration;
    view.objectCount = objectCount;
    view.pointCapacity = s.pointCapacity;
    view.inconsistentImage = s.keepImages ? 1u : 0u;

    ConsistentPairsPassInputs in;
    in.pipelines = {&peel, &consistency, &backId, &determination, &decide, &compact};
    in.geometrySet = slot.geometrySet;
    in.windowSet = slot.windowSet;
    in.decideSet = slot.decideSet;
    in.compactSet = slot.compactSet;
    in.occlusion = slot.occlusion.pool;
    in.storeOpNone = c.apiVersion >= VK_API_VERSION_1_3;
    in.resolution = s.resolution;
    in.layersPerIteration = s.layersPerIteration;
    in.iterations = s.maxIterations;
    in.drawObjects = draw;
    PairListSizes& lists = in;
    lists = {objectCount, uint32_t(pairs.size()), s.maxCandidatePairs, s.pointCapacity};

    slot.graph = std::make_unique<Graph>();
    Graph& graph = *slot.graph;
    const uint32_t res = s.resolution, layers = s.layersPerIteration;
    in.objects = graph.createBuffer("consistent-pairs objects", {objects.size() * sizeof(objects[0]), 0, true});
    in.frame = graph.createBuffer("consistent-pairs frame view", {sizeof(view), 0, true});
    in.indices = declareSceneIndices(graph, slot.indices, "cp");
    // The GPU rewrites instanceCount of iterations after the first.
    in.draws = graph.createBuffer("consistent-pairs indirect draws", {draws.size() * sizeof(draws[0]), 0, true});
    const std::vector<uint32_t> candidateList = candidateListWords(pairs);
    in.candidates = graph.createBuffer("consistent-pairs candidate pairs", {candidateList.size() * 4, 0, true});
    in.unfound = graph.createBuffer("consistent-pairs unfound candidates", {sizeof(gpu::StencilListHeader)});
    in.pairFlags = graph.createBuffer("consistent-pairs pair flags", {std::max<VkDeviceSize>(16, stencilPairFlagsBytes(objectCount))});
    in.stats = graph.createBuffer("consistent-pairs stats", {sizeof(gpu::ConsistentPairsStatsGpu)});
    in.pairs = graph.createBuffer("consistent-pairs pairs", {stencilPairsBytes(s.maxCandidatePairs)});
    in.points = graph.createBuffer("consistent-pairs collision points", {consistentPairsPointsBytes(s.pointCapacity)});
    if (s.keepImages)
        in.inconsistentImage = graph.createBuffer("consistent-pairs inconsistent image", {consistentPairsImageBytes(res)});
    in.meshVertices = importVertexBuffers(graph, drawn.vertexSlots.buffers());
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
    VKC_TRY(fillHostBuffer(allocator, graph, in.frame, std::span<const gpu::ConsistentPairsFrameGpu>(&view, 1)));
    VKC_TRY(fillHostBuffer(allocator, graph, in.draws, std::span<const VkDrawIndexedIndirectCommand>(draws)));
    VKC_TRY(fillHostBuffer(allocator, graph, in.candidates, std::span<const uint32_t>(candidateList)));
    writeDescriptors(slot, graph, in, drawn.vertexSlots.buffers());
    VKC_TRY(executeFrameGraph(c, frames, frame, graph, cmd));
    noteFrameInputs(frames, frame, scene, pairs, "consistent-pairs");
    slot.drawnObjects = drawnCount;
    return Status::success();
}

Status ConsistentPairsDetectorImpl::readResults(uint64_t frame, FrameResults& out, ConsistentPairsFrameDetails* details) {
    VulkanContext& c = *ctx;
    auto bytes = readRingSlot(c, frames.ring, frame);
    if (!bytes) return bytes.status();
    const ConsistentPairsSlot& slot = slots[frame % slots.size()];
    const char* base = static_cast<const char*>(bytes.value());

    ConsistentPairsFrameDetails d;
    d.drawnObjects = slot.drawnObjects;
    d.pixelSize = slot.pixelSize;
    d.distanceThreshold = slot.distanceThreshold;
    const ReadbackLayout& layout = frames.readback;
    const auto stats = layout.value<gpu::ConsistentPairsStatsGpu>(base, kConsistentPairsReadbackStats);
    d.iterationsRun = stats.iterations;
    d.inconsistentPixels = stats.inconsistentPixels;
    if (settings.keepImages) {
        const auto image = layout.span<uint32_t>(base, kConsistentPairsReadbackInconsistentImage,
                                                 size_t(settings.resolution) * settings.resolution);
        d.inconsistentImage.assign(image.begin(), image.end());
    }
    if (slot.drawnObjects != 0) {
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
    if (details) *details = std::move(d);
    return readFrameTimings(c, frames, frame, *slot.graph, out.gpuTimingsMs);
}

}  // namespace vkc
