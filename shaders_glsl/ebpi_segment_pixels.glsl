// GLSL only: the conservative segment rasterization of collision/ebpi/ebpi_segment_pixels.cpp
// (ebpiSegmentTouchesRect, ebpiClippedExtent, the pixel rectangles of ebpiTileRect), the same
// double operations in the same order, without FMA contraction, so the GPU touches exactly the
// pixels the CPU reference does.
#ifndef VKC_EBPI_SEGMENT_PIXELS_GLSL
#define VKC_EBPI_SEGMENT_PIXELS_GLSL

#include "shared/ebpi_image.h"

// Lower corner of pixel (x, y) of `view`; the upper one is this + the pixel size.
dvec2 ebpiPixelMin(EbpiViewGpu view, uint x, uint y) {
    dvec2 pixel = dvec2(view.pixelX, view.pixelY);
    precise dvec2 lo = dvec2(view.originX, view.originY) + dvec2(double(x), double(y)) * pixel;
    return lo;
}

// Liang-Barsky: [t0, t1], the parameters of [a, b] inside the closed rectangle [lo, hi]; false
// as soon as the segment misses it.
bool ebpiClipSegment(dvec2 a, dvec2 b, dvec2 lo, dvec2 hi, out double t0, out double t1) {
    precise dvec2 d = b - a;
    t0 = 0.0LF;
    t1 = 1.0LF;
    for (int axis = 0; axis < 2; ++axis) {
        if (d[axis] == 0.0LF) {
            if (a[axis] < lo[axis] || a[axis] > hi[axis]) return false;
            continue;
        }
        precise double enter = (lo[axis] - a[axis]) / d[axis];
        precise double leave = (hi[axis] - a[axis]) / d[axis];
        if (enter > leave) {
            double swapped = enter;
            enter = leave;
            leave = swapped;
        }
        t0 = max(t0, enter);
        t1 = min(t1, leave);
        if (t0 > t1) return false;
    }
    return true;
}

// Whether the closed segment [a, b] meets the closed rectangle [lo0, hi0] widened by 1e-9 of its size.
bool ebpiSegmentTouchesRect(dvec2 a, dvec2 b, dvec2 lo0, dvec2 hi0) {
    precise dvec2 slack = (hi0 - lo0) * 1e-9LF;
    precise dvec2 lo = lo0 - slack;
    precise dvec2 hi = hi0 + slack;
    double t0, t1;
    return ebpiClipSegment(a, b, lo, hi, t0, t1);
}

// |dx|, |dy| of the part of [a, b] inside the closed rectangle [lo, hi].
dvec2 ebpiClippedExtent(dvec2 a, dvec2 b, dvec2 lo, dvec2 hi) {
    double t0, t1;
    if (!ebpiClipSegment(a, b, lo, hi, t0, t1)) return dvec2(0.0LF);
    precise dvec2 extent = abs(b - a) * (t1 - t0);
    return t0 < t1 ? extent : dvec2(0.0LF);
}
#endif
