// Penetrated-object pass (paper 1, section 5.2): where this object's own recount says an edge
// point lies inside it (stencil == bias + 1), writes the object's id.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/stencil.h"

layout(push_constant) uniform Push { StencilDrawPush push; };
layout(location = 0) out uint outId;

void main() { outId = push.object + 1u; }
