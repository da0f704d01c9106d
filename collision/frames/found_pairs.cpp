// Ring-slot lists and the compacted pairs; see found_pairs.h.
#include "collision/frames/found_pairs.h"

#include <algorithm>
#include <cstring>

namespace vkc {

ReadbackList readbackList(const char* at, uint32_t capacity) {
    gpu::StencilListHeader header;
    std::memcpy(&header, at, sizeof(header));
    ReadbackList list;
    list.count = header.count;
    list.stored = std::min(header.count, capacity);
    list.truncated = header.count > capacity;
    list.entries = at + sizeof(gpu::StencilListHeader);
    return list;
}

PairResult* FoundPairs::find(std::vector<PairResult>& pairs, uint32_t a, uint32_t b) const {
    auto it = index.find({std::min(a, b), std::max(a, b)});
    return it == index.end() ? nullptr : &pairs[it->second];
}

FoundPairs addFoundPairs(const ReadbackList& list, bool truncated, std::vector<PairResult>& pairs) {
    FoundPairs found;
    const auto* gpuPairs = reinterpret_cast<const gpu::StencilPairGpu*>(list.entries);
    found.sorted.assign(gpuPairs, gpuPairs + list.stored);
    std::sort(found.sorted.begin(), found.sorted.end(), [](const auto& x, const auto& y) {
        return x.a != y.a ? x.a < y.a : x.b < y.b;
    });
    for (const gpu::StencilPairGpu& p : found.sorted) {
        PairResult pair;
        pair.a = p.a;
        pair.b = p.b;
        pair.truncated = truncated;
        found.index[{p.a, p.b}] = pairs.size();
        pairs.push_back(std::move(pair));
    }
    return found;
}

}  // namespace vkc
