// Pair selection, step cut: the object whose accepted pairs straddle maxPairs (pair_select.glsl).
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_basic : require

#include "pair_select.glsl"

void main() { cutStep(); }
