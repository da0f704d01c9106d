// Method `ebpi` (paper 5, Sec. 4.3): every tile writes its rays at the places the scan gave it (its
// view's first ray + its own first ray in the view): one per sub-tile (row-major), through the
// sub-tile's centre on the view's image plane, with the sub-tile's area beside it
// (EbpiRaySampleGpu) and, for the volume stage, with its view's pair and axis (EbpiVolumeRayGpu).
// A view whose pair the scan did not admit writes nothing. Same rays, bit for bit, as the CPU
// reference planEbpiRays + ebpiPlacedRay.
// Grid: y = view, x = tile of the view (grid-stride).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "ebpi_ray_tiles.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint kGroupSize = kEbpiRayGroupSize;

layout(set = 0, binding = kEbpiRayBindingViews, std430) readonly buffer Views { EbpiViewGpu views[]; };
layout(set = 0, binding = kEbpiRayBindingRayViews, std430) readonly buffer RayViews { EbpiRayViewGpu rayViews[]; };
layout(set = 0, binding = kEbpiRayBindingTiles, std430) readonly buffer Tiles { EbpiRayTileGpu tiles[]; };
layout(set = 0, binding = kEbpiRayBindingResults, std430) readonly buffer Results { EbpiRayViewResultGpu results[]; };
layout(set = 0, binding = kEbpiRayBindingRays, std430) writeonly buffer Rays { EbpiRayGpu rays[]; };
layout(set = 0, binding = kEbpiRayBindingRayTiles, std430) writeonly buffer Samples { EbpiRaySampleGpu samples[]; };
layout(set = 0, binding = kEbpiRayBindingVolumeRays, std430) writeonly buffer VolumeRays { EbpiVolumeRayGpu volumeRays[]; };

layout(push_constant) uniform Push { EbpiRayPush push; };

void main() {
    uint v = gl_WorkGroupID.y;
    if (v >= push.viewCount) return;
    EbpiViewGpu view = views[v];
    EbpiRayViewGpu plan = rayViews[v];
    uint tileCount = ebpiTileCount(view.width, view.height, plan.levels);
    uint viewFirstRay = results[v].firstRay;
    if (viewFirstRay == kEbpiRayNotCast) return;
    uint stride = gl_NumWorkGroups.x * kGroupSize;
    for (uint t = gl_GlobalInvocationID.x; t < tileCount; t += stride) {
        EbpiRayTileGpu tile = tiles[plan.firstTile + t];
        if (tile.rays == 0u) continue;
        EbpiTileAt at = ebpiTileAt(view.width, view.height, plan.levels, t);
        double area = ebpiSubTileArea(view.pixelX, view.pixelY, at.cols, at.rows, tile.nx, tile.ny);
        for (uint r = 0u; r < tile.rays; ++r) {
            uint index = viewFirstRay + tile.firstRay + r;
            uint i = r % tile.nx, j = r / tile.nx;
            double x = ebpiSubTileCentre(view.originX, view.pixelX, at.x << at.level, at.cols, i, tile.nx);
            double y = ebpiSubTileCentre(view.originY, view.pixelY, at.y << at.level, at.rows, j, tile.ny);
            rays[index] = ebpiPlacedRay(view, plan, x, y);
            samples[index] = EbpiRaySampleGpu(x, y, area, v, t);
            volumeRays[index] = EbpiVolumeRayGpu(area, plan.pair, plan.axis);
        }
    }
}
