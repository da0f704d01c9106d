// Penetrated-object pass (paper 1, section 5.2): where this object's own recount says an edge
// point lies inside it (stencil == bias + 1), writes the object's id.
#version 460

layout(location = 0) flat in uint object;  // the draw's instance
layout(location = 0) out uint outId;

void main() { outId = object + 1u; }
