// GLSL only: what the consistent-pairs fragment stages share (paper 3, sections 4.1-4.3): the
// front layers, the world position from the vertex stage, and the helpers. Included after
// consistent_pairs_sets.h.
//
// Front layers are texels (depth bits, object + 1, packed normal, 0) in a 2D array image; the
// window of one iteration is layers windowBase .. windowBase + layerCount - 1, at array slot
// index % layerCount.
#ifndef VKC_SHARED_CONSISTENT_PAIRS_FRAGMENT_H
#define VKC_SHARED_CONSISTENT_PAIRS_FRAGMENT_H

layout(set = 1, binding = kConsistentPairsBindingLayers, rgba32ui) readonly uniform uimage2DArray layers;

layout(location = 0) in vec3 inWorld;
layout(location = 1) flat in uint inObject;  // the object drawn

uint layerSlot(uint globalLayer) { return globalLayer % frame.layerCount; }

uvec4 windowLayer(uint k, ivec2 pixel) {
    return imageLoad(layers, ivec3(pixel, int(layerSlot(push.windowBase + k))));
}

// Index in the window of the deepest front face strictly in front of depth z (-1: none). Layers are
// depth-ordered and empty ones come last, so the scan stops at the first that is not in front.
int nearestFront(ivec2 pixel, float z, out uvec4 texel) {
    int found = -1;
    texel = uvec4(0u);
    for (uint k = 0u; k < frame.layerCount; ++k) {
        uvec4 t = windowLayer(k, pixel);
        if (t.y == kConsistentPairsNoObject || uintBitsToFloat(t.x) >= z) break;
        found = int(k);
        texel = t;
    }
    return found;
}

// A back face belongs to this window when its nearest front face is one of the window's own layers:
// all but the last, which starts the next window (paper section 5).
bool ownedSlot(int k) { return k >= 0 && uint(k) + 1u < frame.layerCount; }

vec3 pixelWorld(vec2 fragCoord, float depth) {
    vec2 ndc = fragCoord / float(frame.resolution) * 2.0 - 1.0;
    vec4 world = clipToWorld() * vec4(ndc, depth, 1.0);
    return world.xyz / world.w;
}

// The outward world normal of the triangle hit: the world position is linear across the triangle,
// so its screen derivatives span the triangle's plane. A front face's outward normal points against
// the rays, a back face's along them. Call in uniform control flow (before any discard).
vec3 triangleNormal() {
    vec3 n = cross(dFdx(inWorld), dFdy(inWorld));
    if (dot(n, n) == 0.0) return vec3(0.0);
    n = normalize(n);
    vec3 ray = (clipToWorld() * vec4(0.0, 0.0, 1.0, 0.0)).xyz;
    return (dot(n, ray) < 0.0) == gl_FrontFacing ? n : -n;
}

// Unit normals as two 16-bit octahedral coordinates (about 1e-4 radians), one uint per texel.
uint packNormal(vec3 n) {
    vec2 p = n.xy / (abs(n.x) + abs(n.y) + abs(n.z) + 1e-30);
    if (n.z < 0.0) p = (1.0 - abs(p.yx)) * vec2(p.x >= 0.0 ? 1.0 : -1.0, p.y >= 0.0 ? 1.0 : -1.0);
    return packSnorm2x16(p);
}

vec3 unpackNormal(uint packed) {
    vec2 p = unpackSnorm2x16(packed);
    vec3 n = vec3(p, 1.0 - abs(p.x) - abs(p.y));
    if (n.z < 0.0) n.xy = (1.0 - abs(n.yx)) * vec2(n.x >= 0.0 ? 1.0 : -1.0, n.y >= 0.0 ? 1.0 : -1.0);
    return normalize(n);
}

#endif
