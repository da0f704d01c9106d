// Method `ebpi` (paper 5, Sec. 4.4): ray directions away from the faces; see ebpi_directions.h.
#include "collision/ebpi/ebpi_directions.h"

#include "collision/ebpi/ebpi_ray_mesh.h"
#include "shaders_glsl/shared/ebpi_pair_setup.h"

#include <cmath>

namespace vkc {
namespace {

// The texels normalised (over the sum of their lengths, when any), their fourth moments and the
// significant ones, in ebpi_directions.comp's order.
struct NormalisedHistogram {
    gpu::EbpiMoments moments{};
    gpu::EbpiLeanTexels lean{};
};

NormalisedHistogram normalised(const EbpiNormalHistogram& histogram) {
    double total = 0.0;
    for (const glm::dvec3& n : histogram.texels) total += std::sqrt(gpu::ebpiDot(n, n));
    NormalisedHistogram out;
    if (total > 0.0)
        for (const glm::dvec3& n : histogram.texels) {
            const glm::dvec3 share(n.x / total, n.y / total, n.z / total);
            gpu::ebpiAddMoments(out.moments, share);
            gpu::ebpiAddLeanTexel(out.lean, share);
        }
    return out;
}

gpu::EbpiMoments moments(const EbpiNormalHistogram& histogram) { return normalised(histogram).moments; }

// A 64-bit sum back to double: ebpi_directions.comp's conversion.
double fromFixed(int64_t sum) {
    const uint64_t bits = uint64_t(sum);
    return double(int32_t(uint32_t(bits >> 32))) * 4294967296.0 + double(uint32_t(bits));
}

}  // namespace

void ebpiAddToNormalHistogram(EbpiNormalHistogram& histogram, const MeshData& mesh, const glm::dmat3& linear) {
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        const glm::dvec3 a = linear * glm::dvec3(mesh.positions[mesh.indices[t]]);
        const glm::dvec3 b = linear * glm::dvec3(mesh.positions[mesh.indices[t + 1]]);
        const glm::dvec3 c = linear * glm::dvec3(mesh.positions[mesh.indices[t + 2]]);
        const glm::dvec3 areaNormal = gpu::ebpiAreaNormal(a, b, c);
        if (gpu::ebpiDot(areaNormal, areaNormal) == 0.0) continue;
        histogram.texels[gpu::ebpiNormalTexel(areaNormal)] += areaNormal;
    }
}

EbpiNormalHistogram ebpiPairNormalHistogram(const MeshData& meshA, const glm::mat4& objectToLocalA,
                                            const MeshData& meshB, const glm::mat4& objectToLocalB, double scale) {
    std::vector<int64_t> sums(size_t(gpu::kEbpiHistogramTexels) * 3, 0);
    for (const auto& [mesh, place] : {std::pair{&meshA, &objectToLocalA}, std::pair{&meshB, &objectToLocalB}})
        for (size_t t = 0; t + 2 < mesh->indices.size(); t += 3) {
            const glm::dvec3 areaNormal = gpu::ebpiAreaNormal(ebpiLocalPoint(*place, mesh->positions[mesh->indices[t]]),
                                                              ebpiLocalPoint(*place, mesh->positions[mesh->indices[t + 1]]),
                                                              ebpiLocalPoint(*place, mesh->positions[mesh->indices[t + 2]]));
            if (gpu::ebpiDot(areaNormal, areaNormal) == 0.0) continue;
            const uint32_t texel = gpu::ebpiNormalTexel(areaNormal);
            for (int k = 0; k < 3; ++k)  // wraps mod 2^64 like the GPU's word pairs
                sums[texel * 3 + k] = int64_t(uint64_t(sums[texel * 3 + k]) +
                                              uint64_t(int64_t(gpu::ebpiHistogramQuanta(areaNormal[k], scale))));
        }
    EbpiNormalHistogram histogram;
    for (uint32_t texel = 0; texel < gpu::kEbpiHistogramTexels; ++texel)
        histogram.texels[texel] = glm::dvec3(fromFixed(sums[texel * 3]), fromFixed(sums[texel * 3 + 1]),
                                             fromFixed(sums[texel * 3 + 2])) / scale;
    return histogram;
}

double ebpiHistogramScale(double size) { return gpu::ebpiHistogramScaleOf(size); }

double ebpiDirectionCost(const EbpiNormalHistogram& histogram, const glm::dmat3& axes) {
    return gpu::ebpiAxesCost(moments(histogram), axes);
}

glm::dvec3 ebpiDirectionCostGradient(const EbpiNormalHistogram& histogram, const glm::dmat3& axes) {
    return gpu::ebpiAxesCostGradient(moments(histogram), axes);
}

glm::dmat3 ebpiOptimizeDirections(const EbpiNormalHistogram& histogram, const glm::dmat3& start, uint32_t restarts) {
    const NormalisedHistogram h = normalised(histogram);
    return gpu::ebpiLeanOffFaces(h.moments, h.lean, gpu::ebpiMinimizeAxes(h.moments, start, restarts), start);
}

double ebpiSmallestFaceLean(const EbpiNormalHistogram& histogram, const glm::dmat3& axes) {
    return gpu::ebpiSmallestLean(normalised(histogram).lean, axes);
}

}  // namespace vkc
