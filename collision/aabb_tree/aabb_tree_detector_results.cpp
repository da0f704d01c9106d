// AabbTreeDetector::results: decodes a frame's read-back slot (traversal state, per-pair counters,
// the kept triangle pairs) into FrameResults, and feeds temporal coherence (paper 4, section 5):
// each pair's next entrance level comes from this frame's per-level overlap counts.
// Never blocks: NotReady until the frame's timeline value has been signalled.
#include "collision/aabb_tree/aabb_tree_detector_impl.h"

#include "collision/frames/frame_warnings.h"
#include "collision/aabb_tree/aabb_traversal_cpu.h"
#include "collision/frames/vulkan_graph.h"
#include "passes/aabb_tree/aabb_tree_passes.h"
#include "vk/descriptors.h"

#include <algorithm>
#include <cstring>

namespace vkc {

void AabbTreeDetectorImpl::growNodePairs(uint32_t seen, FrameResults& out) {
    const uint64_t wanted = std::max<uint64_t>(uint64_t(seen) + seen / 8, 2ull * settings.nodePairCapacity);
    const uint64_t bytes = 2 * wanted * sizeof(gpu::AabbNodePairGpu);
    if (wanted > (1u << 30) || bytes > settings.nodePairMemoryBudget || bytes > storageBindingLimit(*ctx)) {
        out.warnings.push_back("aabb-tree: the next frames cannot grow to " + std::to_string(wanted) +
                               " node pairs per list: " + std::to_string(bytes) +
                               " bytes, past AabbTreeSettings::nodePairMemoryBudget (" +
                               std::to_string(settings.nodePairMemoryBudget) + "), one storage-buffer binding or 2^30 entries");
        return;
    }
    settings.nodePairCapacity = uint32_t(wanted);
}

Status AabbTreeDetector::results(uint64_t frame, FrameResults& out, AabbTreeFrameDetails* details) {
    AabbTreeDetectorImpl& d = *impl_;
    auto bytes = readRingSlot(*d.ctx, d.frames.ring, frame);
    if (!bytes) return bytes.status();
    const AabbTraversalSlot& slot = d.slots[frame % d.slots.size()].traversal;
    const void* base = bytes.value();
    const ReadbackLayout& layout = d.frames.readback;
    const auto state = layout.value<gpu::AabbTraversalStateGpu>(base, kAabbReadbackState);
    // The pairs the GPU set up from the candidate list, each with its objects.
    const uint32_t pairCount = std::min(state.pairCount, d.settings.maxCandidatePairs);
    std::vector<gpu::AabbPairStatsGpu> pairStats(pairCount);
    if (pairCount != 0)
        std::memcpy(pairStats.data(), layout.bytes(base, kAabbReadbackPairStats), pairCount * sizeof(gpu::AabbPairStatsGpu));
    std::vector<ObjectPair> tested;
    for (const gpu::AabbPairStatsGpu& stats : pairStats) tested.push_back({stats.objectA, stats.objectB});

    out = FrameResults{};
    std::vector<uint32_t> colliding;  // pair indices, by objects
    for (uint32_t k = 0; k < pairCount; ++k)
        if (pairStats[k].trianglePairs != 0) colliding.push_back(k);
    std::sort(colliding.begin(), colliding.end(), [&](uint32_t x, uint32_t y) { return tested[x] < tested[y]; });
    std::vector<int> resultOf(pairCount, -1);
    for (uint32_t k : colliding) {
        resultOf[k] = int(out.pairs.size());
        PairResult& r = out.pairs.emplace_back();
        r.a = tested[k].a;
        r.b = tested[k].b;
        r.trianglePairs = pairStats[k].trianglePairs;
    }
    const uint32_t capacity = d.trianglePairCapacity();
    if (capacity != 0) {
        const auto* list = reinterpret_cast<const gpu::AabbTrianglePairGpu*>(layout.bytes(base, kAabbReadbackTrianglePairs));
        const uint32_t stored = std::min(state.trianglePairCount, capacity);
        for (uint32_t i = 0; i < stored; ++i) {
            gpu::AabbTrianglePairGpu entry;
            std::memcpy(&entry, list + i, sizeof(entry));
            if (entry.pair < pairCount && resultOf[entry.pair] >= 0)
                out.pairs[resultOf[entry.pair]].trianglePairList.push_back({entry.triangleA, entry.triangleB});
        }
        for (PairResult& r : out.pairs) {
            std::sort(r.trianglePairList.begin(), r.trianglePairList.end());
            r.truncated = r.trianglePairList.size() < *r.trianglePairs;
        }
        if (state.trianglePairCount > capacity)
            out.warnings.push_back("aabb-tree: " + std::to_string(state.trianglePairCount) +
                                   " intersecting triangle pairs, list capacity " + std::to_string(capacity) +
                                   " (AabbTreeSettings::trianglePairCapacity): list truncated, counts exact");
    }
    if (state.nodePairOverflow != 0 || state.seedOverflow != 0) {
        // Node pairs past the list capacity were never tested: counts may be too low, for any pair.
        for (PairResult& r : out.pairs) r.truncated = true;
        out.truncated = true;
        out.warnings.push_back(state.seedOverflow != 0
                                   ? "aabb-tree: a traversal level would start more than 2^32 node pairs: results incomplete"
                                   : "aabb-tree: a node pair list overflowed: " + std::to_string(state.nodePairOverflow) +
                                         " entries > AabbTreeSettings::nodePairCapacity " +
                                         std::to_string(d.slots[frame % d.slots.size()].nodePairCapacity) +
                                         ": results incomplete (the next frames have more room)");
        if (state.seedOverflow == 0) d.growNodePairs(state.nodePairOverflow, out);
    }
    if (state.candidatePairs > pairCount) {
        out.truncated = true;
        out.warnings.push_back("aabb-tree: " + std::to_string(state.candidatePairs) + " candidate pairs, " +
                               std::to_string(pairCount) +
                               " traversed (AabbTreeSettings::maxCandidatePairs " +
                               std::to_string(d.settings.maxCandidatePairs) +
                               ", or the broadphase's pairCapacity): the others were not tested");
    }
    out.colliding = !out.pairs.empty();

    // Temporal coherence (section 5): next frame's entrance level from this frame's overlap counts.
    if (!d.settings.disableTemporalCoherence) {
        // Pairs that left the PCS keep their entry; bound the map so a long run cannot grow it forever.
        if (d.entranceLevels.size() > 4ull * d.settings.maxCandidatePairs) d.entranceLevels.clear();
        // A frame of a scene recorded before the detector moved on to another has nothing to teach.
        for (uint32_t k = 0; k < pairCount && !slot.layout.empty(); ++k) {
            if (tested[k].b >= slot.objectTrees.size()) continue;
            const AabbTree& treeA = d.trees.trees.find(slot.layout[slot.objectTrees[tested[k].a]])->second.tree;
            const AabbTree& treeB = d.trees.trees.find(slot.layout[slot.objectTrees[tested[k].b]])->second.tree;
            gpu::AabbPairGpu pair{};
            pair.levelCount = std::max(treeA.levelCount, treeB.levelCount);
            const auto used = slot.entrances.find(tested[k]);
            const uint32_t entrance = used == slot.entrances.end() ? 0 : used->second;
            d.entranceLevels[tested[k]] = nextAabbEntranceLevel(pair, treeA, treeB, pairStats[k], entrance);
        }
    }
    if (details) {
        details->globalLevels = slot.globalLevels;
        details->levelTested.assign(state.levelTested, state.levelTested + slot.globalLevels);
        details->levelOverlaps.assign(state.levelOverlaps, state.levelOverlaps + slot.globalLevels);
        details->trianglePairCount = state.trianglePairCount;
        details->nodePairOverflow = state.nodePairOverflow != 0;
        details->nodePairsNeeded = state.nodePairOverflow;
        details->refitTrees = slot.refitTrees;
    }
    appendFrameWarnings(d.frames, frame, tested, out.warnings);
    return readFrameTimings(*d.ctx, d.frames, frame, *d.slots[frame % d.slots.size()].graph, out.gpuTimingsMs);
}

}  // namespace vkc
