// Method `ebpi`, GPU-driven set-up, step 2 of 2: the slots' tables from the pair selection
// (ebpi_pair_setup.glsl).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "ebpi_pair_setup.glsl"

void main() {
    if (gl_LocalInvocationID.x == 0u) fillSlots();
    memoryBarrierBuffer();
    barrier();
    uint used = state.activePairs;
    for (uint p = gl_LocalInvocationID.x; p < params.slotCount; p += kEbpiSetupGroupSize) {
        if (p >= used) {
            writeEmptySlot(p);
            continue;
        }
        uint firstSlotA = 0u;
        for (uint q = 0u; q < p; ++q) firstSlotA += slots[q].verticesA + slots[q].verticesB;
        writeSlot(p, firstSlotA);
    }
}
