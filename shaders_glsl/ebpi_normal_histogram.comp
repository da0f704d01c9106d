// Method `ebpi` (paper 5, Sec. 4.4): each tested pair's area-weighted normal histogram (the Extended
// Gaussian Image) from both meshes' triangles as drawn, placed relative to the pair's origin: each
// triangle's area x normal (ebpiAreaNormal) rounded to whole quanta of 1 / histogramScale per
// component and added to its texel (ebpiNormalTexel) as a 64-bit integer from two 32-bit atomics
// with a carry, so the sums do not depend on the atomics' order. The CPU reference is
// ebpiPairNormalHistogram (collision/ebpi/ebpi_directions.cpp). The paper fills a cube map by
// rendering; a compute pass over the triangles needs no render target and bins exactly.
// Grid: y = pair, x = triangle of its two meshes, a's first (grid-stride).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/ebpi_directions.h"
#include "ebpi_ray_frame.glsl"
#include "signed_words.glsl"

layout(local_size_x = kEbpiDirectionsGroupSize) in;

layout(set = 0, binding = kEbpiDirectionBindingObjects, std430) readonly buffer Objects { ObjectGpu objects[]; };
layout(set = 0, binding = kEbpiDirectionBindingIndices, std430) readonly buffer Indices { uint indices[]; };
layout(set = 0, binding = kEbpiDirectionBindingPairs, std430) readonly buffer Pairs { EbpiDirectionPairGpu pairs[]; };
layout(set = 0, binding = kEbpiDirectionBindingHistogram, std430) buffer Histogram { uint words[]; };

layout(push_constant) uniform Push { EbpiDirectionPush push; };

void addQuanta(uint word, double q) {
    uvec2 w = signedWords(q);
    if (w.x != 0u) {
        uint before = atomicAdd(words[word], w.x);
        if (before + w.x < before) w.y += 1u;
    }
    if (w.y != 0u) atomicAdd(words[word + 1u], w.y);
}

void main() {
    uint p = gl_WorkGroupID.y;
    if (p >= push.pairCount) return;
    EbpiDirectionPairGpu pair = pairs[p];
    uint triangles = pair.trianglesA + pair.trianglesB;
    uint stride = gl_NumWorkGroups.x * kEbpiDirectionsGroupSize;
    for (uint t = gl_GlobalInvocationID.x; t < triangles; t += stride) {
        bool ofA = t < pair.trianglesA;
        ObjectGpu object = objects[ofA ? pair.objectA : pair.objectB];
        uint first = ofA ? pair.firstIndexA + 3u * t : pair.firstIndexB + 3u * (t - pair.trianglesA);
        dvec3 areaNormal =
            ebpiAreaNormal(ebpiLocalPoint(object.objectToLocal, fetchVertex(object.vertices, indices[first])),
                           ebpiLocalPoint(object.objectToLocal, fetchVertex(object.vertices, indices[first + 1u])),
                           ebpiLocalPoint(object.objectToLocal, fetchVertex(object.vertices, indices[first + 2u])));
        if (ebpiDot(areaNormal, areaNormal) == 0.0LF) continue;
        uint base = p * kEbpiHistogramWords + 6u * ebpiNormalTexel(areaNormal);
        for (uint k = 0u; k < 3u; ++k) {
            double q = ebpiHistogramQuanta(areaNormal[k], pair.histogramScale);
            if (q != 0.0LF) addQuanta(base + 2u * k, q);
        }
    }
}
