// vkc::LdiDetector, recording: the pairs' VoIs (§3.1), their two LDI tiles and vertex tests, on the
// host for a host's candidates (with the tight bound) or on the GPU by ldi-pair-setup for a
// broadphase's; a point query's one tile; the per-slot index buffers; the pass graph
// (passes/ldi/ldi_passes.h).
#include "collision/ldi/ldi_detector_impl.h"

#include "collision/frames/frame_warnings.h"
#include "collision/frames/candidate_pairs.h"
#include "collision/frames/vulkan_graph.h"
#include "collision/ldi/ldi_error_bound.h"
#include "collision/frames/object_gpu.h"
#include "collision/scene/scene_impl.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "vk/descriptors.h"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/matrix.hpp>

#include <cstring>

namespace vkc {

namespace {

glm::mat4 toFloat(const glm::dmat4& m) { return glm::mat4(m); }

gpu::LdiPairInfoGpu pairInfo(uint32_t a, uint32_t b, const LdiVoi& voi, double pixelArea) {
    gpu::LdiPairInfoGpu info = {};
    info.a = a;
    info.b = b;
    info.axis = voi.axis;
    info.flags = (voi.aFromMin ? gpu::kLdiPairAFromMin : 0u) | (voi.extended ? gpu::kLdiPairExtended : 0u);
    for (int k = 0; k < 3; ++k) {
        info.box[k] = voi.box.min[k];
        info.box[3 + k] = voi.box.max[k];
        info.overlap[k] = voi.overlap.min[k];
        info.overlap[3 + k] = voi.overlap.max[k];
    }
    info.pixelArea = pixelArea;
    return info;
}

// ldiDispatchGrid's grid for one thread per point.
VkDispatchIndirectCommand pointDispatch(uint32_t points, uint32_t maxGroupsX) {
    const VkExtent2D grid = ldiDispatchGrid(points, gpu::kLdiGroupSize, maxGroupsX);
    return {grid.width, grid.height, 1u};
}

}  // namespace

Result<gpu::LdiTileGpu> LdiDetectorImpl::hostTile(const SceneImpl& scene, uint32_t object, const LdiView& view,
                                                  uint32_t tile, VertexBufferSlots& vertexSlots,
                                                  const SceneIndexCache& indices) const {
    const SceneObject& o = scene.objects[object];
    const SceneMesh& mesh = scene.meshes[o.mesh];
    auto meshSlot = vertexSlots.slot(mesh.vertexBuffer, vertexExtentBytes(mesh), [&] { return objectLabel(scene, object); });
    if (!meshSlot) return meshSlot.status();
    gpu::LdiTileGpu t = {};
    t.objectToClip = toFloat(view.worldToClip * o.objectToWorld);
    t.vertices = vertexSource(mesh, meshSlot.value());
    t.entryIsFront = view.entryIsFront ? 1u : 0u;
    t.originX = (tile % atlasColumns) * settings.resolution;
    t.originY = (tile / atlasColumns) * settings.resolution;
    t.indexCount = uint32_t(mesh.data.indices.size() / 3 * 3);
    t.firstIndex = indices.firstIndex[o.mesh];
    t.nearWorld = view.nearWorld;
    t.farWorld = view.farWorld;
    t.objectToLocal = glm::mat4(1.0f);
    return t;
}

Status LdiDetectorImpl::addHostPair(const SceneImpl& scene, uint32_t a, uint32_t b, const LdiVoi& voi,
                                    VertexBufferSlots& vertexSlots, const SceneIndexCache& indices,
                                    LdiHostTables& tables) const {
    const uint32_t p = uint32_t(tables.pairs.size());
    const LdiView views[2] = {ldiView(voi, true, settings.resolution), ldiView(voi, false, settings.resolution)};
    const uint32_t objects[2] = {a, b};
    const SceneMesh& meshA = scene.meshes[scene.objects[a].mesh];
    const SceneMesh& meshB = scene.meshes[scene.objects[b].mesh];
    gpu::LdiPairInfoGpu info = pairInfo(a, b, voi, views[0].pixelU * views[0].pixelV);
    // A bound must come from the triangles drawn: from the CPU's positions when they are those
    // (unless the host chose the GPU's bound), else from the GPU's (looser, ldi_drawn_bound.comp).
    const bool boundFromDrawn = settings.errorBound == LdiErrorBound::DrawnTriangles ||
                                !meshA.cpuPositionsCurrent() || !meshB.cpuPositionsCurrent();
    std::optional<LdiDrawnBoundRegion> region;
    if (boundFromDrawn) {
        info.flags |= gpu::kLdiPairBoundFromDrawn;
        region = ldiDrawnBoundRegion(voi, settings.resolution);
        tables.boundFromDrawn = true;
    } else {
        info.tightBound = ldiVolumeErrorBound(meshA.data, scene.objects[a].objectToWorld, meshB.data,
                                              scene.objects[b].objectToWorld, voi, settings.resolution);
    }
    for (uint32_t side = 0; side < 2; ++side) {
        const uint32_t t = 2 * p + side;
        auto tile = hostTile(scene, objects[side], views[side], t, vertexSlots, indices);
        if (!tile) return tile.status();
        const glm::dmat4& objectToWorld = scene.objects[objects[side]].objectToWorld;
        if (region) {
            tile->boundFromDrawn = 1;
            tile->objectToLocal = toFloat(glm::translate(glm::dmat4(1.0), -region->origin) * objectToWorld);
            tile->nearLo = glm::vec4(region->nearLo, region->margin);
            tile->nearHi = glm::vec4(region->nearHi, 0.0f);
        }
        tables.tiles.push_back(tile.value());
        tables.firstDraws.push_back({tile->indexCount, 1u, tile->firstIndex, 0, 0});
        // §3.3b: this object's vertices against the other's LDI (tile t ^ 1).
        gpu::LdiPointTestGpu test = {};
        test.pointToTexel = toFloat(views[side ^ 1].worldToTexel * objectToWorld);
        test.points = tile->vertices;
        test.tile = t ^ 1u;
        test.tag = p << 1 | side;
        tables.pointTests.push_back(test);
        tables.pointDispatches.push_back(pointDispatch(test.points.count, ctx->properties.limits.maxComputeWorkGroupCount[0]));
    }
    tables.pairs.push_back(info);
    return Status::success();
}

void LdiDetectorImpl::writeDescriptors(const LdiSlot& slot, const Graph& graph, const LdiPassInputs& in,
                                       const LdiPairSetupInputs* setup, std::span<const VkDescriptorBufferInfo> meshBuffers) {
    VulkanContext& c = *ctx;
    const GraphDescriptors d(c, graph, frames.placeholder.buffer);
    const DepthPeelInputs& peel = in.peel;
    d.storageBuffer(slot.drawSet, gpu::kLdiBindingTiles, peel.tileBuffer);
    d.storageBuffer(slot.tileLayersSet, gpu::kLdiBindingTileLayers, peel.layers, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
                    ldiLayerBytes(settings.resolution));
    d.storageBuffer(slot.computeSet, gpu::kLdiBindingTiles, peel.tileBuffer);
    d.storageBuffer(slot.computeSet, gpu::kLdiBindingLayers, peel.layers);
    d.storageBuffer(slot.computeSet, gpu::kLdiBindingStencilCounts, peel.stencilCounts);
    d.storageBuffer(slot.computeSet, gpu::kLdiBindingTileStats, peel.stats);
    d.storageBuffer(slot.computeSet, gpu::kLdiBindingCommands, peel.commands);
    d.storageBuffer(slot.computeSet, gpu::kLdiBindingPairResults, in.pairResults);
    d.storageBuffer(slot.computeSet, gpu::kLdiBindingDepthImage, in.depthImage);
    d.storageBuffer(slot.computeSet, gpu::kLdiBindingInsideList, in.inside);
    d.storageBuffer(slot.computeSet, gpu::kLdiBindingVolumePartials, in.volumePartials);
    d.storageBuffer(slot.computeSet, gpu::kLdiBindingPointTests, in.pointTests);
    // Read by ldi-drawn-bound only, and a storage buffer only in frames that have that pass.
    if (in.boundFromDrawn) {
        d.storageBuffer(slot.computeSet, gpu::kLdiBindingIndices, peel.indices);
        d.storageBuffer(slot.computeSet, gpu::kLdiBindingVerticesAcross, in.verticesAcross);
        d.storageBuffer(slot.computeSet, gpu::kLdiBindingCornerValences, in.cornerValences);
    }
    for (VkDescriptorSet set : {slot.drawSet, slot.computeSet})
        writeStorageBufferArray(c, set, gpu::kBindingVertexBuffers, meshBuffers);
    if (!setup) return;
    const std::pair<uint32_t, BufferHandle> setupBindings[] = {
        {gpu::kLdiSetupBindingBounds, setup->bounds},
        {gpu::kLdiSetupBindingCandidates, setup->candidates},
        {gpu::kLdiSetupBindingSceneObjects, setup->sceneObjects},
        {gpu::kLdiSetupBindingParams, setup->params},
        {gpu::kLdiSetupBindingTiles, setup->tiles},
        {gpu::kLdiSetupBindingPointTests, setup->pointTests},
        {gpu::kLdiSetupBindingPointDispatches, setup->pointDispatches},
        {gpu::kLdiSetupBindingFirstDraws, setup->firstDraws},
        {gpu::kLdiSetupBindingPairs, setup->pairInfos},
        {gpu::kLdiSetupBindingVerdicts, setup->selection.verdicts},
        {gpu::kLdiSetupBindingSelection, setup->selection.state},
        {gpu::kLdiSetupBindingSelectedPairs, setup->selection.selected}};
    for (const auto& [binding, buffer] : setupBindings) d.storageBuffer(slot.setupSet, binding, buffer);
    writePairSelectionDescriptors(d, slot.pairSelection, setup->selection);
}

Status LdiDetectorImpl::recordGraph(VkCommandBuffer cmd, LdiSlot& slot, uint64_t frame, std::unique_ptr<Graph> ownedGraph,
                                    const VertexBufferSlots& vertexSlots, uint32_t pairSlots, uint32_t tileCount,
                                    const LdiHostTables* host, const LdiGpuSetup* gpu) {
    VulkanContext& c = *ctx;
    const LdiSettings& s = settings;
    Graph& graph = *ownedGraph;
    const VkDeviceSize perTile = VkDeviceSize(s.resolution) * s.resolution;
    const uint32_t atlasRows = (maxTiles + atlasColumns - 1) / atlasColumns;
    // The tables: host-written, or device buffers ldi-pair-setup writes.
    auto table = [&](const char* name, VkDeviceSize bytes) {
        return graph.createBuffer(name, {std::max<VkDeviceSize>(16, bytes), 0, host != nullptr});
    };
    const uint32_t pointTests = host ? uint32_t(host->pointTests.size()) : tileCount;
    DepthPeelInputs peel;
    peel.drawSet = slot.drawSet;
    peel.tileLayersSet = slot.tileLayersSet;
    peel.computeSet = slot.computeSet;
    peel.storeOpNone = c.apiVersion >= VK_API_VERSION_1_3;
    peel.resolution = s.resolution;
    peel.layerCap = s.layerCap;
    peel.atlasColumns = atlasColumns;
    peel.maxGroupsX = c.properties.limits.maxComputeWorkGroupCount[0];
    peel.tileCount = tileCount;
    peel.tileBuffer = table("ldi tiles", tileCount * sizeof(gpu::LdiTileGpu));
    peel.firstDraws = table("ldi first draws", tileCount * sizeof(VkDrawIndexedIndirectCommand));
    peel.indices = declareSceneIndices(graph, slot.indices, "ldi");
    peel.meshVertices = importVertexBuffers(graph, vertexSlots.buffers());
    peel.layers = graph.createBuffer("ldi layers", {VkDeviceSize(maxTiles) * ldiTileLayerBytes(s.resolution, s.layerCap)});
    // The stencil copy covers whole atlas rows: a partly filled last row is copied at full width.
    peel.stencilCounts = graph.createBuffer("ldi stencil counts", {(atlasColumns * atlasRows * perTile + 3) / 4 * 4});
    peel.stats = graph.createBuffer("ldi tile stats", {sizeof(gpu::LdiTileStatsGpu) * maxTiles});
    peel.commands = graph.createBuffer(
        "ldi layer draws",
        {std::max<VkDeviceSize>(16, ldiIndirectCommands(s.layerCap, maxTiles) * sizeof(VkDrawIndexedIndirectCommand))});
    peel.depthStencil = graph.createImage("ldi atlas", {atlasColumns * s.resolution, atlasRows * s.resolution,
                                                        depthStencilFormat});
    LdiPassInputs in;
    in.pointTests = table("ldi point tests", pointTests * sizeof(gpu::LdiPointTestGpu));
    in.pointDispatches = table("ldi point dispatches", pointTests * sizeof(VkDispatchIndirectCommand));
    in.pairInfos = table("ldi pair infos", ldiPairInfoBytes(pairSlots));
    std::optional<LdiPairSetupInputs> setup;
    BufferHandle sceneObjects, params;
    if (gpu) {
        LdiPairSetupInputs si;
        si.verdictsPipeline = &pairVerdicts;
        si.tablesPipeline = &pairSetup;
        si.set = slot.setupSet;
        si.bounds = gpu->candidates.bounds;
        si.candidates = gpu->candidates.pairs;
        si.selection = declarePairSelection(graph, pairSelection, slot.pairSelection, "ldi", si.candidates,
                                            gpu->candidates.pairCapacity, gpu->params.objectCount, s.maxPairs,
                                            c.properties.limits.maxComputeWorkGroupCount[0]);
        sceneObjects = graph.createBuffer("ldi scene objects",
                                          {gpu->objects.size() * sizeof(gpu::LdiSceneObjectGpu), 0, true});
        params = graph.createBuffer("ldi setup parameters", {sizeof(gpu::LdiSetupParamsGpu), 0, true});
        si.sceneObjects = sceneObjects;
        si.params = params;
        si.tiles = peel.tileBuffer;
        si.pointTests = in.pointTests;
        si.pointDispatches = in.pointDispatches;
        si.firstDraws = peel.firstDraws;
        si.pairInfos = in.pairInfos;
        setup = si;
        const LdiPairSetupInputs written = addLdiPairSetupPass(graph, si);
        peel.tileBuffer = written.tiles;
        peel.firstDraws = written.firstDraws;
        in.pointTests = written.pointTests;
        in.pointDispatches = written.pointDispatches;
        in.pairInfos = written.pairInfos;
    }
    in.peel = std::move(peel);
    in.pipelines.peel = {&this->peel, &stencilClear, &layerCount, &indirect, &sort};
    in.pipelines.volume = &volume;
    in.pipelines.volumeSum = &volumeSum;
    in.pipelines.points = &points;
    in.pipelines.drawnBound = &drawnBound;
    in.pairCount = pairSlots;
    in.insideCapacity = s.insideCapacity;
    in.pointTestCount = pointTests;
    // Every GPU-chosen pair is bounded from its drawn triangles: the CPU never sees which were drawn.
    in.boundFromDrawn = host ? host->boundFromDrawn : true;
    std::optional<LdiDrawnBoundTopologyBuffers> topology;
    if (in.boundFromDrawn) {
        topology = declareLdiDrawnBoundTopology(graph, slot.drawnBoundTopology);
        in.verticesAcross = topology->across;
        in.cornerValences = topology->valences;
    }
    in.pairResults = graph.createBuffer("ldi pair results", {sizeof(gpu::LdiPairResultGpu) * s.maxPairs});
    in.depthImage = graph.createBuffer("ldi intersection depth", {VkDeviceSize(s.maxPairs) * perTile * sizeof(float)});
    in.volumePartials = graph.createBuffer(
        "ldi volume partial sums", {VkDeviceSize(s.maxPairs) * ldiVolumeGroups(s.resolution) * sizeof(double)});
    in.inside = graph.createBuffer("ldi inside vertices", {ldiInsideBytes(s.insideCapacity)});
    in.readback = importReadbackSlot(graph, "ldi readback slot", frames.ring, frame);
    in.readbackLayout = &frames.readback;
    in.readImages = s.keepImages;
    addLdiPasses(graph, in);
    PersistentResources& resources = slotResources(frames, frame);
    VKC_TRY(graph.compile(resources));

    VulkanGraphAllocator& allocator = *frames.allocator;
    VKC_TRY(uploadSceneIndices(allocator, graph, in.peel.indices, slot.indices));
    if (topology) VKC_TRY(uploadLdiDrawnBoundTopology(allocator, graph, *topology, slot.drawnBoundTopology));
    if (host) {
        gpu::LdiSetupStateGpu state = {};
        state.activePairs = state.overlappingPairs = uint32_t(host->pairs.size());
        std::vector<uint8_t> infos(ldiPairInfoBytes(uint32_t(host->pairs.size())));
        std::memcpy(infos.data(), &state, sizeof(state));
        if (!host->pairs.empty())
            std::memcpy(infos.data() + sizeof(state), host->pairs.data(), host->pairs.size() * sizeof(host->pairs[0]));
        VKC_TRY(fillHostBuffer(allocator, graph, in.peel.tileBuffer, std::span<const gpu::LdiTileGpu>(host->tiles)));
        VKC_TRY(fillHostBuffer(allocator, graph, in.peel.firstDraws,
                               std::span<const VkDrawIndexedIndirectCommand>(host->firstDraws)));
        VKC_TRY(fillHostBuffer(allocator, graph, in.pointTests, std::span<const gpu::LdiPointTestGpu>(host->pointTests)));
        VKC_TRY(fillHostBuffer(allocator, graph, in.pointDispatches,
                               std::span<const VkDispatchIndirectCommand>(host->pointDispatches)));
        VKC_TRY(fillHostBuffer(allocator, graph, in.pairInfos, std::span<const uint8_t>(infos)));
    } else {
        VKC_TRY(fillHostBuffer(allocator, graph, sceneObjects, std::span<const gpu::LdiSceneObjectGpu>(gpu->objects)));
        VKC_TRY(fillHostBuffer(allocator, graph, params, std::span<const gpu::LdiSetupParamsGpu>(&gpu->params, 1)));
    }
    writeDescriptors(slot, graph, in, setup ? &*setup : nullptr, vertexSlots.bindings());
    VKC_TRY(executeFrameGraph(c, frames, frame, graph, cmd));
    slot.tileCount = tileCount;
    slot.layerCap = settings.layerCap;
    slot.graph = std::move(ownedGraph);
    return Status::success();
}

Status LdiDetectorImpl::recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, const CandidateSet& candidates,
                                    uint64_t frame) {
    // maxPairs counts pairs with a volume of interest (below), maxCandidatePairs the candidates.
    auto pairs = frameCandidatePairs({"ldi", "LdiSettings", settings}, uint32_t(scene.objects.size()), candidates);
    if (!pairs) return pairs.status();
    std::vector<std::pair<ObjectPair, LdiVoi>> tested;
    for (const ObjectPair& pair : pairs.value()) {
        VKC_TRY(requireClosedSolid(scene, pair.a, "ldi"));
        VKC_TRY(requireClosedSolid(scene, pair.b, "ldi"));
        // Boxes that only touch hold no intersection volume: not tested (§3.1).
        std::optional<LdiVoi> voi = computeLdiVoi(candidates.worldBounds[pair.a], candidates.worldBounds[pair.b]);
        if (voi) tested.push_back({pair, *voi});
    }
    if (tested.size() > settings.maxPairs)
        return makeError(ErrorCode::InvalidArgument, "ldi: " + std::to_string(tested.size()) +
                                                         " pairs with a volume of interest, more than "
                                                         "LdiSettings::maxPairs (" +
                                                         std::to_string(settings.maxPairs) + ")");
    // The slot is free once the frame that last used it has completed on the GPU (never waits).
    VKC_TRY(ringSlotAvailable(*ctx, frames.ring, frame));
    LdiSlot& slot = slots[frame % slots.size()];
    ensureSceneIndices(slot.indices, scene);
    VertexBufferSlots vertexSlots(frames.vertexBufferCapacity, "ldi: the frame reads");
    LdiHostTables tables;
    for (const auto& [pair, voi] : tested)
        VKC_TRY(addHostPair(scene, pair.a, pair.b, voi, vertexSlots, slot.indices, tables));
    if (tables.boundFromDrawn) ensureLdiDrawnBoundTopology(slot.drawnBoundTopology, scene);
    const uint32_t pairCount = uint32_t(tested.size());
    VKC_TRY(recordGraph(cmd, slot, frame, std::make_unique<Graph>(), vertexSlots, pairCount, 2 * pairCount, &tables,
                        nullptr));
    noteFrameInputs(frames, frame, scene, "ldi");
    slot.selfIntersections = scene.selfIntersections;
    slot.pointQuery = false;
    return Status::success();
}

Status LdiDetectorImpl::recordGpuDriven(VkCommandBuffer cmd, const SceneImpl& scene, const GpuCandidates& candidates,
                                        uint64_t frame) {
    VKC_TRY(ringSlotAvailable(*ctx, frames.ring, frame));
    LdiSlot& slot = slots[frame % slots.size()];
    ensureSceneIndices(slot.indices, scene);
    ensureLdiDrawnBoundTopology(slot.drawnBoundTopology, scene);  // every pair is bounded from its drawn triangles
    auto graph = std::make_unique<Graph>();
    auto added = addFrameCandidates(*graph, {"ldi", "LdiSettings", settings}, scene, {nullptr, &candidates});
    if (!added) return added.status();
    // Every object's entry: which pairs are drawn, the GPU decides.
    LdiGpuSetup setup;
    setup.candidates = added->buffers;
    VertexBufferSlots vertexSlots(frames.vertexBufferCapacity, "ldi: the scene's objects read");
    const uint32_t objectCount = uint32_t(scene.objects.size());
    setup.objects.resize(std::max(objectCount, 1u));
    for (uint32_t i = 0; i < objectCount; ++i) {
        const SceneObject& o = scene.objects[i];
        const SceneMesh& mesh = scene.meshes[o.mesh];
        auto meshSlot = vertexSlots.slot(mesh.vertexBuffer, vertexExtentBytes(mesh), [&] { return objectLabel(scene, i); });
        if (!meshSlot) return meshSlot.status();
        gpu::LdiSceneObjectGpu& g = setup.objects[i];
        g = {};
        const glm::dmat4 rows = glm::transpose(o.objectToWorld);
        g.row0 = rows[0];
        g.row1 = rows[1];
        g.row2 = rows[2];
        g.vertices = vertexSource(mesh, meshSlot.value());
        g.firstIndex = slot.indices.firstIndex[o.mesh];
        g.indexCount = uint32_t(mesh.data.indices.size() / 3 * 3);
        g.closed = mesh.report.validForVolumeMethods() ? 1u : 0u;
    }
    gpu::LdiSetupParamsGpu& params = setup.params;
    for (int k = 0; k < 3; ++k) params.candidateOrigin[k] = setup.candidates.origin[k];
    params.objectCount = objectCount;
    params.maxPairs = settings.maxPairs;
    params.resolution = settings.resolution;
    params.atlasColumns = atlasColumns;
    params.maxGroupsX = ctx->properties.limits.maxComputeWorkGroupCount[0];
    VKC_TRY(recordGraph(cmd, slot, frame, std::move(graph), vertexSlots, settings.maxPairs, maxTiles, nullptr, &setup));
    noteFrameInputs(frames, frame, scene, "ldi");
    slot.selfIntersections = scene.selfIntersections;
    slot.pointQuery = false;
    return Status::success();
}

Status LdiDetectorImpl::recordPoints(VkCommandBuffer cmd, const SceneImpl& scene, uint32_t object, const Aabb& bounds,
                                     VkBuffer pointBuffer, VkDeviceSize offset, uint32_t stride, uint32_t count,
                                     uint64_t frame) {
    if (object >= scene.objects.size())
        return makeError(ErrorCode::InvalidArgument, "ldi: point query names unknown object " + std::to_string(object));
    if (offset % 4 != 0 || stride % 4 != 0 || stride < 12)
        return makeError(ErrorCode::InvalidArgument, "ldi: point offset and stride must be multiples of 4 bytes, stride >= 12");
    // The buffer is bound from its start as far as the points reach: within one storage-buffer
    // binding (so also below the shader's 32-bit float index).
    const uint64_t extent = offset + (count == 0 ? 4 : (uint64_t(count - 1) * stride + 12));
    if (extent > storageBindingLimit(*ctx))
        return makeError(ErrorCode::InvalidArgument,
                         "ldi: point query offset " + std::to_string(offset) + " + " + std::to_string(count) +
                             " points of stride " + std::to_string(stride) + " reach " + std::to_string(extent) +
                             " bytes into the buffer, beyond the " + std::to_string(storageBindingLimit(*ctx)) +
                             " bytes one storage-buffer binding reaches on this device");
    VKC_TRY(requireClosedSolid(scene, object, "ldi"));
    // The object's own box is the VoI: every face lies on the box, so rays along z from below work.
    std::optional<LdiVoi> voi = computeLdiVoi(bounds, bounds);
    if (!voi)
        return makeError(ErrorCode::InvalidArgument, objectLabel(scene, object) + ": its world box has no volume");
    voi->axis = 2;
    voi->aFromMin = true;
    VKC_TRY(ringSlotAvailable(*ctx, frames.ring, frame));
    const LdiView view = ldiView(*voi, true, settings.resolution);
    LdiSlot& slot = slots[frame % slots.size()];
    ensureSceneIndices(slot.indices, scene);
    VertexBufferSlots vertexSlots(frames.vertexBufferCapacity, "ldi: the frame reads");
    LdiHostTables tables;
    auto tile = hostTile(scene, object, view, 0, vertexSlots, slot.indices);
    if (!tile) return tile.status();
    const gpu::VertexSourceGpu points = {0, stride / 4, uint32_t(offset / 4), count};
    auto pointSlot = vertexSlots.slot(pointBuffer, vertexExtentBytes(points), [] { return std::string("points"); });
    if (!pointSlot) return pointSlot.status();
    tables.tiles.push_back(tile.value());
    tables.firstDraws.push_back({tile->indexCount, 1u, tile->firstIndex, 0, 0});
    gpu::LdiPointTestGpu test = {};
    test.pointToTexel = toFloat(view.worldToTexel);
    test.points = points;
    test.points.slot = pointSlot.value();
    tables.pointTests.push_back(test);
    tables.pointDispatches.push_back(pointDispatch(count, ctx->properties.limits.maxComputeWorkGroupCount[0]));
    VKC_TRY(recordGraph(cmd, slot, frame, std::make_unique<Graph>(), vertexSlots, 0, 1, &tables, nullptr));
    noteFrameInputs(frames, frame, scene, "ldi");  // a point query's frame tests no mesh pair
    slot.pointQuery = true;
    return Status::success();
}

}  // namespace vkc
