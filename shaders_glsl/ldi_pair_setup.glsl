// Method `ldi`, GPU-driven: the frame's tested pairs and every table the passes read, from the
// same frame's broadphase candidates (paper 2 §3.1 done where the boxes are: the CPU never sees
// them), in two steps around the pair selection (shared/pair_selection.h):
//   verdicts (a thread per candidate, many workgroups): open when an object is not a closed solid,
//     accepted when the pair has a VoI with a volume between their boxes (as
//     collision/ldi/ldi_voi.cpp), rejected otherwise; the selection keeps the first maxPairs
//     accepted ones in (a, b) order, the order a host's sorted candidates give;
//   tables (one workgroup, a thread per slot): per selected pair the two LDI views
//     (collision/ldi/ldi_views.cpp), tiles 2p (a) and 2p + 1 (b) with their first draws and the
//     drawn-triangle bound's region (ldi_error_bound.cpp), the two vertex tests (§3.3b) with their
//     indirect dispatches, and the pair's info for results(). Unused slots draw, test and bound
//     nothing.
// The bindings and bodies of both steps: ldi_pair_verdicts.comp and ldi_pair_setup.comp, a shader
// each, so that a dispatch touches only the buffers its step does.
#include "shared/broadphase.h"
#include "shared/float_order.h"
#include "shared/ldi.h"
#include "shared/pair_selection.h"

layout(local_size_x = kLdiSetupGroupSize) in;

layout(set = 0, binding = kLdiSetupBindingBounds, std430) readonly buffer Bounds { uint bounds[]; };
layout(set = 0, binding = kLdiSetupBindingCandidates, std430) readonly buffer Candidates {
    PairListHeader candidateHeader;
    uvec2 candidates[];
};
layout(set = 0, binding = kLdiSetupBindingSceneObjects, std430) readonly buffer SceneObjects {
    LdiSceneObjectGpu sceneObjects[];
};
layout(set = 0, binding = kLdiSetupBindingParams, std430) readonly buffer Params { LdiSetupParamsGpu params; };
layout(set = 0, binding = kLdiSetupBindingTiles, std430) writeonly buffer Tiles { LdiTileGpu tiles[]; };
layout(set = 0, binding = kLdiSetupBindingPointTests, std430) writeonly buffer PointTests { LdiPointTestGpu pointTests[]; };
layout(set = 0, binding = kLdiSetupBindingPointDispatches, std430) writeonly buffer PointDispatches {
    uint pointDispatches[];  // VkDispatchIndirectCommand (3 uints) per test
};
layout(set = 0, binding = kLdiSetupBindingFirstDraws, std430) writeonly buffer FirstDraws {
    uint firstDraws[];  // VkDrawIndexedIndirectCommand (5 uints) per tile
};
layout(set = 0, binding = kLdiSetupBindingPairs, std430) writeonly buffer Pairs {
    LdiSetupStateGpu state;
    LdiPairInfoGpu pairs[];
};
layout(set = 0, binding = kLdiSetupBindingVerdicts, std430) writeonly buffer Verdicts { uint verdicts[]; };
layout(set = 0, binding = kLdiSetupBindingSelection, std430) readonly buffer Selection {
    PairSelectionStateGpu selection;
};
layout(set = 0, binding = kLdiSetupBindingSelectedPairs, std430) readonly buffer SelectedPairs { uvec2 selected[]; };

struct Voi {
    vec3 overlapLo, overlapHi, boxLo, boxHi;
    uint axis;
    bool aFromMin;
    bool extended;
};

struct View {
    dmat4 worldToTexel, worldToClip;
    float nearWorld, farWorld;
    bool entryIsFront;
};

float nextBelow(float f) {
    if (f == 0.0) return -uintBitsToFloat(1u);
    return uintBitsToFloat(f > 0.0 ? floatBitsToUint(f) - 1u : floatBitsToUint(f) + 1u);
}
float nextAbove(float f) { return -nextBelow(-f); }
// Whether double(f) lies above x, decided on the bits: lavapipe's compiler folds double(float(x))
// into x (even `precise`), so a floating-point comparison would always say no. A zero or
// subnormal f (no world box coordinate is that small) counts as above and below: nudged outward.
bool doubleAbove(float f, double x, bool above) {
    uint bits = floatBitsToUint(f), exponent = (bits >> 23) & 0xffu, mantissa = bits & 0x7fffffu;
    if (exponent == 0u) return true;
    uvec2 fd = uvec2(mantissa << 29, (bits & 0x80000000u) | ((exponent + 896u) << 20) | (mantissa >> 3));
    uvec2 xd = unpackDouble2x32(x);
    // Both as ordered keys (as encodeOrderedFloat, on 64 bits), compared high word first.
    uvec2 keys[2] = uvec2[2](fd, xd);
    for (uint k = 0u; k < 2u; ++k)
        keys[k] = (keys[k].y & 0x80000000u) != 0u ? ~keys[k] : uvec2(keys[k].x, keys[k].y | 0x80000000u);
    uvec2 hi = above ? keys[0] : keys[1], lo = above ? keys[1] : keys[0];
    return hi.y > lo.y || (hi.y == lo.y && hi.x > lo.x);
}
// As floatAtMost / floatAtLeast (collision/scene/object_transform.h): the box still contains what it bounded.
float floatAtMost(double x) {
    float f = float(x);
    return doubleAbove(f, x, true) ? nextBelow(f) : f;
}
float floatAtLeast(double x) {
    float f = float(x);
    return doubleAbove(f, x, false) ? nextAbove(f) : f;
}

// The object's world box from the candidates, rounded outward as BroadphaseResults::worldBounds.
void worldBox(uint object, out vec3 lo, out vec3 hi) {
    uint n = params.objectCount;
    for (uint k = 0u; k < 3u; ++k) {
        double origin = params.candidateOrigin[k];
        lo[k] = floatAtMost(double(decodeOrderedFloat(bounds[object * 3u + k])) + origin);
        hi[k] = floatAtLeast(double(decodeOrderedFloat(bounds[(n + object) * 3u + k])) + origin);
    }
}

// computeLdiVoi (collision/ldi/ldi_voi.cpp), operation for operation in float.
bool pairVoi(uint a, uint b, out Voi voi) {
    vec3 aLo, aHi, bLo, bHi;
    worldBox(a, aLo, aHi);
    worldBox(b, bLo, bHi);
    vec3 overlapLo, overlapHi;
    for (uint k = 0u; k < 3u; ++k) {
        if (!(aLo[k] <= aHi[k]) || !(bLo[k] <= bHi[k])) return false;
        overlapLo[k] = max(aLo[k], bLo[k]);
        overlapHi[k] = min(aHi[k], bHi[k]);
        if (!(overlapLo[k] < overlapHi[k])) return false;
    }
    bool found = false, bestExtended = true;
    float bestLength = 0.0;
    for (uint k = 0u; k < 3u; ++k)
        for (uint option = 0u; option < 2u; ++option) {
            bool aFromMin = option == 0u;
            float lo = aFromMin ? aLo[k] : bLo[k];
            float hi = aFromMin ? bHi[k] : aHi[k];
            bool extended = lo < overlapLo[k] || hi > overlapHi[k];
            precise float length = hi - lo;
            if (found && ((extended && !bestExtended) || (extended == bestExtended && length >= bestLength))) continue;
            voi.overlapLo = overlapLo;
            voi.overlapHi = overlapHi;
            voi.boxLo = overlapLo;
            voi.boxHi = overlapHi;
            voi.boxLo[k] = lo;
            voi.boxHi[k] = hi;
            voi.axis = k;
            voi.aFromMin = aFromMin;
            voi.extended = extended;
            found = true;
            bestExtended = extended;
            bestLength = length;
        }
    return found;
}

// ldiView (collision/ldi/ldi_views.cpp).
View ldiView(Voi voi, bool forA, out double pixelArea) {
    uint u = (voi.axis + 1u) % 3u, v = (voi.axis + 2u) % 3u, d = voi.axis;
    double res = double(params.resolution);
    bool fromMin = forA == voi.aFromMin;
    View view;
    precise float pad = 1e-5 * (voi.boxHi[d] - voi.boxLo[d]);
    precise float below = voi.boxLo[d] - pad;
    precise float above = voi.boxHi[d] + pad;
    view.nearWorld = fromMin ? below : above;
    view.farWorld = fromMin ? above : below;
    view.entryIsFront = fromMin;
    double width = double(voi.boxHi[u]) - double(voi.boxLo[u]), height = double(voi.boxHi[v]) - double(voi.boxLo[v]);
    double depth = double(view.farWorld) - double(view.nearWorld);
    pixelArea = (width / res) * (height / res);
    dmat4 texel = dmat4(0.0lf);
    texel[u][0] = res / width;
    texel[3][0] = -double(voi.boxLo[u]) * res / width;
    texel[v][1] = res / height;
    texel[3][1] = -double(voi.boxLo[v]) * res / height;
    texel[d][2] = 1.0lf / depth;
    texel[3][2] = -double(view.nearWorld) / depth;
    texel[3][3] = 1.0lf;
    view.worldToTexel = texel;
    dmat4 toClip = dmat4(1.0lf);
    toClip[0][0] = 2.0lf / res;
    toClip[1][1] = 2.0lf / res;
    toClip[3][0] = -1.0lf;
    toClip[3][1] = -1.0lf;
    view.worldToClip = toClip * texel;
    return view;
}

dmat4 objectToWorld(LdiSceneObjectGpu o) { return transpose(dmat4(o.row0, o.row1, o.row2, dvec4(0.0lf, 0.0lf, 0.0lf, 1.0lf))); }

// Step 0: a verdict per stored candidate (grid-stride: the list may outgrow one dispatch).
void writeVerdicts() {
    uint listed = min(candidateHeader.count, candidateHeader.capacity);
    for (uint i = gl_GlobalInvocationID.x; i < listed; i += gl_NumWorkGroups.x * kLdiSetupGroupSize) {
        uvec2 pair = candidates[i];
        Voi voi;
        if (sceneObjects[pair.x].closed == 0u || sceneObjects[pair.y].closed == 0u)
            verdicts[i] = kPairOpen;
        else
            verdicts[i] = pairVoi(pair.x, pair.y, voi) ? kPairAccepted : kPairRejected;
    }
}

// The selection's counts for results().
void writeState() {
    bool anyOpen = selection.open != 0u;
    state.activePairs = selection.selected;
    state.overlappingPairs = selection.accepted;
    state.openPairs = selection.open;
    state.firstOpenA = anyOpen ? selection.firstOpenA : 0u;
    state.firstOpenB = anyOpen ? selection.firstOpenB : 0u;
    state.listedPairs = candidateHeader.count;
    state.listCapacity = candidateHeader.capacity;
    state.unused = 0u;
}

void writeFirstDraw(uint tile, uint indexCount, uint firstIndex) {
    firstDraws[tile * 5u] = indexCount;
    firstDraws[tile * 5u + 1u] = indexCount == 0u ? 0u : 1u;
    firstDraws[tile * 5u + 2u] = firstIndex;
    firstDraws[tile * 5u + 3u] = 0u;  // vertexOffset: indices are mesh-local
    firstDraws[tile * 5u + 4u] = 0u;
}

// ldiDispatchGrid (passes/ldi/ldi_peel_passes.h): one thread per point, rows past maxGroupsX.
void writePointTest(uint test, LdiPointTestGpu pointTest) {
    pointTests[test] = pointTest;
    uint count = pointTest.points.count;
    uint groups = count / kLdiGroupSize + (count % kLdiGroupSize != 0u ? 1u : 0u);
    uint x = min(groups, params.maxGroupsX);
    pointDispatches[test * 3u] = x;
    pointDispatches[test * 3u + 1u] = x == 0u ? 0u : (groups + x - 1u) / x;
    pointDispatches[test * 3u + 2u] = 1u;
}

LdiTileGpu emptyTile(uint t) {
    LdiTileGpu tile;
    tile.objectToClip = mat4(1.0);
    tile.vertices = VertexSourceGpu(0u, 3u, 0u, 0u);
    tile.entryIsFront = 1u;
    tile.originX = (t % params.atlasColumns) * params.resolution;
    tile.originY = (t / params.atlasColumns) * params.resolution;
    tile.indexCount = 0u;
    tile.firstIndex = 0u;
    tile.nearWorld = 0.0;
    tile.farWorld = 1.0;
    tile.boundFromDrawn = 0u;
    tile.objectToLocal = mat4(1.0);
    tile.nearLo = vec4(0.0);
    tile.nearHi = vec4(0.0);
    return tile;
}

void writeEmptySlot(uint p) {
    for (uint side = 0u; side < 2u; ++side) {
        uint t = 2u * p + side;
        tiles[t] = emptyTile(t);
        writeFirstDraw(t, 0u, 0u);
        writePointTest(t, LdiPointTestGpu(mat4(1.0), VertexSourceGpu(0u, 3u, 0u, 0u), t ^ 1u, p << 1 | side, 0u, 0u));
    }
}

void writeSlot(uint p) {
    uvec2 pair = selected[params.maxPairs + p];  // the sorted half
    uint a = pair.x, b = pair.y;
    Voi voi;
    pairVoi(a, b, voi);  // accepted in step 0: the same boxes give the same VoI
    LdiSceneObjectGpu objects[2] = LdiSceneObjectGpu[2](sceneObjects[a], sceneObjects[b]);
    double pixelArea;
    View views[2] = View[2](ldiView(voi, true, pixelArea), ldiView(voi, false, pixelArea));

    // ldiDrawnBoundRegion (collision/ldi/ldi_error_bound.cpp): the CPU cannot bound what it never saw.
    uint u = (voi.axis + 1u) % 3u, v = (voi.axis + 2u) % 3u;
    double res = double(params.resolution);
    double pu = (double(voi.boxHi[u]) - double(voi.boxLo[u])) / res;
    double pv = (double(voi.boxHi[v]) - double(voi.boxLo[v])) / res;
    double d = (0.5lf + 2.0lf / double(kLdiSubpixelSteps)) * sqrt(pu * pu + pv * pv);
    dvec3 regionOrigin = dvec3(voi.overlapLo);
    dvec3 extent = dvec3(voi.overlapHi) - regionOrigin;
    double grow = d * (1.0lf + 1e-6lf) + (length(extent) + 2.0lf * d) * 0.000003814697265625lf;  // 2^-18
    vec4 nearLo = vec4(vec3(-grow), float(d * (1.0lf + 1e-6lf)));
    vec4 nearHi = vec4(vec3(extent + dvec3(grow)), 0.0);

    for (uint side = 0u; side < 2u; ++side) {
        uint t = 2u * p + side;
        LdiSceneObjectGpu o = objects[side];
        dmat4 m = objectToWorld(o);
        LdiTileGpu tile = emptyTile(t);
        tile.objectToClip = mat4(views[side].worldToClip * m);
        tile.vertices = o.vertices;
        tile.entryIsFront = views[side].entryIsFront ? 1u : 0u;
        tile.indexCount = o.indexCount;
        tile.firstIndex = o.firstIndex;
        tile.nearWorld = views[side].nearWorld;
        tile.farWorld = views[side].farWorld;
        tile.boundFromDrawn = 1u;
        dmat4 local = m;
        local[3].xyz -= regionOrigin;
        tile.objectToLocal = mat4(local);
        tile.nearLo = nearLo;
        tile.nearHi = nearHi;
        tiles[t] = tile;
        writeFirstDraw(t, o.indexCount, o.firstIndex);
        // §3.3b: this object's vertices against the other's LDI (tile t ^ 1).
        writePointTest(t, LdiPointTestGpu(mat4(views[side ^ 1u].worldToTexel * m), o.vertices, t ^ 1u, p << 1 | side,
                                          0u, 0u));
    }
    LdiPairInfoGpu info;
    info.a = a;
    info.b = b;
    info.axis = voi.axis;
    info.flags = (voi.aFromMin ? kLdiPairAFromMin : 0u) | (voi.extended ? kLdiPairExtended : 0u) | kLdiPairBoundFromDrawn;
    for (uint k = 0u; k < 3u; ++k) {
        info.box[k] = voi.boxLo[k];
        info.box[3u + k] = voi.boxHi[k];
        info.overlap[k] = voi.overlapLo[k];
        info.overlap[3u + k] = voi.overlapHi[k];
    }
    info.pixelArea = pixelArea;
    info.tightBound = 0.0lf;
    pairs[p] = info;
}
