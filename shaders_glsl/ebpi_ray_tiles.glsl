// GLSL only: a view's tile index -> (level, x, y) of its pyramid (numbering: shared/ebpi_rays.h).
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

#endif
