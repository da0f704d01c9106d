// Method `ebpi` (paper 5, Sec. 4.4, Eq. 12): each tested pair's three ray directions from its normal
// histogram (ebpi_normal_histogram.comp): the texels normalised by the sum of their lengths, their
// fourth moments, and Eq. 12 minimised from the pair's start axes (ebpiMinimizeAxes, shared/
// ebpi_directions.h), turned off any significant face it left parallel to a ray (ebpiLeanOffFaces); then the pair's three views fitted to their directions (ebpiRotationRows,
// ebpiFitView: rotation, window, fixed-point scales, depth range, pyramid levels, the rounding
// reserve), which every later pass of the frame reads, and the axes for the read-back (the next
// frame's warm start). The CPU reference is ebpiOptimizeDirections of ebpiPairNormalHistogram
// (collision/ebpi/ebpi_directions.h) and ebpiPairViews (ebpi_pair_views.h), bit for bit.
// Grid: one thread per pair.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/ebpi_view_fit.h"

layout(local_size_x = kEbpiDirectionsGroupSize) in;

layout(set = 0, binding = kEbpiDirectionBindingPairs, std430) readonly buffer Pairs { EbpiDirectionPairGpu pairs[]; };
layout(set = 0, binding = kEbpiDirectionBindingHistogram, std430) readonly buffer Histogram { uint words[]; };
layout(set = 0, binding = kEbpiDirectionBindingViews, std430) buffer Views { EbpiViewGpu views[]; };
layout(set = 0, binding = kEbpiDirectionBindingAxes, std430) writeonly buffer Axes { double axes[]; };
layout(set = 0, binding = kEbpiDirectionBindingRayViews, std430) buffer RayViews { EbpiRayViewGpu rayViews[]; };

layout(push_constant) uniform Push { EbpiDirectionPush push; };

// A texel's component: its 64-bit sum, in area units.
double component(uint word, double scale) {
    precise double sum = double(int(words[word + 1u])) * 4294967296.0LF + double(words[word]);
    return sum / scale;
}

dvec3 texel(uint p, uint t, double scale) {
    uint base = p * kEbpiHistogramWords + 6u * t;
    return dvec3(component(base, scale), component(base + 2u, scale), component(base + 4u, scale));
}

void main() {
    uint p = gl_GlobalInvocationID.x;
    if (p >= push.pairCount) return;
    EbpiDirectionPairGpu pair = pairs[p];
    if (pair.inUse == 0u) return;  // an empty slot: its views stay empty (ebpi_pair_setup.comp)
    dmat3 result = dmat3(dvec3(pair.start[0], pair.start[1], pair.start[2]),
                         dvec3(pair.start[3], pair.start[4], pair.start[5]),
                         dvec3(pair.start[6], pair.start[7], pair.start[8]));
    if (pair.optimize != 0u) {
        double total = 0.0LF;
        for (uint t = 0u; t < kEbpiHistogramTexels; ++t) {
            dvec3 n = texel(p, t, pair.histogramScale);
            precise double sum = total + sqrt(ebpiDot(n, n));
            total = sum;
        }
        EbpiMoments moments;
        for (uint k = 0u; k < 15u; ++k) moments.m[k] = 0.0LF;
        EbpiLeanTexels lean;
        lean.count = 0u;
        if (total > 0.0LF)
            for (uint t = 0u; t < kEbpiHistogramTexels; ++t) {
                dvec3 n = texel(p, t, pair.histogramScale);
                precise dvec3 normalised = dvec3(n.x / total, n.y / total, n.z / total);
                ebpiAddMoments(moments, normalised);
                ebpiAddLeanTexel(lean, normalised);
            }
        dmat3 start = result;
        result = ebpiLeanOffFaces(moments, lean, ebpiMinimizeAxes(moments, result, kEbpiDirectionRestarts), start);
    }
    for (uint axis = 0u; axis < 3u; ++axis) {
        for (uint k = 0u; k < 3u; ++k) axes[9u * p + 3u * axis + k] = result[axis][k];
        dvec3 u, v, d;
        ebpiRotationRows(result[axis], u, v, d);
        uint view = pair.firstView + axis;
        for (uint k = 0u; k < 3u; ++k) {
            views[view].rotation[k] = u[k];
            views[view].rotation[3u + k] = v[k];
            views[view].rotation[6u + k] = d[k];
        }
        EbpiViewFit fit = ebpiFitView(u, v, d, dvec3(pair.overlapLo[0], pair.overlapLo[1], pair.overlapLo[2]),
                                      dvec3(pair.overlapHi[0], pair.overlapHi[1], pair.overlapHi[2]),
                                      dvec3(pair.unionLo[0], pair.unionLo[1], pair.unionLo[2]),
                                      dvec3(pair.unionHi[0], pair.unionHi[1], pair.unionHi[2]), pair.resolution);
        views[view].originX = fit.originX;
        views[view].originY = fit.originY;
        views[view].pixelX = fit.pixel;
        views[view].pixelY = fit.pixel;
        for (uint c = 0u; c < kEbpiPixelChannels; ++c) views[view].scales[c] = ebpiChannelScale(fit.pixel, fit.pixel, c);
        views[view].width = fit.width;
        views[view].height = fit.height;
        rayViews[view].zMin = fit.zMin;
        rayViews[view].zMax = fit.zMax;
        rayViews[view].levels = ebpiPyramidLevelCount(fit.width, fit.height);
        precise double reserved = pair.fixedReserve + ebpiFloatRoundingBound(fit, pair.hitCapacity);
        rayViews[view].reserved = reserved;
    }
}
