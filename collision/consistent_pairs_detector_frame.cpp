// vkc::ConsistentPairsDetector, one frame: gathers the drawn objects of the candidate pairs (closed
// solids only), fits the single orthographic view (paper 3, section 4: over the potentially
// colliding set), fills the per-slot buffers and indirect draws, builds the pass graph
// (passes/consistent_pairs_passes.h) and later decodes the ring slot and the occlusion queries.
#include "collision/consistent_pairs_detector_impl.h"

#include "collision/graph_execution.h"
#include "collision/scene_impl.h"
#include "collision/stencil_detector_internal.h"
#include "vk/descriptors.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_map>

namespace vkc {

Status ConsistentPairsDetectorImpl::ensureIndices(ConsistentPairsSlot& slot, const SceneImpl& scene) {
    std::vector<uint64_t> key;
    for (const SceneMesh& mesh : scene.meshes)
        key.push_back(uint64_t(mesh.data.positions.size()) << 32 | uint64_t(mesh.data.indices.size()));
    if (slot.indexScene == &scene && slot.indexKey == key) return Status::success();

    std::vector<uint32_t> firstIndex;
    size_t total = 0;
    for (const SceneMesh& mesh : scene.meshes) {
        firstIndex.push_back(uint32_t(total));
        total += mesh.data.indices.size();
    }
    // The slot's previous frame has completed (ringSlotAvailable), so its buffer may go now.
    destroyBuffer(*ctx, slot.indices);
    auto buffer = createBuffer(*ctx, {std::max<VkDeviceSize>(16, total * 4), VK_BUFFER_USAGE_INDEX_BUFFER_BIT,
                                      MemoryUsage::Upload, "cp triangle indices"});
    if (!buffer) return buffer.status();
    slot.indices = buffer.value();
    auto* data = static_cast<uint32_t*>(slot.indices.data);
    for (size_t m = 0; m < scene.meshes.size(); ++m)
        std::copy(scene.meshes[m].data.indices.begin(), scene.meshes[m].data.indices.end(), data + firstIndex[m]);
    VKC_TRY(flushBuffer(*ctx, slot.indices));
    slot.firstIndex = std::move(firstIndex);
    slot.indexScene = &scene;
    slot.indexKey = std::move(key);
    return Status::success();
}

Status ConsistentPairsDetectorImpl::recordFrame(VkCommandBuffer cmd, const SceneImpl& scene,
                                                std::span<const ObjectPair> candidates,
                                                std::span<const Aabb> worldBounds, uint64_t frame) {
    VulkanContext& c = *ctx;
    const ConsistentPairsSettings& s = settings;
    const uint32_t objectCount = uint32_t(scene.objects.size());
    if (objectCount > s.maxObjects)
        return makeError(ErrorCode::InvalidArgument, "consistent-pairs: the scene has " + std::to_string(objectCount) +
                                                         " objects, more than ConsistentPairsSettings::maxObjects (" +
                                                         std::to_string(s.maxObjects) + ")");
    if (worldBounds.size() < objectCount)
        return makeError(ErrorCode::InvalidArgument, "consistent-pairs: " + std::to_string(worldBounds.size()) +
                                                         " world bounds for " + std::to_string(objectCount) + " objects");
    std::vector<ObjectPair> pairs;
    for (ObjectPair pair : candidates) {
        if (pair.a == pair.b) continue;
        if (pair.b < pair.a) std::swap(pair.a, pair.b);
        if (pair.b >= objectCount)
            return makeError(ErrorCode::InvalidArgument, "consistent-pairs: candidate pair (" + std::to_string(pair.a) +
                                                             ", " + std::to_string(pair.b) + ") names an unknown object");
        pairs.push_back(pair);
    }
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    if (pairs.size() > s.maxCandidatePairs)
        return makeError(ErrorCode::InvalidArgument,
                         "consistent-pairs: " + std::to_string(pairs.size()) +
                             " candidate pairs, more than ConsistentPairsSettings::maxCandidatePairs (" +
                             std::to_string(s.maxCandidatePairs) + ")");
    std::vector<uint32_t> draw;
    for (const ObjectPair& pair : pairs) {
        draw.push_back(pair.a);
        draw.push_back(pair.b);
    }
    std::sort(draw.begin(), draw.end());
    draw.erase(std::unique(draw.begin(), draw.end()), draw.end());
    // Front and back faces alternate only along rays through closed, outward-oriented solids.
    for (uint32_t object : draw) {
        const SceneObject& o = scene.objects[object];
        const SceneMesh& mesh = scene.meshes[o.mesh];
        if (!mesh.report.validForVolumeMethods())
            return makeError(ErrorCode::InvalidMesh, "consistent-pairs: object \"" + o.name + "\" (" +
                                                         std::to_string(object) + ") uses mesh \"" + mesh.data.name +
                                                         "\", which is not a closed, manifold, outward-oriented solid");
    }
    // The slot is free once the frame that last used it has completed on the GPU (never waits).
    VKC_TRY(ringSlotAvailable(c, ring, frame));
    ConsistentPairsSlot& slot = slots[frame % slots.size()];
    VKC_TRY(ensureIndices(slot, scene));

    // Objects and vertex buffers of the drawn objects; draws per iteration, instanceCount 1 (the GPU
    // turns those of iterations after the first off when nothing remains to peel).
    std::vector<VkBuffer> meshBuffers;
    std::unordered_map<VkBuffer, uint32_t> bufferSlot;
    auto* objects = static_cast<gpu::CpObjectGpu*>(slot.objects.data);
    auto* draws = static_cast<VkDrawIndexedIndirectCommand*>(slot.draws.data);
    const uint32_t drawn = uint32_t(draw.size());
    for (uint32_t i = 0; i < drawn; ++i) {
        const SceneObject& o = scene.objects[draw[i]];
        const SceneMesh& mesh = scene.meshes[o.mesh];
        auto [it, inserted] = bufferSlot.try_emplace(mesh.vertexBuffer, uint32_t(meshBuffers.size()));
        if (inserted) meshBuffers.push_back(mesh.vertexBuffer);
        if (meshBuffers.size() > gpu::kCpMaxMeshSlots)
            return makeError(ErrorCode::Unsupported, "consistent-pairs: the candidate objects read more than " +
                                                         std::to_string(gpu::kCpMaxMeshSlots) +
                                                         " distinct vertex buffers (object \"" + o.name + "\")");
        objects[draw[i]] = {o.objectToWorld, it->second, mesh.vertexStrideFloats, mesh.vertexOffsetFloats, 0u};
        for (uint32_t iteration = 0; iteration < s.maxIterations; ++iteration)
            draws[iteration * drawn + i] = {uint32_t(mesh.data.indices.size()), 1u, slot.firstIndex[o.mesh], 0, 0u};
    }
    VKC_TRY(flushBuffer(c, slot.objects));
    VKC_TRY(flushBuffer(c, slot.draws));
    auto* candidateData = static_cast<uint32_t*>(slot.candidates.data);
    for (size_t i = 0; i < pairs.size(); ++i) {
        candidateData[i * 2] = pairs[i].a;
        candidateData[i * 2 + 1] = pairs[i].b;
    }
    VKC_TRY(flushBuffer(c, slot.candidates));
    writeStorageBufferArray(c, slot.geometrySet, gpu::kCpBindingMeshVertices, gpu::kCpMaxMeshSlots, meshBuffers,
                            dummyVertices.buffer);

    // One view along z over the candidates' box overlaps, depth over every drawn object whole.
    gpu::CpFrameGpu view = {};
    slot.pixelSize = 0.0f;
    slot.distanceThreshold = 0.0f;
    if (!draw.empty()) {
        StencilViewFit fit = fitStencilViews(pairs, worldBounds, draw, 1, s.resolution, s.regionPaddingPixels);
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
    std::memcpy(slot.frame.data, &view, sizeof(view));
    VKC_TRY(flushBuffer(c, slot.frame));

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
    in.objectCount = objectCount;
    in.candidateCount = uint32_t(pairs.size());
    in.pairCapacity = s.maxCandidatePairs;
    in.pointCapacity = s.pointCapacity;

    slot.graph = std::make_unique<Graph>();
    Graph& graph = *slot.graph;
    // Persistent per-slot buffers: state what the slot's previous frame last did with each, so the
    // graph orders this frame after it even though the host already saw that frame complete.
    in.objects = importPersistentBuffer(graph, "cp objects", slot.objects, syncStateOf(Access::FragmentRead));
    in.frame = importPersistentBuffer(graph, "cp frame view", slot.frame, syncStateOf(Access::FragmentRead));
    in.indices = importPersistentBuffer(graph, "cp triangle indices", slot.indices, syncStateOf(Access::VertexRead));
    in.draws = importPersistentBuffer(graph, "cp indirect draws", slot.draws, syncStateOf(Access::IndirectRead));
    in.candidates = importPersistentBuffer(graph, "cp candidate pairs", slot.candidates, syncStateOf(Access::ComputeRead));
    in.pairFlags = importPersistentBuffer(graph, "cp pair flags", slot.pairFlags, syncStateOf(Access::ComputeRead));
    in.stats = importPersistentBuffer(graph, "cp stats", slot.stats, syncStateOf(Access::TransferSrc));
    in.pairs = importPersistentBuffer(graph, "cp pairs", slot.pairs, syncStateOf(Access::TransferSrc));
    in.points = importPersistentBuffer(graph, "cp collision points", slot.points, syncStateOf(Access::TransferSrc));
    in.meshVertices = importVertexBuffers(graph, meshBuffers);
    in.readback = importReadbackSlot(graph, "cp readback slot", ring, frame);
    // Per-slot images: every frame clears or rewrites what it reads later.
    in.depth = importPersistentImage(graph, "cp depth", slot.depth, Access::DepthStencilReadOnly);
    in.peelTarget = importPersistentImage(graph, "cp peel target", slot.peelTarget, Access::TransferSrc);
    in.layers = importPersistentImage(graph, "cp front layers", slot.layers, Access::FragmentRead);
    in.backDepth = importPersistentImage(graph, "cp nearest back depth", slot.backDepth, Access::FragmentRead);
    in.backId = importPersistentImage(graph, "cp nearest back id", slot.backId, Access::FragmentRead);

    addConsistentPairsPasses(graph, in);
    VKC_TRY(graph.compile());
    VKC_TRY(graph.execute(cmd, graphExecuteContext(c, slot.timestamps)));
    slot.drawnObjects = drawn;
    return Status::success();
}

Status ConsistentPairsDetectorImpl::readResults(uint64_t frame, FrameResults& out, ConsistentPairsFrameDetails* details) {
    VulkanContext& c = *ctx;
    auto bytes = readRingSlot(c, ring, frame);
    if (!bytes) return bytes.status();
    const ConsistentPairsSlot& slot = slots[frame % slots.size()];
    const char* base = static_cast<const char*>(bytes.value());

    ConsistentPairsFrameDetails d;
    d.drawnObjects = slot.drawnObjects;
    d.pixelSize = slot.pixelSize;
    d.distanceThreshold = slot.distanceThreshold;
    gpu::CpStatsGpu stats;
    std::memcpy(&stats, base + readbackStatsOffset, sizeof(stats));
    d.iterationsRun = stats.iterations;
    d.inconsistentPixels = stats.inconsistentPixels;
    if (slot.drawnObjects != 0) {
        d.fragmentsPerPeel.resize(consistentPairsPeelCount(settings.layersPerIteration, d.iterationsRun));
        if (!d.fragmentsPerPeel.empty())
            VKC_TRY(readQueries(c, slot.occlusion, 0, uint32_t(d.fragmentsPerPeel.size()), d.fragmentsPerPeel,
                                QueryWait::No));
        d.iterationsTruncated = d.iterationsRun == settings.maxIterations && !d.fragmentsPerPeel.empty() &&
                                d.fragmentsPerPeel.back() != 0;
    }

    gpu::StencilListHeader pairHeader, pointHeader;
    std::memcpy(&pairHeader, base, sizeof(pairHeader));
    std::memcpy(&pointHeader, base + readbackPointsOffset, sizeof(pointHeader));
    const uint32_t pairCount = std::min(pairHeader.count, settings.maxCandidatePairs);
    const uint32_t pointCount = std::min(pointHeader.count, settings.pointCapacity);
    d.pointCount = pointHeader.count;
    d.pointsTruncated = pointHeader.count > settings.pointCapacity;

    out = FrameResults{};
    std::map<std::pair<uint32_t, uint32_t>, size_t> pairIndex;
    const auto* gpuPairs = reinterpret_cast<const gpu::StencilPairGpu*>(base + sizeof(gpu::StencilListHeader));
    std::vector<gpu::StencilPairGpu> sorted(gpuPairs, gpuPairs + pairCount);
    std::sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) {
        return x.a != y.a ? x.a < y.a : x.b < y.b;
    });
    for (const gpu::StencilPairGpu& p : sorted) {
        PairResult pair;
        pair.a = p.a;
        pair.b = p.b;
        pair.truncated = d.pointsTruncated;
        pairIndex[{p.a, p.b}] = out.pairs.size();
        out.pairs.push_back(std::move(pair));
    }
    out.colliding = !out.pairs.empty();
    const auto* points = reinterpret_cast<const gpu::CpPointGpu*>(base + readbackPointsOffset +
                                                                  sizeof(gpu::StencilListHeader));
    d.points.reserve(pointCount);
    for (uint32_t i = 0; i < pointCount; ++i) {
        const gpu::CpPointGpu& g = points[i];
        ConsistentPairsPoint point;
        point.objectP = g.objectP;
        point.objectT = g.objectT;
        point.frontP = (g.flags & gpu::kCpPointFrontP) != 0;
        point.frontT = (g.flags & gpu::kCpPointFrontT) != 0;
        point.p = {g.px, g.py, g.pz};
        point.t = {g.tx, g.ty, g.tz};
        point.normalP = {g.pnx, g.pny, g.pnz};
        point.normalT = {g.tnx, g.tny, g.tnz};
        // Points of objects that are close but consistent (touching within the threshold) name no pair.
        auto it = pairIndex.find({std::min(g.objectP, g.objectT), std::max(g.objectP, g.objectT)});
        if (it != pairIndex.end()) {
            PairResult& pair = out.pairs[it->second];
            pair.points.push_back(point.p);
            pair.normals.push_back(point.normalP);
            pair.points.push_back(point.t);
            pair.normals.push_back(point.normalT);
        }
        d.points.push_back(point);
    }

    if (d.pointsTruncated)
        out.warnings.push_back("consistent-pairs: " + std::to_string(pointHeader.count) + " collision points, " +
                               "more than ConsistentPairsSettings::pointCapacity (" +
                               std::to_string(settings.pointCapacity) + "); points are truncated");
    if (d.iterationsTruncated)
        out.warnings.push_back("consistent-pairs: front faces remained after ConsistentPairsSettings::maxIterations (" +
                               std::to_string(settings.maxIterations) + ") iterations (" +
                               std::to_string(d.fragmentsPerPeel.back()) +
                               " fragments in the last peel); collisions behind front layer " +
                               std::to_string(d.fragmentsPerPeel.size()) + " were not tested");
    if (details) *details = std::move(d);
    return readPassTimings(c, *slot.graph, slot.timestamps, out.gpuTimingsMs);
}

}  // namespace vkc
