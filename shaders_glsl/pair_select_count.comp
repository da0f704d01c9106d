// Pair selection, step count: the counts, the accepted pairs per first object, the smallest open first object (pair_select.glsl).
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_basic : require

#include "pair_select.glsl"

void main() { countStep(); }
