// Method `ebpi` (paper 5, Sec. 4.3): the exclusive scan of the tiles' ray counts within each view
// (each tile's first ray in its view: rays are ordered by view, tile, sub-tile, never by atomic
// order), per view its rays, flags and achieved bound (quanta summed as integer-valued doubles:
// exact below 2^53, so the order of the additions does not matter), which pairs' rays are cast,
// and the totals with the consumer's dispatch arguments. One workgroup walks all tiles in chunks;
// the CPU reference is planEbpiRays (ebpi_ray_plan.cpp).
// Admission: the pairs (runs of views with the same EbpiRayViewGpu::pair) in order, each whose rays
// fit in what maxRays leaves; a pair that does not fit is skipped whole (its views' firstRay
// kEbpiRayNotCast) and later, smaller pairs still get theirs. One pair needing too many rays no
// longer takes the rest of the frame with it.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "ebpi_ray_tiles.glsl"

layout(local_size_x = kEbpiRayScanGroupSize) in;

layout(set = 0, binding = kEbpiRayBindingViews, std430) readonly buffer Views { EbpiViewGpu views[]; };
layout(set = 0, binding = kEbpiRayBindingRayViews, std430) readonly buffer RayViews { EbpiRayViewGpu rayViews[]; };
layout(set = 0, binding = kEbpiRayBindingImageStatus, std430) readonly buffer ImageStatus { uint imageOverflow[]; };
layout(set = 0, binding = kEbpiRayBindingTiles, std430) buffer Tiles { EbpiRayTileGpu tiles[]; };
layout(set = 0, binding = kEbpiRayBindingFlags, std430) readonly buffer Flags { uint flags[]; };
layout(set = 0, binding = kEbpiRayBindingResults, std430) buffer Results { EbpiRayViewResultGpu results[]; };
layout(set = 0, binding = kEbpiRayBindingCounters, std430) writeonly buffer Counters { EbpiRayCountersGpu counters; };

layout(push_constant) uniform Push { EbpiRayPush push; };

shared uint sRays[kEbpiRayScanGroupSize];
shared double sQuanta[kEbpiRayScanGroupSize];

void main() {
    uint lid = gl_LocalInvocationID.x;
    for (uint v = 0u; v < push.viewCount; ++v) {
        EbpiViewGpu view = views[v];
        EbpiRayViewGpu plan = rayViews[v];
        uint tileCount = ebpiTileCount(view.width, view.height, plan.levels);
        uint running = 0u;  // the view's rays before the current chunk, the same in every thread
        double quanta = 0.0LF;
        for (uint base = 0u; base < tileCount; base += kEbpiRayScanGroupSize) {
            uint t = plan.firstTile + base + lid;
            bool inside = base + lid < tileCount;
            EbpiRayTileGpu tile = EbpiRayTileGpu(0.0LF, 0u, 1u, 1u, 0u);
            if (inside) tile = tiles[t];  // not a ?: of a buffer struct: glslang emits an invalid store
            sRays[lid] = tile.rays;
            sQuanta[lid] = tile.rays != 0u ? ebpiBoundQuanta(tile.bound, plan.tolerance) : 0.0LF;
            barrier();
            for (uint offset = 1u; offset < kEbpiRayScanGroupSize; offset <<= 1u) {
                uint r = lid >= offset ? sRays[lid - offset] : 0u;
                double q = lid >= offset ? sQuanta[lid - offset] : 0.0LF;
                barrier();
                sRays[lid] += r;
                sQuanta[lid] += q;
                barrier();
            }
            if (inside) tiles[t].firstRay = running + sRays[lid] - tile.rays;
            running += sRays[kEbpiRayScanGroupSize - 1u];
            quanta = min(quanta + sQuanta[kEbpiRayScanGroupSize - 1u], kEbpiRayQuantaSaturated);
            barrier();
        }
        if (lid == 0u)
            results[v] = EbpiRayViewResultGpu(quanta, kEbpiRayNotCast, running,
                                              flags[v] | (imageOverflow[v] != 0u ? kEbpiRayFlagImageOverflow : 0u), 0u);
    }
    if (lid != 0u) return;
    // Totals saturate at 2^32 - 1: past maxRays either way.
    uint total = 0u, written = 0u;
    for (uint first = 0u; first < push.viewCount;) {
        uint end = first, rays = 0u;
        for (; end < push.viewCount && rayViews[end].pair == rayViews[first].pair; ++end)
            rays = ebpiSaturatingAdd(rays, results[end].rays);
        total = ebpiSaturatingAdd(total, rays);
        if (rays <= push.maxRays - written) {
            for (uint v = first; v < end; ++v) {
                results[v].firstRay = written;
                written += results[v].rays;
            }
        }
        first = end;
    }
    counters = EbpiRayCountersGpu(min((written + kEbpiRayGroupSize - 1u) / kEbpiRayGroupSize, kEbpiRayMaxGroups), 1u, 1u, total,
                                  written, written < total ? 1u : 0u, 0u, 0u);
}
