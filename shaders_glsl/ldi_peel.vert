// Depth peeling draws (paper 2, §3.2/§4): one object's triangles, read from its vertex buffer in
// place through the frame's index buffer (gl_VertexIndex is the mesh-local vertex), projected
// orthographically into its LDI tile (the VoI's clip space; the viewport places the tile).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/ldi.h"
#include "vertex_fetch.glsl"

layout(set = 0, binding = kLdiBindingTiles, std430) readonly buffer Tiles { LdiTileGpu tiles[]; };

layout(push_constant) uniform Push { LdiDrawPush push; };

// Every peeling pass must rasterize the same fragments, in the same order, at the same depths.
invariant gl_Position;

void main() {
    LdiTileGpu tile = tiles[push.tile];
    vec4 clip = tile.objectToClip * vec4(fetchVertex(tile.vertices, uint(gl_VertexIndex)), 1.0);
    // Snap x, y to the rasterizer's 1/256 sub-pixel grid here, so that depth is interpolated over the
    // snapped triangle, as in the CPU reference: a rasterizer may snap only the coverage and
    // evaluate z on the unsnapped plane, which near silhouettes can swap two close crossings.
    // Orthographic (w = 1) and tile origins on whole pixels: snapping tile coordinates is enough.
    float steps = float(push.resolution) * float(kLdiSubpixelSteps) * 0.5;
    clip.xy = round((clip.xy + 1.0) * steps) / steps - 1.0;
    gl_Position = clip;
}
