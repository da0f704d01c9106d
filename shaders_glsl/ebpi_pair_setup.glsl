// Method `ebpi`: the frame's tested pairs from its candidates, on the GPU (shared/ebpi_pair_setup.h),
// in two steps around the pair selection (shared/pair_selection.h):
//   verdicts (a thread per candidate, many workgroups): open when an object is not a closed solid,
//     accepted when their boxes, tightened where the CPU positions are current, overlap with a
//     volume; the selection keeps the first maxPairs accepted ones in (a, b) order, so which pairs
//     a full frame tests does not depend on the order of the broadphase's list, which has none;
//   tables (one workgroup): the selected pairs given their gradient slots in slot order (past
//     maxGradientVertices the last ones are dropped), then every slot's tables written, the
//     unused slots' empty.
// The bindings and bodies of both steps: ebpi_pair_verdicts.comp and ebpi_pair_setup.comp, a shader
// each, so that a dispatch touches only the buffers its step does.
#include "shared/ebpi_image.h"
#include "shared/ebpi_pair_setup.h"
#include "shared/ebpi_trace.h"
#include "shared/ebpi_volume.h"
#include "shared/broadphase.h"
#include "shared/float_order.h"
#include "shared/pair_selection.h"

layout(local_size_x = kEbpiSetupGroupSize) in;

layout(set = 0, binding = kEbpiSetupBindingBounds, std430) readonly buffer Bounds { uint bounds[]; };
layout(set = 0, binding = kEbpiSetupBindingCandidates, std430) readonly buffer Candidates {
    PairListHeader candidateHeader;
    uvec2 candidates[];
};
layout(set = 0, binding = kEbpiSetupBindingSceneObjects, std430) readonly buffer SceneObjects {
    EbpiSceneObjectGpu sceneObjects[];
};
layout(set = 0, binding = kEbpiSetupBindingStartAxes, std430) readonly buffer StartAxes { EbpiStartAxesGpu startAxes[]; };
layout(set = 0, binding = kEbpiSetupBindingParams, std430) readonly buffer Params { EbpiSetupParamsGpu params; };
layout(set = 0, binding = kEbpiSetupBindingObjects, std430) writeonly buffer Objects { ObjectGpu objects[]; };
layout(set = 0, binding = kEbpiSetupBindingTraceObjects, std430) writeonly buffer TraceObjects {
    EbpiTraceObjectGpu traceObjects[];
};
layout(set = 0, binding = kEbpiSetupBindingViews, std430) writeonly buffer Views { EbpiViewGpu views[]; };
layout(set = 0, binding = kEbpiSetupBindingRayViews, std430) writeonly buffer RayViews { EbpiRayViewGpu rayViews[]; };
layout(set = 0, binding = kEbpiSetupBindingJobs, std430) writeonly buffer Jobs { EbpiImageJobGpu jobs[]; };
layout(set = 0, binding = kEbpiSetupBindingVolumePairs, std430) writeonly buffer VolumePairs {
    EbpiVolumePairGpu volumePairs[];
};
layout(set = 0, binding = kEbpiSetupBindingCrossingPairs, std430) writeonly buffer CrossingPairs {
    EbpiCrossingPairGpu crossingPairs[];
};
layout(set = 0, binding = kEbpiSetupBindingDirectionPairs, std430) writeonly buffer DirectionPairs {
    EbpiDirectionPairGpu directionPairs[];
};
layout(set = 0, binding = kEbpiSetupBindingTraversalPairs, std430) writeonly buffer TraversalPairs {
    PairListHeader traversalHeader;
    uvec2 traversalPairs[];
};
layout(set = 0, binding = kEbpiSetupBindingSlots, std430) coherent buffer Slots {
    EbpiSetupStateGpu state;
    EbpiSlotGpu slots[];
};
layout(set = 0, binding = kEbpiSetupBindingVerdicts, std430) writeonly buffer Verdicts { uint verdicts[]; };
layout(set = 0, binding = kEbpiSetupBindingSelection, std430) readonly buffer Selection {
    PairSelectionStateGpu selection;
};
layout(set = 0, binding = kEbpiSetupBindingSelectedPairs, std430) readonly buffer SelectedPairs { uvec2 selected[]; };

dvec3 doubles(double v[3]) { return dvec3(v[0], v[1], v[2]); }

// The object's world box: the candidate box, tightened by its placed mesh box where current.
EbpiBoxGpu objectBox(uint object) {
    uint n = params.objectCount;
    dvec3 origin = doubles(params.candidateOrigin);
    EbpiBoxGpu box;
    for (uint k = 0u; k < 3u; ++k) {
        box.lo[k] = double(decodeOrderedFloat(bounds[object * 3u + k])) + origin[k];
        box.hi[k] = double(decodeOrderedFloat(bounds[(n + object) * 3u + k])) + origin[k];
    }
    EbpiSceneObjectGpu o = sceneObjects[object];
    if (o.hasLocalBox != 0u) box = ebpiTightenedBox(box, o.row0, o.row1, o.row2, doubles(o.localLo), doubles(o.localHi));
    return box;
}

EbpiPairBoxesGpu pairBoxes(uint a, uint b) { return ebpiPairBoxes(objectBox(a), objectBox(b)); }

// The pair's last axes, or the world's (binary search of the sorted table).
dmat3 startOf(uint a, uint b) {
    dmat3 axes = dmat3(1.0LF);
    if (params.optimize == 0u) return axes;
    uint lo = 0u, hi = params.startAxesCount;
    while (lo < hi) {
        uint mid = (lo + hi) / 2u;
        EbpiStartAxesGpu e = startAxes[mid];
        if (e.a == a && e.b == b) {
            for (uint k = 0u; k < 9u; ++k) axes[k / 3u][k % 3u] = e.axes[k];
            return axes;
        }
        if (e.a < a || (e.a == a && e.b < b)) lo = mid + 1u;
        else hi = mid;
    }
    return axes;
}

// Step 0: a verdict per stored candidate (grid-stride: the list may outgrow one dispatch).
void writeVerdicts() {
    uint listed = min(candidateHeader.count, candidateHeader.capacity);
    for (uint i = gl_GlobalInvocationID.x; i < listed; i += gl_NumWorkGroups.x * kEbpiSetupGroupSize) {
        uvec2 pair = candidates[i];
        if (sceneObjects[pair.x].closed == 0u || sceneObjects[pair.y].closed == 0u)
            verdicts[i] = kPairOpen;
        else
            verdicts[i] = pairBoxes(pair.x, pair.y).overlaps ? kPairAccepted : kPairRejected;
    }
}

// Step 1, thread 0: the selected pairs into slots 0 .. activePairs - 1, given their gradient
// slots in slot order (the pairs past maxGradientVertices are dropped), and the counts.
void fillSlots() {
    uint taken = selection.selected, vertices = 0u, used = 0u;
    for (; used < taken; ++used) {
        uvec2 pair = selected[params.slotCount + used];  // the sorted half
        uint countA = sceneObjects[pair.x].vertices.count, countB = sceneObjects[pair.y].vertices.count;
        uint room = params.maxGradientVertices - vertices;
        if (countA > room || countB > room - countA) break;
        slots[used] = EbpiSlotGpu(pair.x, pair.y, countA, countB);
        vertices += countA + countB;
    }
    bool anyOpen = selection.open != 0u;
    state.activePairs = used;
    state.overlappingPairs = selection.accepted;
    state.gradientDropped = taken - used;
    state.openPairs = selection.open;
    state.firstOpenA = anyOpen ? selection.firstOpenA : 0u;
    state.firstOpenB = anyOpen ? selection.firstOpenB : 0u;
    state.listedPairs = candidateHeader.count;
    state.listCapacity = candidateHeader.capacity;
    traversalHeader = PairListHeader(used, params.slotCount, 0u, 0u);
}

// View v before the directions pass fits its rotation, window and scales (it has no direction
// yet): only its pixels' place and the region it covers.
EbpiViewGpu unfittedView(uint v, dvec3 regionLo, dvec3 regionHi) {
    EbpiViewGpu view;
    for (uint k = 0u; k < 9u; ++k) view.rotation[k] = 0.0LF;
    view.originX = 0.0LF;
    view.originY = 0.0LF;
    view.pixelX = 1.0LF;
    view.pixelY = 1.0LF;
    for (uint k = 0u; k < 15u; ++k) view.scales[k] = 1.0LF;
    view.width = 0u;
    view.height = 0u;
    view.firstPixel = v * params.pixelsPerView;
    view.unused = 0u;
    for (uint k = 0u; k < 3u; ++k) {
        view.regionLo[k] = regionLo[k];
        view.regionHi[k] = regionHi[k];
    }
    return view;
}

// Slot p's crossing pair: its two objects' triangles (from firstIndexA, firstIndexB) within the region.
EbpiCrossingPairGpu crossingPair(uint p, dvec3 regionLo, dvec3 regionHi, uint firstIndexA, uint firstIndexB) {
    EbpiCrossingPairGpu crossing;
    for (uint k = 0u; k < 3u; ++k) {
        crossing.regionLo[k] = regionLo[k];
        crossing.regionHi[k] = regionHi[k];
    }
    crossing.objectA = 2u * p;
    crossing.objectB = 2u * p + 1u;
    crossing.firstIndexA = firstIndexA;
    crossing.firstIndexB = firstIndexB;
    crossing.firstView = 3u * p;
    crossing.unused0 = 0u;
    crossing.unused1 = 0u;
    crossing.unused2 = 0u;
    return crossing;
}

void writeEmptySlot(uint p) {
    for (uint k = 0u; k < 2u; ++k) {
        ObjectGpu o;
        o.objectToLocal = mat4(1.0);
        o.vertices = VertexSourceGpu(0u, 3u, 0u, 0u);
        objects[2u * p + k] = o;
        traceObjects[2u * p + k] = EbpiTraceObjectGpu(o, 0u, 0u, (2u * p + k) * params.boxesPerObject, 0u);
    }
    for (uint axis = 0u; axis < 3u; ++axis) {
        uint v = 3u * p + axis;
        views[v] = unfittedView(v, dvec3(0.0LF), dvec3(-1.0LF));  // an empty region
        rayViews[v] = EbpiRayViewGpu(params.tolerance, 0.0LF, 0.0LF, 0.0LF, v * params.tilesPerView, 0u, 2u * p,
                                     2u * p + 1u, p, axis);
        for (uint k = 0u; k < 2u; ++k) jobs[6u * p + 2u * axis + k] = EbpiImageJobGpu(v, 2u * p + k, 0u, 0u);
    }
    volumePairs[p] = EbpiVolumePairGpu(2u * p, 2u * p + 1u, 0u, 0u, 1.0LF, 1.0LF);
    crossingPairs[p] = crossingPair(p, dvec3(0.0LF), dvec3(-1.0LF), 0u, 0u);  // an empty region
    EbpiDirectionPairGpu direction;
    for (uint k = 0u; k < 9u; ++k) direction.start[k] = k % 4u == 0u ? 1.0LF : 0.0LF;
    for (uint k = 0u; k < 3u; ++k) {
        direction.overlapLo[k] = 0.0LF;
        direction.overlapHi[k] = 0.0LF;
        direction.unionLo[k] = 0.0LF;
        direction.unionHi[k] = 0.0LF;
    }
    direction.histogramScale = 1.0LF;
    direction.fixedReserve = 0.0LF;
    direction.objectA = 2u * p;
    direction.objectB = 2u * p + 1u;
    direction.firstIndexA = 0u;
    direction.firstIndexB = 0u;
    direction.trianglesA = 0u;
    direction.trianglesB = 0u;
    direction.firstView = 3u * p;
    direction.optimize = 0u;
    direction.resolution = params.resolution;
    direction.hitCapacity = params.hitCapacity;
    direction.inUse = 0u;
    direction.unused = 0u;
    directionPairs[p] = direction;
}

void writeSlot(uint p, uint firstSlotA) {
    EbpiSlotGpu slot = slots[p];
    EbpiSceneObjectGpu sceneA = sceneObjects[slot.a], sceneB = sceneObjects[slot.b];
    EbpiPairBoxesGpu boxes = pairBoxes(slot.a, slot.b);
    double grow = ebpiWidening(boxes.overlapLo, boxes.overlapHi);
    dvec3 regionLo = boxes.overlapLo - dvec3(grow), regionHi = boxes.overlapHi + dvec3(grow);

    EbpiSceneObjectGpu scene[2] = EbpiSceneObjectGpu[2](sceneA, sceneB);
    for (uint k = 0u; k < 2u; ++k) {
        ObjectGpu o;
        o.objectToLocal = ebpiObjectToLocal(scene[k].row0, scene[k].row1, scene[k].row2, boxes.origin);
        o.vertices = scene[k].vertices;
        objects[2u * p + k] = o;
        traceObjects[2u * p + k] = EbpiTraceObjectGpu(o, scene[k].firstIndex, scene[k].triangleCount,
                                                      (2u * p + k) * params.boxesPerObject, scene[k].tree);
    }
    double volumeScale = ebpiVolumeScaleOf(boxes.extent);
    for (uint axis = 0u; axis < 3u; ++axis) {
        uint v = 3u * p + axis;
        views[v] = unfittedView(v, regionLo, regionHi);
        rayViews[v] = EbpiRayViewGpu(params.tolerance, 0.0LF, 0.0LF, 0.0LF, v * params.tilesPerView, 0u, 2u * p,
                                     2u * p + 1u, p, axis);
        for (uint k = 0u; k < 2u; ++k)
            jobs[6u * p + 2u * axis + k] = EbpiImageJobGpu(v, 2u * p + k, scene[k].firstEdge, scene[k].edgeCount);
    }
    volumePairs[p] = EbpiVolumePairGpu(2u * p, 2u * p + 1u, firstSlotA, firstSlotA + slot.verticesA, volumeScale,
                                       ebpiGradientScaleOf(boxes.extent));
    crossingPairs[p] = crossingPair(p, regionLo, regionHi, sceneA.firstIndex, sceneB.firstIndex);

    EbpiDirectionPairGpu direction;
    dmat3 start = startOf(slot.a, slot.b);
    for (uint k = 0u; k < 9u; ++k) direction.start[k] = start[k / 3u][k % 3u];
    for (uint k = 0u; k < 3u; ++k) {
        direction.overlapLo[k] = boxes.overlapLo[k];
        direction.overlapHi[k] = boxes.overlapHi[k];
        direction.unionLo[k] = boxes.bothLo[k];
        direction.unionHi[k] = boxes.bothHi[k];
    }
    direction.histogramScale = ebpiHistogramScaleOf(boxes.extent);
    // The rays leave room for what the fixed-point sums may round by (at most half a quantum a
    // ray, ebpi_volume.h); the directions pass adds the float hits' (ebpiFloatRoundingBound).
    precise double reserve = (0.5LF * params.maxRays) / volumeScale;
    direction.fixedReserve = reserve;
    direction.objectA = 2u * p;
    direction.objectB = 2u * p + 1u;
    direction.firstIndexA = sceneA.firstIndex;
    direction.firstIndexB = sceneB.firstIndex;
    direction.trianglesA = sceneA.triangleCount;
    direction.trianglesB = sceneB.triangleCount;
    direction.firstView = 3u * p;
    direction.optimize = params.optimize;
    direction.resolution = params.resolution;
    direction.hitCapacity = params.hitCapacity;
    direction.inUse = 1u;
    direction.unused = 0u;
    directionPairs[p] = direction;
    traversalPairs[p] = uvec2(slot.a, slot.b);
}
