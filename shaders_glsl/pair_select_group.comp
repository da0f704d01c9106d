// Pair selection, step group: the straddling object's partners flagged, the first open pair's second object (pair_select.glsl).
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_basic : require

#include "pair_select.glsl"

void main() { groupStep(); }
