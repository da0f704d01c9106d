// Method `ebpi`: a view fitted to its direction, for the GPU (ebpi_directions.comp, once it has
// chosen the pair's axes) and the CPU reference (collision/ebpi/ebpi_pair_views.cpp), which compile
// this same text so that both round alike. The window is the pair's overlap box seen along the
// direction (the intersection lies inside it), grown by a margin, with square pixels and
// `resolution` of them along its longer side; the rays span both boxes' depth (so every ray meets
// each object's whole surface and its hits pair up); the fixed-point scales and the pyramid
// follow from the window. Boxes are in the pair's coordinates (relative to its origin).
#ifndef VKC_SHARED_EBPI_VIEW_FIT_H
#define VKC_SHARED_EBPI_VIEW_FIT_H

#include "ebpi_directions.h"
#include "ebpi_rays.h"

VKC_NAMESPACE_BEGIN
#ifdef __cplusplus
using std::ceil;
#endif

// What a margin adds to each side of a box lo..hi: 1e-3 of its size and 1e-6 of its coordinates'
// magnitude (a float's worth), so that no surface lies on a window's border or a ray's ends.
VKC_INLINE double ebpiWidening(dvec3 lo, dvec3 hi) {
    VKC_PRECISE dvec3 d = dvec3(hi.x - lo.x, hi.y - lo.y, hi.z - lo.z);
    VKC_PRECISE double size = sqrt(ebpiDot(d, d));
    VKC_PRECISE double magnitude = max(sqrt(ebpiDot(lo, lo)), sqrt(ebpiDot(hi, hi)));
    VKC_PRECISE double grow = size / double(1000.0) + magnitude / double(1000000.0);
    return grow;
}

// The box lo..hi seen in the frame of rows u, v, d: the smallest and largest coordinates of its corners.
VKC_INLINE void ebpiRotatedBox(dvec3 lo, dvec3 hi, dvec3 u, dvec3 v, dvec3 d, VKC_INOUT(dvec3) outLo,
                               VKC_INOUT(dvec3) outHi) {
    for (uint k = 0u; k < 8u; ++k) {
        dvec3 p = dvec3((k & 1u) != 0u ? hi.x : lo.x, (k & 2u) != 0u ? hi.y : lo.y, (k & 4u) != 0u ? hi.z : lo.z);
        dvec3 q = dvec3(ebpiDot(u, p), ebpiDot(v, p), ebpiDot(d, p));
        outLo = k == 0u ? q : dvec3(min(outLo.x, q.x), min(outLo.y, q.y), min(outLo.z, q.z));
        outHi = k == 0u ? q : dvec3(max(outHi.x, q.x), max(outHi.y, q.y), max(outHi.z, q.z));
    }
}

struct EbpiViewFit {
    double originX;  // ray-frame x, y of pixel (0, 0)'s lower corner
    double originY;
    double pixel;    // square pixels
    double zMin;     // the rays' depth range
    double zMax;
    uint width;      // pixels, each at most the resolution
    uint height;
};

VKC_INLINE EbpiViewFit ebpiFitView(dvec3 u, dvec3 v, dvec3 d, dvec3 overlapLo, dvec3 overlapHi, dvec3 unionLo,
                                   dvec3 unionHi, uint resolution) {
    dvec3 lo = dvec3(0.0), hi = dvec3(0.0);
    ebpiRotatedBox(overlapLo, overlapHi, u, v, d, lo, hi);
    VKC_PRECISE double grow = ebpiWidening(lo, hi);
    VKC_PRECISE double loX = lo.x - grow;
    VKC_PRECISE double loY = lo.y - grow;
    VKC_PRECISE double sizeX = (hi.x + grow) - loX;
    VKC_PRECISE double sizeY = (hi.y + grow) - loY;
    EbpiViewFit fit;
    fit.pixel = max(sizeX, sizeY) / double(resolution);
    fit.width = uint(min(max(ceil(sizeX / fit.pixel), double(1.0)), double(resolution)));
    fit.height = uint(min(max(ceil(sizeY / fit.pixel), double(1.0)), double(resolution)));
    // Centred: the pixels cover the grown window whole.
    VKC_PRECISE double originX = loX - 0.5 * (double(fit.width) * fit.pixel - sizeX);
    VKC_PRECISE double originY = loY - 0.5 * (double(fit.height) * fit.pixel - sizeY);
    fit.originX = originX;
    fit.originY = originY;
    ebpiRotatedBox(unionLo, unionHi, u, v, d, lo, hi);
    VKC_PRECISE double deepen = ebpiWidening(lo, hi);
    VKC_PRECISE double zMin = lo.z - deepen;
    VKC_PRECISE double zMax = hi.z + deepen;
    fit.zMin = zMin;
    fit.zMax = zMax;
    return fit;
}

// Quanta per unit of EBPI channel c (ebpi_fixed_point.h) for pixels of w x h: the smallest power of
// two >= the channel's monomial at the pixel's size (times l_x <= w or l_y <= h for channels 5-14)
// over a quantum of 2^-32 of the pixel's cube.
VKC_INLINE double ebpiChannelScale(double w, double h, uint channel) {
    uint monomial = channel % 5u;
    VKC_PRECISE double value = monomial == 0u ? (w * w) * h
                               : monomial == 1u ? (w * h) * h
                               : monomial == 2u ? (h * h) * h
                               : monomial == 3u ? (w * w) * w
                                                : w * h;
    VKC_PRECISE double along = channel < 5u ? double(1.0) : (channel < 10u ? w : h);
    VKC_PRECISE double side = max(w, h);
    VKC_PRECISE double quantum = ldexp((side * side) * side, -32);
    VKC_PRECISE double ratio = (value * along) / quantum;
    int exponent = 0;
#ifdef __cplusplus
    double mantissa = std::frexp(ratio, &exponent);
#else
    double mantissa = frexp(ratio, exponent);
#endif
    return ldexp(double(1.0), mantissa == 0.5 ? exponent - 1 : exponent);
}

// Levels of the pyramid of a W x H image, the pixels included: the top level is one tile.
VKC_INLINE uint ebpiPyramidLevelCount(uint width, uint height) {
    uint levels = 1u;
    while (ebpiLevelSize(max(width, height), levels - 1u) > 1u) ++levels;
    return levels;
}

// How far the float hits and ray ends may move a view's estimate: each rounds by at most 2^-24 of
// the ray's length and of the coordinates' magnitude, a ray's inside length has two ends per
// interval (at most hitCapacity of them) and the rays tile the window.
VKC_INLINE double ebpiFloatRoundingBound(EbpiViewFit fit, uint hitCapacity) {
    VKC_PRECISE double area = (fit.pixel * double(fit.width)) * (fit.pixel * double(fit.height));
    VKC_PRECISE double magnitude = max(abs(fit.zMin), abs(fit.zMax)) + (fit.zMax - fit.zMin);
    VKC_PRECISE double bound = (area * double(hitCapacity)) * ldexp(magnitude, -23);
    return bound;
}

VKC_NAMESPACE_END

#endif
