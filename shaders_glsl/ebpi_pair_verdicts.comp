// Method `ebpi`, GPU-driven set-up, step 1 of 2: a verdict per candidate (ebpi_pair_setup.glsl).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "ebpi_pair_setup.glsl"

void main() { writeVerdicts(); }
