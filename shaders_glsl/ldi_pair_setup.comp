// Method `ldi`, GPU-driven set-up, step 2 of 2: the slots' tables from the pair selection
// (ldi_pair_setup.glsl).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "ldi_pair_setup.glsl"

void main() {
    if (gl_LocalInvocationID.x == 0u) writeState();
    uint used = selection.selected;
    for (uint p = gl_LocalInvocationID.x; p < params.maxPairs; p += kLdiSetupGroupSize) {
        if (p < used)
            writeSlot(p);
        else
            writeEmptySlot(p);
    }
}
