// Vertex-in-volume (paper 2, §3.3b): points (an object's vertices, read in place from its vertex
// buffer, or a caller's particle buffer) are mapped into an LDI tile and tested against its inside
// intervals. Inside points are counted exactly (per pair side) and listed up to the capacity as
// (tag, point index). Points outside the tile's footprint or depth range are outside; a truncated
// LDI tests nothing (the host reports the pair truncated). One thread per point; the test
// (push.pointTest) and its indirect dispatch were written by the host or by ldi_pair_setup.comp.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ldi_compute.glsl"
#include "vertex_fetch.glsl"

layout(local_size_x = kLdiGroupSize) in;

void main() {
    uint index = ldiThreadIndex();
    LdiPointTestGpu test = pointTests[push.pointTest];
    if (index >= test.points.count || stats[test.tile].layers > push.layerCap) return;
    vec3 texel = (test.pointToTexel * vec4(fetchVertex(test.points, index), 1.0)).xyz;
    // The footprint is closed, as in the CPU reference: a point on its far sides (a vertex on its
    // own box, which a VoI face lies on) belongs to the last pixel.
    if (!(texel.x >= 0.0 && texel.y >= 0.0 && texel.x <= float(push.resolution) && texel.y <= float(push.resolution)))
        return;
    if (!(texel.z >= 0.0 && texel.z <= 1.0)) return;
    uint pixel = min(uint(texel.y), push.resolution - 1u) * push.resolution + min(uint(texel.x), push.resolution - 1u);
    if (!insideAt(test.tile, pixel, texel.z)) return;
    uint pair = test.tag >> 1;
    if ((test.tag & kLdiSideB) != 0u)
        atomicAdd(pairResults[pair].insideB, 1u);
    else
        atomicAdd(pairResults[pair].insideA, 1u);
    uint slot = atomicAdd(insideHeader.count, 1u);
    if (slot < insideHeader.capacity) inside[slot] = uvec2(test.tag, index);
}
