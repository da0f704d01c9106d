// GLSL only: a view's tile index -> (level, x, y) of its pyramid (numbering: shared/ebpi_rays.h), and
// the EBPI's 64-bit channels decoded.
#ifndef VKC_EBPI_RAY_TILES_GLSL
#define VKC_EBPI_RAY_TILES_GLSL

#include "shared/ebpi_rays.h"

struct EbpiTileAt {
    uint level;
    uint x;
    uint y;
    uint levelWidth;  // texels of its level per row
    uint cols;        // pixels it covers (cut at the window's edge)
    uint rows;
};

// Tiles of all levels of a W x H view.
uint ebpiTileCount(uint width, uint height, uint levels) {
    uint tiles = 0u;
    for (uint k = 0u; k < levels; ++k) tiles += ebpiLevelSize(width, k) * ebpiLevelSize(height, k);
    return tiles;
}

EbpiTileAt ebpiTileAt(uint width, uint height, uint levels, uint tile) {
    EbpiTileAt at;
    at.level = 0u;
    for (uint k = 0u; k < levels; ++k) {
        uint count = ebpiLevelSize(width, k) * ebpiLevelSize(height, k);
        if (tile < count) {
            at.level = k;
            break;
        }
        tile -= count;
    }
    at.levelWidth = ebpiLevelSize(width, at.level);
    at.x = tile % at.levelWidth;
    at.y = tile / at.levelWidth;
    at.cols = min(1u << at.level, width - (at.x << at.level));
    at.rows = min(1u << at.level, height - (at.y << at.level));
    return at;
}

// First tile index (in the view) of level k.
uint ebpiLevelFirst(uint width, uint height, uint level) {
    return ebpiTileCount(width, height, level);
}

// Five channels as 64-bit (low, high) word pairs, decoded with the view's scales from `firstChannel`.
EbpiRayPolynomial ebpiDecodeChannels(uint words[10], EbpiViewGpu view, uint firstChannel) {
    double c[5];
    for (uint k = 0u; k < 5u; ++k)
        c[k] = ebpiCountToDouble(words[2u * k], words[2u * k + 1u]) / view.scales[firstChannel + k];
    return EbpiRayPolynomial(c[0], c[1], c[2], c[3], c[4]);
}

// A pixel's channels firstChannel .. firstChannel + 4 (0: touching, 5: alongX, 10: alongY).
EbpiRayPolynomial ebpiPixelChannels(EbpiPixelGpu pixel, EbpiViewGpu view, uint firstChannel) {
    uint words[10];
    for (uint w = 0u; w < 10u; ++w) words[w] = pixel.words[2u * firstChannel + w];
    return ebpiDecodeChannels(words, view, firstChannel);
}

#endif
