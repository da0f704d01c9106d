// Method `ldi`, GPU-driven set-up, step 1 of 2: a verdict per candidate (ldi_pair_setup.glsl).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "ldi_pair_setup.glsl"

void main() { writeVerdicts(); }
