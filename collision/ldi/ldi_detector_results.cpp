// vkc::LdiDetector, results: decodes a frame's ring slot (inside list, per-pair sums and counts,
// per-tile stats, the pairs as drawn, optionally the intersection-depth images) into FrameResults /
// LdiPointResults.
#include "collision/ldi/ldi_detector_impl.h"

#include "collision/frames/frame_warnings.h"
#include "collision/frames/vulkan_graph.h"
#include "collision/ldi/ldi_error_bound.h"
#include "collision/scene/mesh_self_intersections.h"
#include "vk/descriptors.h"

#include <glm/matrix.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>

namespace vkc {

namespace {

struct SlotView {
    gpu::LdiListHeader header;
    const uint32_t* entries;  // (tag, index) pairs
    uint32_t listed;
    const gpu::LdiPairResultGpu* pairs;
    const gpu::LdiTileStatsGpu* stats;
    gpu::LdiSetupStateGpu setup;
    const gpu::LdiPairInfoGpu* infos;
};

SlotView decode(const char* base, const LdiDetectorImpl& impl) {
    const ReadbackLayout& layout = impl.frames.readback;
    SlotView v;
    v.header = layout.value<gpu::LdiListHeader>(base, kLdiReadbackInside);
    v.entries = reinterpret_cast<const uint32_t*>(layout.bytes(base, kLdiReadbackInside) + sizeof(gpu::LdiListHeader));
    v.listed = std::min(v.header.count, impl.settings.insideCapacity);
    v.pairs = reinterpret_cast<const gpu::LdiPairResultGpu*>(layout.bytes(base, kLdiReadbackPairs));
    v.stats = reinterpret_cast<const gpu::LdiTileStatsGpu*>(layout.bytes(base, kLdiReadbackTileStats));
    v.setup = layout.value<gpu::LdiSetupStateGpu>(base, kLdiReadbackPairInfos);
    v.infos = reinterpret_cast<const gpu::LdiPairInfoGpu*>(layout.bytes(base, kLdiReadbackPairInfos) +
                                                         sizeof(gpu::LdiSetupStateGpu));
    return v;
}

// The VoI the pair was drawn over.
LdiVoi voiOf(const gpu::LdiPairInfoGpu& info) {
    LdiVoi voi;
    for (int k = 0; k < 3; ++k) {
        voi.box.min[k] = info.box[k];
        voi.box.max[k] = info.box[3 + k];
        voi.overlap.min[k] = info.overlap[k];
        voi.overlap.max[k] = info.overlap[3 + k];
    }
    voi.axis = info.axis;
    voi.aFromMin = (info.flags & gpu::kLdiPairAFromMin) != 0;
    voi.extended = (info.flags & gpu::kLdiPairExtended) != 0;
    return voi;
}

// World box of a tile's invalid pixels: their footprints times the depth range of their layers.
Aabb invalidRegion(const LdiView& view, const gpu::LdiTileStatsGpu& stats) {
    float zMin, zMax;
    std::memcpy(&zMin, &stats.minDepthBits, 4);
    std::memcpy(&zMax, &stats.maxDepthBits, 4);
    const glm::dmat4 texelToWorld = glm::inverse(view.worldToTexel);
    glm::dvec3 lo(INFINITY), hi(-INFINITY);
    for (int corner = 0; corner < 8; ++corner) {
        glm::dvec4 texel(corner & 1 ? stats.maxX + 1.0 : double(stats.minX), corner & 2 ? stats.maxY + 1.0 : double(stats.minY),
                         corner & 4 ? double(zMax) : double(zMin), 1.0);
        glm::dvec3 world(texelToWorld * texel);
        lo = glm::min(lo, world);
        hi = glm::max(hi, world);
    }
    return {glm::vec3(lo), glm::vec3(hi)};
}

std::string describeBox(const Aabb& box) {
    char text[160];
    std::snprintf(text, sizeof(text), "[%g, %g, %g] - [%g, %g, %g]", box.min.x, box.min.y, box.min.z, box.max.x,
                  box.max.y, box.max.z);
    return text;
}

}  // namespace

Status LdiDetectorImpl::readResults(uint64_t frame, FrameResults& out, LdiFrameDetails* details) {
    VulkanContext& c = *ctx;
    auto bytes = readRingSlot(c, frames.ring, frame);
    if (!bytes) return bytes.status();
    const LdiSlot& slot = slots[frame % slots.size()];
    if (slot.pointQuery)
        return makeError(ErrorCode::InvalidArgument,
                         "ldi: frame " + std::to_string(frame) + " was a point query; read it with pointResults");
    const char* base = static_cast<const char*>(bytes.value());
    const SlotView v = decode(base, *this);
    const uint32_t cap = slot.layerCap;
    const uint32_t perTile = settings.resolution * settings.resolution;

    out = FrameResults{};
    reportUntestedPairs("ldi", "pairs with a volume of interest", "LdiSettings", settings.maxPairs,
                        {v.setup.listedPairs, v.setup.listCapacity, v.setup.openPairs, v.setup.firstOpenA,
                         v.setup.firstOpenB, v.setup.overlappingPairs, v.setup.activePairs},
                        out);
    const uint32_t pairCount = std::min(v.setup.activePairs, settings.maxPairs);
    LdiFrameDetails d;
    d.renderPasses = slot.tileCount == 0 ? 0 : cap;
    std::vector<std::vector<uint32_t>> inside(pairCount);
    std::vector<ObjectPair> tested;
    for (uint32_t i = 0; i < v.listed; ++i) {
        const uint32_t tag = v.entries[2 * i], vertex = v.entries[2 * i + 1];
        if ((tag >> 1) < inside.size()) inside[tag >> 1].push_back(tag & gpu::kLdiSideB ? vertex | kLdiInsideVertexOfB : vertex);
    }
    const bool listTruncated = v.header.count > settings.insideCapacity;
    for (uint32_t p = 0; p < pairCount; ++p) {
        const gpu::LdiPairInfoGpu& r = v.infos[p];
        const LdiVoi voi = voiOf(r);
        tested.push_back({r.a, r.b});
        const gpu::LdiTileStatsGpu& a = v.stats[2 * p];
        const gpu::LdiTileStatsGpu& b = v.stats[2 * p + 1];
        LdiPairDetails pd;
        pd.a = r.a;
        pd.b = r.b;
        pd.layersA = a.layers;
        pd.layersB = b.layers;
        pd.neededLayers = std::max(a.layers, b.layers);
        pd.truncated = pd.neededLayers > cap;
        pd.invalidOrderPixelsA = a.invalidPixels;
        pd.invalidOrderPixelsB = b.invalidPixels;
        pd.resolution = settings.resolution;
        pd.axis = voi.axis;
        pd.aFromMin = voi.aFromMin;
        pd.extended = voi.extended;
        pd.box = voi.box;
        if (!pd.truncated) {
            pd.volume = v.pairs[p].lengthSum * r.pixelArea;
            const double bound = (r.flags & gpu::kLdiPairBoundFromDrawn) ? v.pairs[p].drawnBoundA + v.pairs[p].drawnBoundB
                                                                         : r.tightBound;
            pd.volumeErrorBound = bound + ldiFloatDepthErrorBound(voi, a.layers, b.layers);
        }
        if (settings.keepImages) {
            const float* image =
                frames.readback.span<float>(base, kLdiReadbackImages, size_t(pairCount) * perTile).data() +
                size_t(p) * perTile;
            pd.intersectionDepth.assign(image, image + perTile);
        }
        const uint64_t insideCount = uint64_t(v.pairs[p].insideA) + v.pairs[p].insideB;
        const bool decidedHit = !pd.truncated && (pd.volume > 0.0 || insideCount > 0);
        if (decidedHit || pd.truncated) {
            PairResult pair;
            pair.a = r.a;
            pair.b = r.b;
            if (!pd.truncated) {
                pair.volume = pd.volume;
                pair.volumeErrorBound = pd.volumeErrorBound;
            }
            pair.insideVertices = std::move(inside[p]);
            std::sort(pair.insideVertices.begin(), pair.insideVertices.end());
            pair.truncated = pd.truncated || (listTruncated && pair.insideVertices.size() < insideCount);
            out.truncated = out.truncated || pair.truncated;
            out.pairs.push_back(std::move(pair));
            out.colliding = out.colliding || decidedHit;
        }
        if (pd.truncated)
            out.warnings.push_back("ldi: pair " + pairName(r.a, r.b) + " needs " +
                                   (pd.neededLayers >= 255 ? "at least " : "") + std::to_string(pd.neededLayers) +
                                   " layers, more than LdiSettings::layerCap (" + std::to_string(cap) +
                                   "): no volume");
        d.pairs.push_back(std::move(pd));
    }
    appendFrameWarnings(frames, frame, tested, out.warnings);
    if (listTruncated)
        out.warnings.push_back("ldi: " + std::to_string(v.header.count) + " inside vertices, more than "
                               "LdiSettings::insideCapacity (" + std::to_string(settings.insideCapacity) +
                               "); the lists are truncated");

    // §7: per object, the invalid-order pixels of every LDI it was drawn in (tiles 2p: a, 2p + 1: b).
    std::map<uint32_t, LdiSelfIntersection> self;
    for (uint32_t t = 0; t < 2 * pairCount; ++t) {
        if (v.stats[t].invalidPixels == 0) continue;
        const gpu::LdiPairInfoGpu& info = v.infos[t / 2];
        const bool sideA = t % 2 == 0;
        const uint32_t object = sideA ? info.a : info.b;
        Aabb region = invalidRegion(ldiView(voiOf(info), sideA, settings.resolution), v.stats[t]);
        auto [it, inserted] = self.try_emplace(object, LdiSelfIntersection{object, 0, region});
        it->second.pixels += v.stats[t].invalidPixels;
        it->second.region.min = glm::min(it->second.region.min, region.min);
        it->second.region.max = glm::max(it->second.region.max, region.max);
    }
    // A flag that the mesh's own geometry refutes is a float depth tie at a silhouette pixel, not a
    // self-intersection (mesh_self_intersections.h); one the CPU cannot check is kept, saying so.
    const std::shared_ptr<SceneSelfIntersections> verdicts = slot.selfIntersections.lock();
    const std::vector<MeshId>& objectMeshes = frames.slotWarnings[frame % frames.slotWarnings.size()].objectMeshes;
    for (const auto& [object, s] : self) {
        std::optional<bool> confirmed;
        if (verdicts && object < objectMeshes.size()) confirmed = verdicts->selfIntersects(objectMeshes[object]);
        if (confirmed == false) continue;
        out.warnings.push_back("ldi: object " + std::to_string(object) + " self-intersects: " +
                               std::to_string(s.pixels) + " LDI pixels with an invalid front/back order in " +
                               describeBox(s.region) +
                               (confirmed ? "" : " (not checked on the CPU: its positions there are not the ones drawn)"));
        d.selfIntersections.push_back(s);
    }
    growLayers(d, out);
    if (details) *details = std::move(d);
    return readFrameTimings(c, frames, frame, *slot.graph, out.gpuTimingsMs);
}

void LdiDetectorImpl::growLayers(const LdiFrameDetails& frame, FrameResults& out) {
    uint32_t needed = settings.layerCap;
    for (const LdiPairDetails& pair : frame.pairs)
        if (pair.truncated) needed = std::max(needed, std::min(pair.neededLayers, gpu::kLdiMaxLayerCap));
    if (needed == settings.layerCap) return;
    const VkDeviceSize bytes = VkDeviceSize(maxTiles) * ldiTileLayerBytes(settings.resolution, needed);
    if (bytes > settings.layerMemoryBudget || bytes > storageBindingLimit(*ctx)) {
        out.warnings.push_back("ldi: the next frames cannot grow to " + std::to_string(needed) + " layers: " +
                               std::to_string(bytes) + " bytes of peeled layers, past LdiSettings::layerMemoryBudget (" +
                               std::to_string(settings.layerMemoryBudget) + ") or one storage-buffer binding");
        return;
    }
    settings.layerCap = needed;
}

Status LdiDetectorImpl::readPointResults(uint64_t frame, LdiPointResults& out) {
    VulkanContext& c = *ctx;
    auto bytes = readRingSlot(c, frames.ring, frame);
    if (!bytes) return bytes.status();
    const LdiSlot& slot = slots[frame % slots.size()];
    if (!slot.pointQuery)
        return makeError(ErrorCode::InvalidArgument,
                         "ldi: frame " + std::to_string(frame) + " tested pairs; read it with results");
    const SlotView v = decode(static_cast<const char*>(bytes.value()), *this);
    out = LdiPointResults{};
    out.insideCount = v.header.count;
    out.truncated = v.header.count > settings.insideCapacity;
    for (uint32_t i = 0; i < v.listed; ++i) out.inside.push_back(v.entries[2 * i + 1]);
    std::sort(out.inside.begin(), out.inside.end());
    out.layers = v.stats[0].layers;
    out.layersTruncated = out.layers > slot.layerCap;
    return readFrameTimings(c, frames, frame, *slot.graph, out.gpuTimingsMs);
}

}  // namespace vkc
