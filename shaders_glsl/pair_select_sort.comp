// Pair selection, step sort: each selected pair put at its rank (pair_select.glsl).
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_basic : require

#include "pair_select.glsl"

void main() { sortStep(); }
