// GLSL only: one edge term added into every pixel of its view that its closed projected segment
// touches (a corner included), as buildEbpiFixedImage (collision/ebpi/ebpi_fixed_point.cpp) does:
// three five-term polynomials per pixel (touching, times l_x, times l_y), each contribution rounded
// up to whole quanta of its channel. The sums are 64-bit integers built from two 32-bit atomic adds
// with a carry: integer addition does not depend on the order, so the image is bit-identical
// between runs and to the CPU's, and no 64-bit atomics are needed. A contribution of 2^62 quanta
// or more, or a sum reaching 2^63, sets `overflowed` instead of wrapping unseen.
// Declares the pixel and overflow-flag bindings; shared by ebpi_edge_terms.comp (mesh edges) and
// ebpi_transient_terms.comp (the surfaces' crossings).
#ifndef VKC_EBPI_TERM_RASTER_GLSL
#define VKC_EBPI_TERM_RASTER_GLSL

#include "ebpi_segment_pixels.glsl"

layout(set = 0, binding = kEbpiImageBindingPixels, std430) buffer Pixels { EbpiPixelGpu pixels[]; };
layout(set = 0, binding = kEbpiImageBindingStatus, std430) buffer Status { uint overflow[]; };

const double kTwo32 = 4294967296.0LF;
const double kContributionLimit = 4611686018427387904.0LF;  // 2^62 quanta

// Adds `value` x `scale`, rounded up to whole quanta (ebpiQuanta), to channel k of pixel p.
void addQuanta(uint p, uint k, double value, double scale, inout bool overflowed) {
    precise double quanta = ceil(value * scale);
    if (!(quanta < kContributionLimit)) {
        overflowed = true;
        return;
    }
    // Exact: quanta is an integer below 2^62, and 2^32 splits it without rounding.
    uint high = uint(floor(quanta / kTwo32));
    uint low = uint(quanta - double(high) * kTwo32);
    if (low != 0u) {
        uint before = atomicAdd(pixels[p].words[2u * k], low);
        if (before + low < before) ++high;  // the low word wrapped: carry
    }
    if (high != 0u) {
        uint before = atomicAdd(pixels[p].words[2u * k + 1u], high);
        // The 64-bit sum reached 2^63 (its high word 2^31): the add that crossed it sees it.
        if (before + high >= 0x80000000u || before + high < before) overflowed = true;
    }
}

// Adds `term` into the pixels of `view` its segment touches; a term whose bound at w = h = 1 is not
// positive adds nothing (the CPU keeps the same terms).
void ebpiRasterizeTerm(EbpiViewGpu view, EbpiEdgeTermGpu term, inout bool overflowed) {
    dvec2 origin = dvec2(view.originX, view.originY);
    dvec2 pixel = dvec2(view.pixelX, view.pixelY);
    // The CPU keeps terms whose bound at w = h = 1 is positive (the same sum, in the same order).
    precise double atUnit = (((term.bound[0] + term.bound[1]) + term.bound[2]) + term.bound[3]) + term.bound[4];
    if (!(atUnit > 0.0LF)) return;
    dvec2 a = dvec2(term.ax, term.ay);
    dvec2 b = dvec2(term.bx, term.by);
    // ebpiPixelsTouched's candidates: the segment's bounding box, one pixel wider, clamped.
    precise dvec2 lo = floor((min(a, b) - origin) / pixel) - 1.0LF;
    precise dvec2 hi = floor((max(a, b) - origin) / pixel) + 1.0LF;
    int x0 = int(clamp(lo.x, 0.0LF, double(view.width)));
    int y0 = int(clamp(lo.y, 0.0LF, double(view.height)));
    int x1 = int(clamp(hi.x, -1.0LF, double(view.width) - 1.0LF));
    int y1 = int(clamp(hi.y, -1.0LF, double(view.height) - 1.0LF));
    precise dvec2 d = b - a;
    for (int y = y0; y <= y1; ++y) {
        // Columns worth testing in this row: where the segment runs within a whole pixel of the
        // row (far beyond the touch test's 1e-9 slack and any rounding), one column wider.
        precise double rowLo = origin.y + double(y) * pixel.y - pixel.y;
        precise double rowHi = rowLo + 3.0LF * pixel.y;
        double t0 = 0.0LF, t1 = 1.0LF;
        if (d.y != 0.0LF) {
            precise double enter = (rowLo - a.y) / d.y;
            precise double leave = (rowHi - a.y) / d.y;
            t0 = max(t0, min(enter, leave));
            t1 = min(t1, max(enter, leave));
            if (t0 > t1) continue;
        }
        precise double xs = a.x + d.x * t0;
        precise double xe = a.x + d.x * t1;
        int c0 = max(x0, int(clamp(floor((min(xs, xe) - origin.x) / pixel.x) - 1.0LF, -1.0LF, double(view.width))));
        int c1 = min(x1, int(clamp(floor((max(xs, xe) - origin.x) / pixel.x) + 1.0LF, -1.0LF, double(view.width))));
        for (int x = c0; x <= c1; ++x) {
            dvec2 pixelLo = ebpiPixelMin(view, uint(x), uint(y));
            precise dvec2 pixelHi = pixelLo + pixel;
            if (!ebpiSegmentTouchesRect(a, b, pixelLo, pixelHi)) continue;
            dvec2 extent = ebpiClippedExtent(a, b, pixelLo, pixelHi);
            uint p = view.firstPixel + uint(y) * view.width + uint(x);
            atomicAdd(pixels[p].edges, 1u);
            for (uint k = 0u; k < 5u; ++k) {
                precise double alongX = term.bound[k] * extent.x;
                precise double alongY = term.bound[k] * extent.y;
                addQuanta(p, k, term.bound[k], view.scales[k], overflowed);
                addQuanta(p, k + 5u, alongX, view.scales[k + 5u], overflowed);
                addQuanta(p, k + 10u, alongY, view.scales[k + 10u], overflowed);
            }
        }
    }
}
#endif
