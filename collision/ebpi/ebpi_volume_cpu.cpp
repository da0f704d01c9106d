// CPU reference of ebpi's volume and gradient; see ebpi_volume_cpu.h. Every double operation is
// the shader's (ebpi_volume.comp), in the same order, so the integer sums agree bit for bit.
#include "collision/ebpi/ebpi_volume_cpu.h"

#include "shaders_glsl/shared/ebpi_pair_setup.h"

#include <cmath>

namespace vkc {
namespace {

struct Walk {
    int depthA = 0, depthB = 0;
    bool balanced = true;
    double entry = 0, inside = 0;
    uint32_t boundaries = 0;
};

// Rounded to the nearest quantum (halves away from zero); false: overflow (or NaN).
bool quantize(double value, double limit, int64_t& q) {
    const double rounded = std::floor(std::abs(value) + 0.5);
    if (!(rounded < limit)) return false;
    q = value < 0 ? -int64_t(rounded) : int64_t(rounded);
    return true;
}

void addWords(uint32_t& low, uint32_t& high, int64_t q) {
    const uint64_t sum = (uint64_t(high) << 32 | low) + uint64_t(q);  // mod 2^64, as the carry does
    low = uint32_t(sum);
    high = uint32_t(sum >> 32);
}

class VolumeWalker {
public:
    VolumeWalker(const gpu::EbpiVolumePairGpu& pair, const gpu::EbpiVolumeRayGpu& ray,
                 const std::vector<std::span<const uint32_t>>& objectIndices, EbpiVolumeFixed* out, bool& overflowed)
        : pair_(pair), ray_(ray), objectIndices_(objectIndices), out_(out), overflowed_(overflowed) {}

    // out == nullptr: parity only.
    Walk walk(std::span<const gpu::EbpiHitGpu> hits) {
        Walk walk;
        for (size_t i = 0; i < hits.size();) {
            size_t end = i + 1;
            while (end < hits.size() && hits[end].t == hits[i].t) ++end;
            for (uint32_t entering : {1u, 0u})
                for (size_t k = i; k < end; ++k)
                    if (hits[k].entering == entering) step(walk, hits[k]);
            i = end;
        }
        if (walk.depthA != 0 || walk.depthB != 0) walk.balanced = false;
        return walk;
    }

private:
    void step(Walk& walk, const gpu::EbpiHitGpu& hit) {
        const bool before = walk.depthA > 0 && walk.depthB > 0;
        const int change = hit.entering != 0 ? 1 : -1;
        if (hit.object == pair_.objectA)
            walk.depthA += change;
        else if (hit.object == pair_.objectB)
            walk.depthB += change;
        else
            walk.balanced = false;
        if (walk.depthA < 0 || walk.depthB < 0) walk.balanced = false;
        const bool after = walk.depthA > 0 && walk.depthB > 0;
        if (before == after) return;
        ++walk.boundaries;
        if (after)
            walk.entry = double(hit.t);
        else
            walk.inside += double(hit.t) - walk.entry;
        if (out_) addBoundaryGradient(hit, after ? -1.0 : 1.0);
    }

    void addBoundaryGradient(const gpu::EbpiHitGpu& hit, double sign) {
        const uint32_t slotBase = hit.object == pair_.objectA ? pair_.firstSlotA : pair_.firstSlotB;
        const double weights[3] = {(1.0 - double(hit.b1)) - double(hit.b2), double(hit.b1), double(hit.b2)};
        for (uint32_t k = 0; k < 3; ++k) {
            const uint32_t vertex = objectIndices_[hit.object][3 * size_t(hit.triangle) + k];
            const double value = ((sign * double(ray_.area)) * weights[k]) * pair_.gradientScale;
            int64_t q = 0;
            if (!quantize(value, gpu::kEbpiVolumeContributionLimit, q)) {
                overflowed_ = true;
                continue;
            }
            const size_t word = (size_t(slotBase + vertex) * gpu::kEbpiVolumeAxes + ray_.axis) * 2;
            addWords(out_->gradientWords[word], out_->gradientWords[word + 1], q);
        }
    }

    const gpu::EbpiVolumePairGpu& pair_;
    const gpu::EbpiVolumeRayGpu& ray_;
    const std::vector<std::span<const uint32_t>>& objectIndices_;
    EbpiVolumeFixed* out_;
    bool& overflowed_;
};

}  // namespace

EbpiVolumeFixed ebpiVolumeFixed(std::span<const gpu::EbpiVolumeRayGpu> rayInfos, const EbpiHitLists& hits,
                                std::span<const gpu::EbpiVolumePairGpu> pairs,
                                const std::vector<std::span<const uint32_t>>& objectIndices, uint32_t gradientSlots) {
    EbpiVolumeFixed out;
    out.sums.assign(pairs.size() * gpu::kEbpiVolumeAxes, gpu::EbpiPairVolumeGpu{});
    out.gradientWords.assign(size_t(gradientSlots) * gpu::kEbpiVolumeAxes * 2, 0u);
    for (size_t r = 0; r < rayInfos.size(); ++r) {
        const gpu::EbpiVolumeRayGpu& ray = rayInfos[r];
        const gpu::EbpiVolumePairGpu& pair = pairs[ray.pair];
        gpu::EbpiPairVolumeGpu& sum = out.sums[size_t(ray.pair) * gpu::kEbpiVolumeAxes + ray.axis];
        if (hits.rayHits[r].truncated != 0) {
            ++sum.truncatedRays;
            continue;
        }
        const auto list = hits.hits.subspan(r * hits.hitCapacity, hits.rayHits[r].count);
        bool overflowed = false;
        if (!VolumeWalker(pair, ray, objectIndices, nullptr, overflowed).walk(list).balanced) {
            ++sum.oddRays;
            continue;
        }
        const Walk walk = VolumeWalker(pair, ray, objectIndices, &out, overflowed).walk(list);
        sum.boundaryHits += walk.boundaries;
        if (walk.inside != 0) {
            int64_t q = 0;
            if (quantize((double(ray.area) * walk.inside) * pair.volumeScale, gpu::kEbpiVolumeRayLimit, q)) {
                ++sum.rays;
                addWords(sum.volumeLow, sum.volumeHigh, q);
            } else {
                overflowed = true;
            }
        }
        if (overflowed) sum.overflow = 1;
    }
    return out;
}

EbpiVolumeScales ebpiVolumeScales(double extent) {
    return {gpu::ebpiVolumeScaleOf(extent), gpu::ebpiGradientScaleOf(extent)};
}

int64_t ebpiFixedSum(uint32_t low, uint32_t high) { return int64_t(uint64_t(high) << 32 | low); }

EbpiPairVolume ebpiPairVolume(const EbpiVolumeFixed& fixed, uint32_t pair, const gpu::EbpiVolumePairGpu& info) {
    EbpiPairVolume result;
    for (uint32_t axis = 0; axis < gpu::kEbpiVolumeAxes; ++axis) {
        const gpu::EbpiPairVolumeGpu& s = fixed.sums[size_t(pair) * gpu::kEbpiVolumeAxes + axis];
        result.volume[axis] = double(ebpiFixedSum(s.volumeLow, s.volumeHigh)) / info.volumeScale;
        result.roundingBound[axis] = 0.5 * s.rays / info.volumeScale;
        result.gradientRoundingBound[axis] = 1.5 * s.boundaryHits / info.gradientScale;
        result.rays[axis] = s.rays;
        result.oddRays[axis] = s.oddRays;
        result.truncatedRays[axis] = s.truncatedRays;
        result.boundaryHits[axis] = s.boundaryHits;
        result.overflow = result.overflow || s.overflow != 0;
    }
    return result;
}

std::vector<EbpiVertexGradient> ebpiVertexGradients(const EbpiVolumeFixed& fixed, uint32_t firstSlot,
                                                    uint32_t vertexCount, double gradientScale,
                                                    const std::array<glm::dvec3, 3>& axes) {
    std::vector<EbpiVertexGradient> out;
    for (uint32_t v = 0; v < vertexCount; ++v) {
        const uint32_t* words = &fixed.gradientWords[size_t(firstSlot + v) * gpu::kEbpiVolumeAxes * 2];
        glm::dvec3 world(0.0);
        bool zero = true;
        for (uint32_t axis = 0; axis < gpu::kEbpiVolumeAxes; ++axis) {
            const int64_t q = ebpiFixedSum(words[2 * axis], words[2 * axis + 1]);
            zero = zero && q == 0;
            world += (double(q) / gradientScale) * axes[axis];
        }
        if (!zero) out.push_back({v, world});
    }
    return out;
}

}  // namespace vkc
